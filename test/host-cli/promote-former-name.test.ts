// A draft promoted to the name of a deleted tool whose usage history is kept: the tool continues
// that history, so the draft's launches cannot come along. register_tool draft= says so (never
// "moved"); an automatic review is refused that target and names its drafts elsewhere. Through the
// real command.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let agent: string;
let recipes: string;
const env = (): NodeJS.ProcessEnv => ({ PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" });
beforeEach(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-former-"));
  recipes = join(agent, "recipes");
  mkdirSync(join(recipes, "drafts"), { recursive: true });
  // a tool called five times, then deleted; its launches not yet folded into the ledger
  writeFileSync(join(recipes, "foo.json"), JSON.stringify({ description: "foo", template: "printf foo" }));
  for (let i = 0; i < 5; i++) expect(runCli(["call", "foo"], env()).status).toBe(0);
  expect(runCli(["register_tool", "name=foo", "template=null"], env()).status).toBe(0);
});
afterEach(() => rmSync(agent, { recursive: true, force: true }));

const usageOf = (id: string): Record<string, unknown> | undefined =>
  (runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env()).body.details["active"] as { id: string; usage?: Record<string, unknown> }[]).find((a) => a.id === id)?.usage;

describe("promotion to a name a deleted tool's history keeps", () => {
  it("register_tool draft= writes the tool and says that the draft's launches stay with the draft", () => {
    writeFileSync(join(recipes, "drafts", "dr.json"), JSON.stringify({ description: "dr", template: "printf dr" }));
    for (let i = 0; i < 2; i++) expect(runCli(["spawn", `file=${join(recipes, "drafts", "dr.json")}`], env()).status).toBe(0);
    const promoted = runCli(["register_tool", "name=foo", `draft=${join(recipes, "drafts", "dr.json")}`], env());
    expect(promoted.status).toBe(0);
    expect(promoted.stdout).toContain('Registered tool "foo" from draft recipe.');
    expect(promoted.stdout).toContain("Usage lineage not moved: foo.json already has its own usage lineage (foo), that of a former tool of this name: the tool continues that history (the tool is written; the draft keeps its usage)");
    expect(usageOf("foo")).toMatchObject({ lifetime_calls: 5 });
  });

  it("an automatic review may not name it as a target; a promotion left unnamed takes the draft's name", () => {
    for (let i = 1; i <= 12; i++) writeFileSync(join(recipes, "drafts", `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `d${i}`, template: `printf d${i}` }));
    expect(runCli(["review"], env()).status).toBe(0);
    const [batch] = readdirSync(join(recipes, ".usage", "reviews", "draft", "batches"));
    const projection = JSON.parse(readFileSync(join(recipes, ".usage", "reviews", "draft", "batches", batch!, "projection.json"), "utf8")) as {
      batchId: string;
      drafts: { draft: string; sha256: string; suggested_name?: string }[];
    };
    const replyWith = (first: Record<string, unknown>): string => {
      const decisions = projection.drafts.map((d, i) => ({ draft: d.draft, sha256: d.sha256, action: "discard", rationale: "r", ...(i === 0 ? first : {}) }));
      const file = join(agent, `reply-${Math.random().toString(36).slice(2)}.txt`);
      writeFileSync(file, `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: projection.batchId, decisions })}\n`);
      return file;
    };
    const refused = runCli(["review", "--scripted", replyWith({ action: "promote", target: "foo" })], env());
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("promotion target keeps the usage history of a former tool of that name (the draft's launches would not come along): foo");
    expect(readdirSync(recipes).filter((n) => n.endsWith(".json"))).toEqual([]);
    // a retry, then a reply that leaves the name to the review: the draft's own
    expect(runCli(["message", "to=tool:pi-actors", "type=review.retry", 'body={"scope":"draft"}'], env()).status).toBe(0);
    const promoted = runCli(["review", "--scripted", replyWith({ action: "promote" })], env());
    expect(promoted.status, promoted.stderr).toBe(0);
    expect(readdirSync(recipes).filter((n) => n.endsWith(".json"))).toEqual(["d01.json"]);
    expect(usageOf("foo")).toBeUndefined();
  });
});
