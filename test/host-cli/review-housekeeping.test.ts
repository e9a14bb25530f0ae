// The draft review's folders through the real `review` command: stray temps a killed write left
// are swept, old finished batch folders are pruned (the newest few and every unfinished one
// stay), and a reviewer killed for printing too much says so in the review result and the
// reviews view.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

let agent: string;
let reviews: string;
let env: Record<string, string>;
beforeEach(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-review-tidy-"));
  mkdirSync(join(agent, "recipes", "drafts"), { recursive: true });
  reviews = join(agent, "recipes", ".usage", "reviews", "draft");
  env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
});
afterEach(() => rmSync(agent, { recursive: true, force: true }));

/** a batch folder as a cycle leaves it: finished once its quarantine was collected */
function batch(id: string, day: number, finished: boolean | undefined): string {
  const dir = join(reviews, "batches", id);
  mkdirSync(join(dir, "quarantine"), { recursive: true });
  writeFileSync(join(dir, "batch.json"), JSON.stringify({ batchId: id, createdAt: `2026-01-${String(day).padStart(2, "0")}T00:00:00.000Z`, drafts: [], activeTools: [] }));
  if (finished !== undefined)
    writeFileSync(join(dir, "evidence.json"), JSON.stringify({ batchId: id, outcomes: [], garbageCollection: { reviewedSources: 12, status: finished ? "completed" : "pending" } }));
  return dir;
}

describe("review folder housekeeping", () => {
  it("sweeps stray temps and prunes finished batches beyond the newest five", () => {
    for (let day = 1; day <= 7; day++) batch(`done-${day}`, day, true);
    batch("failed-0", 0 + 1, undefined); // oldest, never finished: kept for the operator
    batch("pending-0", 1, false);
    const newest = join(reviews, "batches", "done-7");
    writeFileSync(join(newest, ".evidence.json.123-1.tmp"), "{");
    writeFileSync(join(newest, "other.tmp"), "x");
    writeFileSync(join(reviews, ".state.json.99-2.tmp"), "{");
    const r = runCli(["review"], env);
    expect(r.status).toBe(0);
    expect(readdirSync(join(reviews, "batches")).sort()).toEqual(["done-3", "done-4", "done-5", "done-6", "done-7", "failed-0", "pending-0"]);
    expect(readdirSync(newest).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(existsSync(join(reviews, ".state.json.99-2.tmp"))).toBe(false);
  }, 60_000);

  it("a reviewer killed for the size of its output says so", () => {
    for (let i = 1; i <= 12; i++) writeFileSync(join(agent, "recipes", "drafts", `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `D${i}`, template: `echo d${i}` }));
    const loud = { ...env, PI_RECIPES_REVIEWER: "head -c 17000000 /dev/zero" };
    const r = runCli(["review"], loud);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("reviewer was killed: its output passed the limit of 16777216 bytes");
    const view = runCli(["inspect", "target=recipes", "view=reviews", "verbose=true"], loud);
    expect(view.stdout).toContain("reviewer was killed: its output passed the limit of 16777216 bytes");
    // the plain view says it too, with what to do next
    const plain = runCli(["inspect", "target=recipes", "view=reviews"], loud);
    expect(plain.stdout).toMatch(/^draft_review .*last_error=.*reviewer was killed: its output passed the limit of 16777216 bytes/m);
    expect(plain.stdout).toMatch(/^next: message to=tool:pi-actors type=review\.retry/m);
  }, 120_000);
});
