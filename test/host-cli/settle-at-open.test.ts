// A pending plan is settled at the next open, by every command, read-only ones included: the
// state a killed `register_tool` delete or a killed promotion left (its journal on disk, part of
// its steps done) is finished before the command reads anything, never later by an unrelated one.
import * as E from "fp-ts/lib/Either.js";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildPlan, type StepInput } from "../../core/journal/plan.js";
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
  if (E.isLeft(plan)) throw new Error(plan.left);
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
});
