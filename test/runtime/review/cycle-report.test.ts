// What one draft-review cycle reports and leaves behind: its steps in order, the batch it worked on,
// the evidence of an executed batch and its cleanup (held back while a journal of the batch is
// left), each failure stage with its error, recovery of a failed execution until it parks, and
// review.retry / review.reset with and without written decisions.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger } from "../../../runtime/ledger/index.js";
import { seedObserved } from "../../../runtime/ledger/seed-lineages.js";
import { batchDir, openReviews, statePath, type ReviewOptions } from "../../../runtime/review/review-context.js";
import { controlReview, readState, runCycle, type CycleOptions, type CycleReport } from "../../../runtime/review/cycle.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const dir = batchDir(paths, "batch-1");
const draftPath = (i: number): string => `${paths.draftRoot}/draft_${String(i).padStart(2, "0")}.json`;

function volume(): MemFileSystem {
  const files: Record<string, string> = { [`${paths.recipeRoot}/existing.json`]: JSON.stringify({ template: "echo e" }) };
  for (let i = 0; i < 12; i++) files[draftPath(i)] = JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` });
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

type Projection = { batchId: string; drafts: { draft: string; sha256: string }[] };
const projectionOf = (input: string): Projection => JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as Projection;

/** a reviewer that answers `reply(projection)`, counting its calls */
const answering = (reply: (p: Projection) => string, calls = { n: 0 }): Reviewer => ({
  describe: "test",
  review: async (input) => (calls.n++, reply(projectionOf(input))),
});
const promoteFirst = (target: string, calls?: { n: number }): Reviewer =>
  answering((p) => {
    const decisions = p.drafts.map((d, i) => ({ draft: d.draft, sha256: d.sha256, action: i === 0 ? "promote" : "discard", rationale: "r", ...(i === 0 ? { target } : {}) }));
    return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions })}`;
  }, calls);

async function cycle(fs: FileSystem, options: CycleOptions = {}, extra: Partial<ReviewOptions> = {}): Promise<CycleReport> {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => "batch-1", ...extra });
  try {
    return await runCycle(ctx, options);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

async function withCtx<A>(fs: FileSystem, run: (ctx: ReturnType<typeof openReviews>) => Promise<A>, lock: Lock = inProcess): Promise<A> {
  const ctx = openReviews({ fs, lock, paths, now: () => Date.UTC(2026, 0, 2), lockTimeoutMs: 1234 });
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

const text = async (fs: FileSystem, p: string): Promise<string> => new TextDecoder().decode(await fs.readFile(p));
const json = async (fs: FileSystem, p: string): Promise<Record<string, unknown>> => JSON.parse(await text(fs, p)) as Record<string, unknown>;
const exists = async (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

/** a volume whose batch is reviewed (its decisions written) and whose execution was interrupted:
 *  the state says `executing` */
async function interrupted(): Promise<MemFileSystem> {
  const fs = volume();
  // a reviewer whose decisions are written, then a state put back to `executing` as a crash leaves it
  await cycle(fs, { reviewer: promoteFirst("first_tool") });
  const state = await json(fs, statePath(paths));
  await fs.rm(`${paths.recipeRoot}/first_tool.json`);
  for (let i = 0; i < 12; i++) await fs.writeFile(draftPath(i), JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` }));
  await fs.writeFile(statePath(paths), JSON.stringify({ ...state, phase: "executing" }));
  await fs.rm(`${dir}/evidence.json`);
  return fs;
}

describe("a draft review cycle's report", () => {
  it("names its steps in order, its batch and its projection; the evidence counts the outcomes and records the cleanup", async () => {
    const fs = volume();
    const report = await cycle(fs, { reviewer: promoteFirst("first_tool") });
    expect(report).toEqual({ phase: "completed", steps: ["captured", "reviewed", "completed", "collected"], batchId: "batch-1", projection: `${dir}/projection.json`, actions: { promoted: 1, discarded: 11 } });
    const evidence = await json(fs, `${dir}/evidence.json`);
    expect(evidence).toMatchObject({ batchId: "batch-1", actions: { promoted: 1, discarded: 11 }, garbageCollection: { reviewedSources: 12, status: "completed" } });
    expect(evidence).not.toHaveProperty("lineage_diagnostics");
    expect(await exists(fs, `${dir}/quarantine`)).toBe(false);
    // a later cycle has nothing left to do for this batch
    expect(await cycle(fs)).toEqual({ phase: "completed", steps: [], batchId: "batch-1", projection: `${dir}/projection.json` });
  });

  it("a batch's cleanup waits while a journal of it is left; dot files and folders there do not hold it back", async () => {
    const fs = volume();
    await cycle(fs, { reviewer: promoteFirst("first_tool") });
    const evidence = await json(fs, `${dir}/evidence.json`);
    await fs.writeFile(`${dir}/evidence.json`, JSON.stringify({ ...evidence, garbageCollection: { reviewedSources: 12, status: "pending" } }));
    await fs.mkdir(`${dir}/quarantine`, { recursive: true });
    await fs.writeFile(`${dir}/quarantine/draft_00.json`, "{}");
    await fs.mkdir(`${dir}/journal/sub`, { recursive: true });
    await fs.writeFile(`${dir}/journal/plan-1.json`, "{}");
    expect((await cycle(fs)).steps).toEqual([]);
    expect(await exists(fs, `${dir}/quarantine/draft_00.json`)).toBe(true);
    expect(await json(fs, `${dir}/evidence.json`)).toMatchObject({ garbageCollection: { status: "pending" } });

    await fs.rm(`${dir}/journal/plan-1.json`);
    await fs.writeFile(`${dir}/journal/.plan-1.json.tmp`, "{");
    expect((await cycle(fs)).steps).toEqual(["collected"]);
    expect(await exists(fs, `${dir}/quarantine`)).toBe(false);
    expect(await json(fs, `${dir}/evidence.json`)).toMatchObject({ garbageCollection: { reviewedSources: 12, status: "completed" } });
  });

  it("a cleanup that fails leaves the evidence pending; the next cycle finishes it", async () => {
    const fs = volume();
    let refuse = true;
    const failingRm: FileSystem = {
      ...fs,
      rm: (p, o) => (refuse && p === `${dir}/quarantine` ? Promise.reject(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" })) : fs.rm(p, o)),
    };
    await expect(cycle(failingRm, { reviewer: promoteFirst("first_tool") })).rejects.toThrow(/EACCES/);
    expect(await json(fs, `${dir}/evidence.json`)).toMatchObject({ garbageCollection: { reviewedSources: 12, status: "pending" } });
    expect(await withCtx(fs, readState)).toMatchObject({ phase: "completed" });
    refuse = false;
    expect(await cycle(failingRm)).toMatchObject({ phase: "completed", steps: ["collected"] });
    expect(await json(fs, `${dir}/evidence.json`)).toMatchObject({ garbageCollection: { status: "completed" } });
  });

  it("a target name that already has a lineage of its own (a tool deleted, its history kept) is refused: the draft's usage could not follow", async () => {
    const fs = volume();
    const seeded = await withCtx(fs, (ctx) => seedObserved(ctx.ledger, [{ key: "first_tool.json", name: "first_tool", fingerprint: "f".repeat(64) }]));
    expect(seeded.diagnostics).toEqual([]);
    const report = await cycle(fs, { reviewer: promoteFirst("first_tool") });
    expect(report.phase).toBe("failed");
    expect(report.error).toContain("promotion target keeps the usage history of a former tool of that name (the draft's launches would not come along): first_tool");
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(false);
  });

  it("a reply that does not parse fails the batch at result_parse; one whose decisions are wrong at result_validation, every error listed", async () => {
    const fs = volume();
    const garbage = await cycle(fs, { reviewer: answering(() => "no result line here") });
    expect(garbage).toMatchObject({ phase: "failed", steps: ["captured", "failed"], batchId: "batch-1" });
    expect(garbage.error).toBe("Draft reviewer output marker is missing.");
    expect(await withCtx(fs, readState)).toMatchObject({ phase: "failed", failedStage: "result_parse", attempts: 1 });

    const none = await cycle(fs, { reviewer: answering((p) => `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions: [] })}`) });
    expect(none).toMatchObject({ phase: "failed", steps: ["failed"] });
    const state = await withCtx(fs, readState);
    expect(state).toMatchObject({ phase: "failed", failedStage: "result_validation", attempts: 2 });
    // one error per draft without a decision, each named
    const errors = (state?.lastError ?? "").split("; ");
    expect(errors).toHaveLength(12);
    expect(new Set(errors).size).toBe(12);
  });

  it("a captured batch changed by hand fails at review_state without asking the reviewer", async () => {
    const fs = volume();
    expect(await cycle(fs, { capture: true })).toMatchObject({ phase: "captured", steps: ["captured"] });
    const batch = await json(fs, `${dir}/batch.json`);
    await fs.writeFile(`${dir}/batch.json`, JSON.stringify({ ...batch, createdAt: "2020-01-01T00:00:00.000Z" }));
    const calls = { n: 0 };
    const report = await cycle(fs, { reviewer: promoteFirst("first_tool", calls) });
    expect(report).toMatchObject({ phase: "failed", steps: ["failed"], error: "captured batch batch-1 is missing or changed" });
    expect(calls.n).toBe(0);
    expect(await withCtx(fs, readState)).toMatchObject({ failedStage: "review_state" });
  });

  it("without a reviewer a captured batch waits as it is; decisions of another batch are not its decisions", async () => {
    const fs = volume();
    await cycle(fs, { capture: true });
    expect(await cycle(fs)).toMatchObject({ phase: "captured", steps: [] });
    const other = { batchId: "batch-0", items: [] };
    await fs.writeFile(`${dir}/decisions.json`, JSON.stringify(other));
    expect(await cycle(fs)).toMatchObject({ phase: "captured", steps: [] });
    const calls = { n: 0 };
    expect(await cycle(fs, { reviewer: promoteFirst("first_tool", calls) })).toMatchObject({ phase: "completed", steps: ["reviewed", "completed", "collected"] });
    expect(calls.n).toBe(1);
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(true);
  });

  it("an interrupted execution is recovered; without its decisions it fails as a transaction, is retried by later cycles and parks after three", async () => {
    const fs = await interrupted();
    const decisions = await text(fs, `${dir}/decisions.json`);
    await fs.rm(`${dir}/decisions.json`);
    expect(await cycle(fs)).toMatchObject({ phase: "processing_failed", steps: ["recovered", "failed"], error: "review decisions of batch batch-1 are missing" });
    expect(await withCtx(fs, readState)).toMatchObject({ phase: "processing_failed", failedStage: "transaction", processingAttempts: 1 });
    await cycle(fs);
    expect((await cycle(fs)).steps).toEqual(["recovered", "failed"]);
    // parked: no cycle touches it again, only review.retry or review.reset
    expect(await cycle(fs)).toMatchObject({ phase: "processing_failed", steps: [] });
    expect(await withCtx(fs, readState)).toMatchObject({ processingAttempts: 3 });

    // with its decisions back, retry resumes them (never a new reviewer) and the next cycle finishes
    await fs.writeFile(`${dir}/decisions.json`, decisions);
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.reset"))).toMatchObject({ changed: false, reason: "review_recovery_evidence_requires_retry" });
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.retry"))).toMatchObject({ changed: true, phase: "executing", previous_phase: "processing_failed" });
    const calls = { n: 0 };
    expect(await cycle(fs, { reviewer: promoteFirst("other", calls) })).toMatchObject({ phase: "completed", steps: ["recovered", "completed", "collected"] });
    expect(calls.n).toBe(0);
    expect(await exists(fs, `${paths.recipeRoot}/first_tool.json`)).toBe(true);
  });

  it("a failed execution not yet parked is recovered by the next cycle", async () => {
    const fs = await interrupted();
    const decisions = await text(fs, `${dir}/decisions.json`);
    await fs.rm(`${dir}/decisions.json`);
    await cycle(fs);
    await fs.writeFile(`${dir}/decisions.json`, decisions);
    expect(await cycle(fs)).toMatchObject({ phase: "completed", steps: ["recovered", "completed", "collected"] });
  });

  it("retry without decisions goes back to the reviewer; reset removes the state; both wait for the lock as long as configured", async () => {
    const fs = volume();
    await cycle(fs, { reviewer: answering(() => "garbage") });
    const timeouts: (number | undefined)[] = [];
    const recording: Lock = { ...inProcess, withLock: async (_p, fn, o) => (timeouts.push(o?.timeoutMs), fn()) };
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.retry"), recording)).toMatchObject({ changed: true, phase: "captured" });
    await cycle(fs, { reviewer: answering(() => "garbage") });
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.reset"), recording)).toMatchObject({ changed: true, phase: "idle" });
    expect(await exists(fs, statePath(paths))).toBe(false);
    expect(await withCtx(fs, (ctx) => runCycle(ctx), recording)).toMatchObject({ phase: "idle" });
    expect(timeouts).toEqual([1234, 1234, 1234]);
  });
});
