// The portfolio review cycle (runtime/review/portfolio-cycle.ts) on the six-tool volume of
// props/support/portfolio-volume.ts: the stage each kind of failure is recorded at, which failed
// reviews the next cycle takes up again, the approved plan that activation accepts, and the lock
// the cycle and the operator's controls wait for.
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import type { MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock, LockOptions } from "../../../adapters/lock/Lock.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { closeLedger, seedLineages } from "../../../runtime/ledger/index.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { controlPortfolioReview, runPortfolioCycle, toolReviewDir, toolStatePath } from "../../../runtime/review/portfolio-cycle.js";
import { openReviews } from "../../../runtime/review/review-context.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";
import { approvedVolume, freshVolume, paths, recipeText, ROOT, scripted, SIZE, text, withCtx } from "../../../props/support/portfolio-volume.js";

const DIR = toolReviewDir(paths, "review-1");
const PROJECTION = `${DIR}/projection.json`;
const exists = (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);
const cycle = (fs: FileSystem, reviewer?: Reviewer) => withCtx(fs, (ctx) => runPortfolioCycle(ctx, { portfolioSize: SIZE, ...(reviewer === undefined ? { capture: true } : { reviewer }) }));
const toolReview = async (fs: FileSystem) => (await gatherReviews(fs, paths)).tool_review;

/** the six tools seeded and captured (no reviewer yet) */
async function captured(): Promise<MemFileSystem> {
  const fs = freshVolume();
  await withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
  expect(await cycle(fs)).toMatchObject({ phase: "captured", steps: ["captured"] });
  return fs;
}

/** a reviewer that counts how often it is asked and answers with `reply` */
function counting(reply: (input: string) => Promise<string>): Reviewer & { asked: number } {
  const r = { describe: "counting", asked: 0, review: async (input: string) => (r.asked++, reply(input)) };
  return r;
}

describe("a portfolio cycle without a reviewer", () => {
  it("captures nothing unless asked to, however many tools are eligible", async () => {
    const fs = freshVolume();
    await withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
    expect(await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { portfolioSize: SIZE }))).toMatchObject({ steps: [] });
    expect(await exists(fs, toolStatePath(paths))).toBe(false);
    expect(await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { portfolioSize: SIZE, capture: true }))).toMatchObject({ phase: "captured", steps: ["captured"] });
  });
});

describe("a failing review records its stage", () => {
  it("a captured portfolio that changed or is gone: review_state, and the reviewer is not asked", async () => {
    const fs = await captured();
    const portfolio = JSON.parse((await text(fs, `${DIR}/portfolio.json`))!) as Record<string, unknown>;
    await fs.writeFile(`${DIR}/portfolio.json`, JSON.stringify({ ...portfolio, createdAt: "2020-01-01T00:00:00.000Z" }));
    const reviewer = counting(scripted.review);
    const error = "captured portfolio review-1 is missing or changed";
    expect(await cycle(fs, reviewer)).toEqual({ phase: "failed", steps: ["failed"], reviewId: "review-1", projection: PROJECTION, error });
    expect(await toolReview(fs)).toMatchObject({ phase: "failed", failed_stage: "review_state", last_error: error, attempts: 1 });

    await fs.rm(`${DIR}/portfolio.json`);
    expect(await cycle(fs, reviewer)).toMatchObject({ phase: "failed", steps: ["failed"], error });
    expect(reviewer.asked).toBe(0);
    expect(await exists(fs, `${DIR}/approved.json`)).toBe(false);
  });

  it("a reviewer that fails: review_run, with its message", async () => {
    const fs = await captured();
    const r = await cycle(fs, counting(async () => Promise.reject(new Error("model unavailable"))));
    expect(r).toMatchObject({ phase: "failed", steps: ["failed"], error: "model unavailable" });
    expect(await toolReview(fs)).toMatchObject({ phase: "failed", failed_stage: "review_run", last_error: "model unavailable" });
  });

  it("a reply without the result: result_parse (the reply is kept)", async () => {
    const fs = await captured();
    expect(await cycle(fs, counting(async () => "I would keep them all."))).toMatchObject({ phase: "failed", steps: ["failed"], error: "Tool reviewer output marker is missing." });
    expect(await toolReview(fs)).toMatchObject({ failed_stage: "result_parse", last_error: "Tool reviewer output marker is missing." });
    expect(await text(fs, `${DIR}/reply.txt`)).toBe("I would keep them all.");
  });

  it("a reply that decides nothing: result_validation, with every reason", async () => {
    const fs = await captured();
    const r = await cycle(fs, counting(async () => 'TOOL_REVIEW_RESULT\n{"reviewId":"review-1","decisions":[]}'));
    const error = Array.from({ length: SIZE }, (_, i) => `missing tool decision: tool_0${i + 1}`).join("; ");
    expect(r).toMatchObject({ phase: "failed", steps: ["failed"], error });
    expect(await toolReview(fs)).toMatchObject({ failed_stage: "result_validation", last_error: error });
  });

  it("tools edited after the capture: approval, with every reason, and no plan", async () => {
    const fs = await captured();
    await fs.writeFile(`${ROOT}/tool_04.json`, JSON.stringify({ template: "echo four" }));
    await fs.writeFile(`${ROOT}/tool_05.json`, JSON.stringify({ template: "echo five" }));
    const error = "Reviewed tool changed after capture: tool_04; Reviewed tool changed after capture: tool_05";
    expect(await cycle(fs, scripted)).toMatchObject({ phase: "processing_failed", steps: ["failed"], error });
    // a retry would approve the same stale capture again: the way out named is a reset
    expect(await toolReview(fs)).toMatchObject({
      phase: "processing_failed",
      failed_stage: "approval",
      last_error: error,
      next_action: 'message to=tool:pi-actors type=review.reset body={"scope":"tool"} (the tools, or the recipes that read them, changed since the capture: the next review captures the tools again)',
    });
    expect(await exists(fs, `${DIR}/approved.json`)).toBe(false);
  });
});

describe("a recipe that reads a tool the plan would move away", () => {
  it("written while the reviewer works: approval fails naming it, no plan, and the way out is a new capture, which leaves that tool out", async () => {
    const fs = await captured();
    // tool_00 is to be renamed, tool_02 merged away into tool_03
    const writing = counting(async (input) => {
      await fs.writeFile(`${ROOT}/mine.json`, JSON.stringify({ imports: { a: "tool_00", b: "tool_02" }, template: [{ name: "a" }, { name: "b" }] }));
      return scripted.review(input);
    });
    const error = [
      `Tool review would break ${ROOT}/mine.json: it imports or delegates to tool_00 (${ROOT}/tool_00.json), which the plan renames to renamed_tool.json; nothing was changed`,
      `Tool review would break ${ROOT}/mine.json: it imports or delegates to tool_02 (${ROOT}/tool_02.json), which the plan merges away; nothing was changed`,
    ].join("; ");
    expect(await cycle(fs, writing)).toMatchObject({ phase: "processing_failed", steps: ["failed"], error });
    expect(await toolReview(fs)).toMatchObject({ failed_stage: "approval", last_error: error, next_action: expect.stringContaining("review.reset") });
    expect(await exists(fs, `${DIR}/approved.json`)).toBe(false);
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
  });
});

describe("a failed review", () => {
  const failing = () => counting(async () => "no result");

  it("is reviewed again by the next cycle", async () => {
    const fs = await captured();
    expect(await cycle(fs, failing())).toMatchObject({ phase: "failed", steps: ["failed"] });
    const reviewer = counting(scripted.review);
    expect(await cycle(fs, reviewer)).toMatchObject({ phase: "approved", steps: ["approved"] });
    expect(reviewer.asked).toBe(1);
  });

  it("after its third failure waits for review.retry: the next cycle does not ask the reviewer", async () => {
    const fs = await captured();
    for (let i = 1; i <= 3; i++) expect(await cycle(fs, failing())).toMatchObject({ phase: "failed", steps: ["failed"] });
    const reviewer = counting(scripted.review);
    expect(await cycle(fs, reviewer)).toMatchObject({ phase: "failed", steps: [] });
    expect(reviewer.asked).toBe(0);
    expect(await toolReview(fs)).toMatchObject({ phase: "failed", attempts: 3 });
    expect(await withCtx(fs, (ctx) => controlPortfolioReview(ctx, "review.retry"))).toMatchObject({ changed: true, phase: "captured" });
    expect(await cycle(fs, reviewer)).toMatchObject({ phase: "approved" });
  });
});

describe("the approved plan activation accepts", () => {
  it("one edited after approval is refused: nothing moves", async () => {
    const fs = await approvedVolume();
    const plan = JSON.parse((await text(fs, `${DIR}/approved.json`))!) as { sources: { to?: string }[] };
    // the evolve target redirected
    plan.sources[0]!.to = `${ROOT}/other_tool.json`;
    await fs.writeFile(`${DIR}/approved.json`, JSON.stringify(plan));
    expect(await withCtx(fs, activatePortfolio)).toMatchObject({ outcome: "failed", phase: "processing_failed", error: "approved plan of review review-1 is missing or changed" });
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await exists(fs, `${ROOT}/other_tool.json`)).toBe(false);
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(false);
  });

  it("one of another review is refused, even with the digest the state names", async () => {
    const fs = await approvedVolume();
    // review-1's folder copied as review-2's, and the state pointed at it
    for (const f of ["portfolio.json", "projection.json", "approved.json"]) {
      await fs.mkdir(toolReviewDir(paths, "review-2"), { recursive: true });
      await fs.writeFile(`${toolReviewDir(paths, "review-2")}/${f}`, (await text(fs, `${DIR}/${f}`))!);
    }
    const state = JSON.parse((await text(fs, toolStatePath(paths)))!) as Record<string, unknown>;
    await fs.writeFile(toolStatePath(paths), JSON.stringify({ ...state, reviewId: "review-2" }));
    expect(await withCtx(fs, activatePortfolio)).toMatchObject({ outcome: "failed", reviewId: "review-2", error: "approved plan of review review-2 is missing or changed" });
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(false);
  });
});

/** a lock that records the options each wait for the tool review's state lock was given */
function stateLockWaits(): { waits: LockOptions[]; lock: Lock } {
  const waits: LockOptions[] = [];
  const lock: Lock = {
    acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
    withLock: async (path, fn, options) => {
      if (path === toolStatePath(paths)) waits.push(options ?? {});
      return fn();
    },
  };
  return { waits, lock };
}

describe("the tool review's state lock", () => {
  it("the cycle and review.retry / review.reset wait for it as long as the context says", async () => {
    const fs = await captured();
    const { waits, lock } = stateLockWaits();
    const ctx = openReviews({ fs, lock, paths, lockTimeoutMs: 4321, newId: () => "review-1" });
    try {
      expect(await runPortfolioCycle(ctx, { reviewer: counting(async () => "no result"), portfolioSize: SIZE })).toMatchObject({ phase: "failed" });
      expect(await controlPortfolioReview(ctx, "review.retry")).toMatchObject({ changed: true });
      expect(await controlPortfolioReview(ctx, "review.reset")).toMatchObject({ changed: false });
    } finally {
      await closeLedger(ctx.ledger);
    }
    expect(waits).toEqual([{ timeoutMs: 4321 }, { timeoutMs: 4321 }, { timeoutMs: 4321 }]);
  });

  it("activation waits for the state lock as long as the context says", async () => {
    const fs = await approvedVolume();
    const { waits, lock } = stateLockWaits();
    const ctx = openReviews({ fs, lock, paths, lockTimeoutMs: 4321 });
    try {
      expect(await activatePortfolio(ctx)).toMatchObject({ outcome: "activated" });
    } finally {
      await closeLedger(ctx.ledger);
    }
    expect(waits).toEqual([{ timeoutMs: 4321 }]);
  });
});
