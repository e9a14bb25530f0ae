// One review cycle at a time on an in-memory volume: reviewer failures and their limit, decisions
// as the only authority once written, retry and reset, drafts changed or moved by hand before the
// batch executes, a target that appeared meanwhile, and the reviews view.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger, promoteLineage } from "../../../runtime/ledger/index.js";
import { batchDir, openReviews, REPLY_FILE } from "../../../runtime/review/review-context.js";
import { controlReview, readState, runCycle, type CycleReport } from "../../../runtime/review/cycle.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { idleCycle } from "../../../runtime/review/host.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const draftText = (i: number): string => JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` });
const draftPath = (i: number): string => `${paths.draftRoot}/draft_${String(i).padStart(2, "0")}.json`;

function volume(count = 12): MemFileSystem {
  const files: Record<string, string> = { [`${paths.recipeRoot}/existing.json`]: JSON.stringify({ template: "echo e" }) };
  for (let i = 0; i < count; i++) files[draftPath(i)] = draftText(i);
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

const promoteFirst = (target: string, calls = { n: 0 }): Reviewer => ({
  describe: "test",
  review: async (input) => {
    calls.n++;
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { batchId: string; drafts: { draft: string; sha256: string }[] };
    const decisions = p.drafts.map((d, i) => ({ draft: d.draft, sha256: d.sha256, action: i === 0 ? "promote" : "discard", rationale: "r", ...(i === 0 ? { target } : {}) }));
    return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions })}`;
  },
});
const failing = (calls: { n: number }): Reviewer => ({ describe: "fails", review: async () => (calls.n++, Promise.reject(new Error("run missing"))) });

async function cycle(fs: FileSystem, reviewer?: Reviewer): Promise<CycleReport> {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => "batch-1" });
  try {
    return await runCycle(ctx, reviewer === undefined ? {} : { reviewer });
  } finally {
    await closeLedger(ctx.ledger);
  }
}

async function withCtx<A>(fs: FileSystem, run: (ctx: ReturnType<typeof openReviews>) => Promise<A>): Promise<A> {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 2) });
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

const exists = async (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

/** a volume whose batch is reviewed (decisions written) but not executed yet */
async function reviewedNotExecuted(target: string): Promise<MemFileSystem> {
  const fs = volume();
  // stop the cycle right after the reviewer's decisions: the reviewer below throws once they exist
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => 0, newId: () => "batch-1" });
  await runCycle(ctx, { capture: true });
  await closeLedger(ctx.ledger);
  const { writeJson } = await import("../../../runtime/review/files.js");
  const { planOf, validateDecisions } = await import("../../../core/review/decide.js");
  const { parseReply } = await import("../../../core/review/reply.js");
  const { reviewerInput } = await import("../../../runtime/review/cycle.js");
  const batch = JSON.parse(new TextDecoder().decode(await fs.readFile(`${batchDir(paths, "batch-1")}/batch.json`)));
  const reply = await promoteFirst(target).review(reviewerInput(batch));
  const parsed = parseReply(reply);
  if (parsed._tag === "Left") throw new Error(parsed.left._tag);
  const decisions = validateDecisions(batch, parsed.right);
  if (decisions._tag === "Left") throw new Error(decisions.left.join("; "));
  await writeJson(fs, `${batchDir(paths, "batch-1")}/decisions.json`, planOf(batch, decisions.right, paths.recipeRoot));
  await fs.writeFile(`${batchDir(paths, "batch-1")}/${REPLY_FILE}`, reply);
  return fs;
}

describe("what a draft reviewer reads", () => {
  it("the instructions, word for word, then the value-free projection of the batch", async () => {
    const fs = volume();
    let input: string | undefined;
    const reader: Reviewer = { describe: "reads its input", review: async (text) => ((input = text), "no result") };
    const ctx = openReviews({ fs, lock: inProcess, paths, now: () => 0, newId: () => "batch-1" });
    await runCycle(ctx, { reviewer: reader });
    await closeLedger(ctx.ledger);
    const instructions = [
      "You review captured draft recipes (command templates an agent ran once) and decide which become persistent tools.",
      "The JSON below describes each draft by structure only. Treat draft ids and sha256 content groups as opaque and return them verbatim.",
      'Make exactly one decision per draft: action "promote" or "discard". There is no quota.',
      "Only drafts with promotable=true may be promoted. Never return recipe content. Do not run or change anything.",
      'Each decision: {"draft", "sha256", "action", "rationale" (non-empty), "assessment": {"launches": <usage.lifetime_calls>}} and,',
      'for a promotion, optionally "target": a tool name matching ^[A-Za-z0-9_-]{1,64}$ (omit it to keep the draft\'s own name).',
      'End your output with the line DRAFT_REVIEW_RESULT followed by one JSON object: {"batchId", "decisions": [...]}.',
    ].join("\n");
    const { project } = await import("../../../core/review/projection.js");
    const batch = JSON.parse(new TextDecoder().decode(await fs.readFile(`${batchDir(paths, "batch-1")}/batch.json`)));
    expect(input).toBe(`${instructions}\n\n${JSON.stringify(project(batch), null, 2)}\n`);
  });
});

describe("a review cycle", () => {
  it("a failing reviewer is retried at most three times, then the batch waits for review.retry", async () => {
    const fs = volume();
    const calls = { n: 0 };
    for (let i = 0; i < 5; i++) await cycle(fs, failing(calls));
    expect(calls.n).toBe(3);
    const state = await withCtx(fs, readState);
    expect(state).toMatchObject({ phase: "failed", attempts: 3, failedStage: "review_run", lastError: "run missing" });
    // the view names the command that retries it, for the draft scope
    expect((await gatherReviews(fs, paths)).draft_review).toMatchObject({
      phase: "failed",
      failed_stage: "review_run",
      last_error: "run missing",
      next_action: 'message to=tool:pi-actors type=review.retry body={"scope":"draft"}',
    });
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.retry"))).toMatchObject({ changed: true, phase: "captured" });
    const ok = { n: 0 };
    expect((await cycle(fs, promoteFirst("first_tool", ok))).phase).toBe("completed");
    expect(ok.n).toBe(1);
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(true);
  });

  it("once decisions exist they alone decide: a changed reply and a broken reviewer change nothing", async () => {
    const fs = await reviewedNotExecuted("original_target");
    await fs.writeFile(`${batchDir(paths, "batch-1")}/${REPLY_FILE}`, "DRAFT_REVIEW_RESULT {\"garbage\": true}");
    const calls = { n: 0 };
    expect((await cycle(fs, failing(calls))).phase).toBe("completed");
    expect(calls.n).toBe(0);
    expect(await exists(fs, `${paths.recipeRoot}/original_target.json`)).toBe(true);
  });

  it("drafts changed or moved by hand before execution stay with their owner: the batch shrinks", async () => {
    const fs = await reviewedNotExecuted("first_tool");
    await fs.rename(draftPath(0), `${paths.recipeRoot}/by_hand.json`); // the promoted one, moved
    await fs.writeFile(draftPath(1), JSON.stringify({ template: "echo edited" })); // a discarded one, edited
    expect((await cycle(fs)).phase).toBe("completed");
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(false);
    expect(await exists(fs, `${paths.recipeRoot}/by_hand.json`)).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile(draftPath(1)))).toContain("edited");
    const evidence = JSON.parse(new TextDecoder().decode(await fs.readFile(`${batchDir(paths, "batch-1")}/evidence.json`)));
    expect(evidence.actions).toEqual({ skipped_source_moved: 1, skipped_source_changed: 1, discarded: 10 });
  });

  it("a draft promoted by hand (register_tool draft=) before execution is not promoted again: no second tool", async () => {
    const fs = await reviewedNotExecuted("first_tool");
    // what a hand promotion leaves: the tool written, the draft file kept, its lineage moved
    await fs.writeFile(`${paths.recipeRoot}/manual.json`, draftText(0));
    const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => "x" });
    try {
      expect(await promoteLineage(ctx.ledger, { from: draftPath(0), to: `${paths.recipeRoot}/manual.json`, moveFile: false })).toMatchObject({ ok: true });
    } finally {
      await closeLedger(ctx.ledger);
    }
    const report = await cycle(fs);
    expect(report).toMatchObject({ phase: "completed", actions: { skipped_source_promoted: 1, discarded: 11 } });
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(false);
    expect(await exists(fs, `${paths.recipeRoot}/manual.json`)).toBe(true);
  });

  it("a target that appeared after the review is never overwritten; its draft stays", async () => {
    const fs = await reviewedNotExecuted("first_tool");
    await fs.writeFile(`${paths.recipeRoot}/first_tool.json`, JSON.stringify({ template: "echo mine" }));
    expect((await cycle(fs)).phase).toBe("completed");
    expect(new TextDecoder().decode(await fs.readFile(`${paths.recipeRoot}/first_tool.json`))).toContain("mine");
    expect(await exists(fs, draftPath(0))).toBe(true);
  });

  it("a completed batch never blocks the next one; reset forgets a failed batch", async () => {
    const fs = volume(24);
    expect((await cycle(fs, promoteFirst("one"))).phase).toBe("completed");
    const ctx2 = openReviews({ fs, lock: inProcess, paths, now: () => 1, newId: () => "batch-2" });
    expect((await runCycle(ctx2, { reviewer: failing({ n: 0 }) })).phase).toBe("failed");
    expect(await controlReview(ctx2, "review.reset")).toMatchObject({ changed: true, phase: "idle", previous_phase: "failed" });
    expect(await readState(ctx2)).toBeUndefined();
    expect((await runCycle(ctx2, { reviewer: promoteFirst("two") })).phase).toBe("completed");
    await closeLedger(ctx2.ledger);
    expect(await exists(fs, `${paths.recipeRoot}/two.json`)).toBe(true);
    const reviews = await gatherReviews(fs, paths);
    expect(reviews.draft_review).toMatchObject({ phase: "completed", sources: 12, evidence: { actions: { promoted: 1, discarded: 11 }, garbage_collection: { status: "completed" } } });
    // one lineage per reviewed draft (24): two follow their promoted tools, a discarded draft keeps its own
    expect(reviews.lineage_count).toBe(24);
    expect(JSON.stringify(reviews)).not.toContain("template");
  });

  it("is scheduled only with the policy on, a reviewer, and no active run", async () => {
    const r = promoteFirst("x");
    expect(await idleCycle({ paths, fs: volume(), lock: inProcess }, { enabled: false, describe: "", reviewer: r }, () => 0)).toEqual({ skipped: "policy_off" });
    expect(await idleCycle({ paths, fs: volume(), lock: inProcess }, { enabled: true, describe: "" }, () => 0)).toEqual({ skipped: "no_reviewer" });
    expect(await idleCycle({ paths, fs: volume(), lock: inProcess }, { enabled: true, describe: "", reviewer: r }, () => 1)).toEqual({ skipped: "runs_active" });
  });
});
