// A pending plan is settled at the next open, by every command, read-only ones included: the
// state a killed `register_tool` delete or a killed promotion left (its journal on disk, part of
// its steps done) is finished before the command reads anything, never later by an unrelated one.
import * as E from "fp-ts/lib/Either.js";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildPlan, planErrorText, type StepInput } from "../../core/journal/plan.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { persistJournal } from "../../runtime/journal/apply.js";
import { newPlanId } from "../../runtime/journal/index.js";
import { runCli } from "../support/cli.js";

let agent: string;
let root: string;
let env: Record<string, string>;
beforeEach(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-settle-"));
  root = join(agent, "recipes");
  mkdirSync(root, { recursive: true });
  env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
});
afterEach(() => rmSync(agent, { recursive: true, force: true }));

/** writes the journal of a plan as runPlan does before its first step, and runs none of them */
async function pendingPlan(journalDir: string, kind: string, phases: StepInput[][]): Promise<void> {
  const plan = buildPlan({ id: newPlanId(Date.now()), kind, phases });
  if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
  await persistJournal(makeNodeFileSystem(), journalDir, { plan: plan.right, direction: "forward" });
}

const journals = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".journal.json")) : []);

/** `register_tool name=gone template=null` killed between removing gone.md and gone.json */
async function killedDelete(): Promise<string> {
  const md = join(root, "gone.md");
  const json = join(root, "gone.json");
  writeFileSync(md, "---\ndescription: Gone\n---\n\n```template\necho md\n```\n");
  writeFileSync(json, JSON.stringify({ description: "Gone", template: "echo gone" }));
  const dir = join(root, ".usage", "register-journal");
  await pendingPlan(dir, "register-delete", [
    [{ op: "unlink", path: md, before: readFileSync(md) }],
    [{ op: "unlink", path: json, before: readFileSync(json) }],
  ]);
  unlinkSync(md); // the first phase ran, then the process was killed
  return dir;
}

describe("a pending plan is settled by the next command", () => {
  for (const args of [["list"], ["inspect", "target=recipes", "view=summary"], ["schema", "gone"], ["call", "gone"]]) {
    it(`a killed register_tool delete is finished by \`${args.join(" ")}\``, async () => {
      const dir = await killedDelete();
      const r = runCli(args, env);
      expect(r.stderr).not.toContain("internal error");
      expect(journals(dir)).toEqual([]);
      expect(existsSync(join(root, "gone.json"))).toBe(false);
      expect(r.stdout).not.toMatch(/\bgone\b/);
    }, 60_000);
  }

  it("a killed promotion is a tool at the next `list`, not later during an unrelated command", async () => {
    const target = join(root, "promoted_tool.json");
    const dir = join(root, ".usage", "journal");
    await pendingPlan(dir, "lineage-promoted", [[{ op: "write", path: target, before: null, content: `${JSON.stringify({ description: "Promoted", template: "echo p" }, null, 2)}\n` }]]);
    const r = runCli(["list"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("promoted_tool");
    expect(journals(dir)).toEqual([]);
  }, 60_000);

  it("a killed promotion is a tool at the next `list` even when that list's index was current", async () => {
    // `list` answers from its index without a discovery when nothing changed (host-cli/front-door.ts):
    // a plan pending is a change the index cannot see, so it must be settled first
    writeFileSync(join(root, "kept.json"), JSON.stringify({ description: "Kept", template: "echo k" }));
    for (let i = 0; i < 2; i++) expect(runCli(["list"], env).stdout).toContain("kept");
    const target = join(root, "promoted_tool.json");
    const dir = join(root, ".usage", "journal");
    await pendingPlan(dir, "lineage-promoted", [[{ op: "write", path: target, before: null, content: `${JSON.stringify({ description: "Promoted", template: "echo p" }, null, 2)}\n` }]]);
    const r = runCli(["list"], env);
    expect(r.stdout).toContain("promoted_tool");
    expect(journals(dir)).toEqual([]);
  }, 60_000);

  /** a draft review of twelve drafts killed once it had written its final decisions (the first
   *  draft promoted as reviewed_tool, the others discarded) and the phase executing */
  function killedReview(): { readonly drafts: string; readonly reviews: string; readonly batchDir: string } {
    const drafts = join(root, "drafts");
    mkdirSync(drafts);
    for (let i = 1; i <= 12; i++) writeFileSync(join(drafts, `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `D${i}`, template: `echo d${i}` }));
    expect(runCli(["review"], env).stdout).toContain("phase=captured");
    // what the review wrote before it was killed: its final decisions and the phase executing
    const reviews = join(root, ".usage", "reviews", "draft");
    const state = JSON.parse(readFileSync(join(reviews, "state.json"), "utf8")) as { batchId: string };
    const batchDir = join(reviews, "batches", state.batchId);
    const batch = JSON.parse(readFileSync(join(batchDir, "batch.json"), "utf8")) as { drafts: { path: string; sha256: string; recipe: unknown }[] };
    const items = batch.drafts.map((d, i) => {
      const item = { position: i + 1, action: i === 0 ? "promote" : "discard", source: d.path, sha256: d.sha256, quarantine: `${String(i + 1).padStart(4, "0")}-${d.path.slice(d.path.lastIndexOf("/") + 1)}`, rationale: "r" };
      if (i !== 0) return item;
      const content = `${JSON.stringify(d.recipe, null, 2)}\n`;
      return { ...item, target: { name: "reviewed_tool", path: join(root, "reviewed_tool.json"), content, sha256: createHash("sha256").update(content).digest("hex") } };
    });
    writeFileSync(join(batchDir, "decisions.json"), JSON.stringify({ batchId: state.batchId, items }));
    writeFileSync(join(reviews, "state.json"), JSON.stringify({ ...state, phase: "executing" }));
    return { drafts, reviews, batchDir };
  }

  it("a draft review killed while executing its final decisions is carried out by the next `list`", () => {
    const { drafts, reviews } = killedReview();
    const r = runCli(["list"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("reviewed_tool");
    expect((JSON.parse(readFileSync(join(reviews, "state.json"), "utf8")) as { phase: string }).phase).toBe("completed");
    expect(readdirSync(drafts)).toEqual([]);
  }, 120_000);

  it("a draft review journal recovery set aside is named by the recipe views for as long as it is there", () => {
    const { batchDir } = killedReview();
    const journalDir = join(batchDir, "journal");
    mkdirSync(journalDir, { recursive: true });
    writeFileSync(join(journalDir, "0aaab-y.journal.json"), "garbage");
    // the next command finishing the review sets the torn journal aside and says so once
    expect(runCli(["list"], env).stderr).toContain("Draft review journal set aside");
    const aside = join(journalDir, "0aaab-y.journal.json.quarantined");
    expect(existsSync(aside)).toBe(true);
    for (const view of ["doctor", "summary"]) {
      const r = runCli(["inspect", "target=recipes", `view=${view}`], env);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`Journal ${aside} was set aside by recovery: the plan it held was not carried out`);
    }
    expect(runCli(["inspect", "target=recipes", "view=status"], env).stdout).toMatch(/ diagnostics=1( |$)/m);
    expect(runCli(["inspect", "target=recipes", "view=doctor"], env).stdout).toMatch(/^recipes doctor errors=0 warnings=1 /);
    rmSync(aside);
    expect(runCli(["inspect", "target=recipes", "view=doctor"], env).stdout).toMatch(/^recipes doctor errors=0 warnings=0 /);
    expect(runCli(["inspect", "target=recipes", "view=status"], env).stdout).toMatch(/ diagnostics=0( |$)/m);
  }, 120_000);
});
