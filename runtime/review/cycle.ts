// One automatic review cycle, under the lock of the admission state: finish a batch that was
// executing (a crash, a failure), clean up a completed one, capture a new batch when twelve drafts
// are eligible, ask the reviewer, validate its reply into a plan, and execute that plan. A
// completed batch never blocks the next one. Once a batch's decisions are written they are its
// only authority: a retry resumes them and never asks the reviewer again.
import * as E from "fp-ts/lib/Either.js";
import { join } from "node:path";
import { control, decodeState, failed, isParked, moved, RETRY_ACTION, type ControlAction, type ReviewState } from "../../core/review/admission.js";
import { tidyReviews } from "./tidy.js";
import { batchSha256, captureBatch, eligibleDrafts, type Batch } from "../../core/review/batch.js";
import { planOf, validateDecisions, type ExecutionPlan } from "../../core/review/decide.js";
import { project, REVIEW_INSTRUCTIONS } from "../../core/review/projection.js";
import { parseReply, replyErrorText } from "../../core/review/reply.js";
import { writeFileAtomic } from "../../adapters/fs/FileSystem.js";
import { listCandidates, promotedKeys } from "./draft-candidates.js";
import { BATCH_FILE, batchDir, EVIDENCE_FILE, isoNow, journalDirOf, PROJECTION_FILE, QUARANTINE_DIR, REPLY_FILE, statePath, type ReviewContext } from "./review-context.js";
import { executePlan, moveLineages, type ItemOutcome } from "./execute-batch.js";
import { durableChain, ensureDir, exists, readJsonOrUndefined, readStateFile, writeJson } from "./files.js";
import type { Reviewer } from "./reviewer.js";

export const DECISIONS_FILE = "decisions.json";

export interface CycleOptions {
  /** no reviewer: nothing new is captured or reviewed, only recovery and cleanup run */
  readonly reviewer?: Reviewer;
  /** capture a batch even without a reviewer (the operator's `review` verb: the projection is
   *  then there to answer with `--scripted FILE`) */
  readonly capture?: boolean;
}

/** A review that failed as often as it may (it waits for `review.retry`): how often, the retry
 *  action stored with it, and whether it was parked already when the cycle began (its reviewer,
 *  if any, was then not asked). */
export interface Parked {
  readonly attempts: number;
  readonly retry: string;
  readonly before: boolean;
}

export interface CycleReport {
  readonly phase: string;
  /** what this cycle did, in order: recovered, collected, captured, reviewed, completed, failed */
  readonly steps: readonly string[];
  readonly batchId?: string;
  /** the batch's value-free projection, what a reviewer answers */
  readonly projection?: string;
  readonly error?: string;
  /** a capture found too few drafts: how many were eligible (a batch needs BATCH_SIZE) */
  readonly eligible?: number;
  /** a capture could not list the drafts folder (its diagnostic): nothing was captured, whatever
   *  drafts the folder holds */
  readonly unlisted?: string;
  /** what the batch this cycle completed did, by outcome (promoted, discarded, skipped_...) */
  readonly actions?: Readonly<Record<string, number>>;
  /** the batch failed as often as it may and waits for `review.retry`: how often, the retry, and
   *  whether it was so already when this cycle began (its reviewer, if any, was then not asked) */
  readonly parked?: Parked;
}

const write = (ctx: ReviewContext, s: ReviewState): Promise<void> => writeJson(ctx.fs, statePath(ctx.paths), s);

export const readState = (ctx: ReviewContext): Promise<ReviewState | undefined> => readStateFile(ctx.fs, statePath(ctx.paths), decodeState);

async function readPlan(ctx: ReviewContext, state: ReviewState): Promise<ExecutionPlan | undefined> {
  const raw = (await readJsonOrUndefined(ctx.fs, join(batchDir(ctx.paths, state.batchId), DECISIONS_FILE))) as ExecutionPlan | undefined;
  return raw !== undefined && raw.batchId === state.batchId && Array.isArray(raw.items) ? raw : undefined;
}

const counts = (outcomes: readonly ItemOutcome[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[o.outcome] = (out[o.outcome] ?? 0) + 1;
  return out;
};

async function execute(ctx: ReviewContext, state: ReviewState, steps: string[]): Promise<ReviewState> {
  const dir = batchDir(ctx.paths, state.batchId);
  try {
    const plan = await readPlan(ctx, state);
    if (plan === undefined) throw new Error(`review decisions of batch ${state.batchId} are missing`);
    // a draft promoted by hand since the capture (register_tool draft= keeps the file and moves
    // its lineage) is not promoted a second time
    const outcomes = await executePlan(ctx, dir, plan, await promotedKeys(ctx));
    const lineage = await moveLineages(ctx, plan, outcomes);
    await writeJson(ctx.fs, join(dir, EVIDENCE_FILE), {
      batchId: state.batchId,
      outcomes,
      actions: counts(outcomes),
      ...(lineage.length === 0 ? {} : { lineage_diagnostics: lineage }),
      garbageCollection: { reviewedSources: outcomes.length, status: "pending" },
      ts: isoNow(ctx),
    });
    const done = moved(state, "completed", isoNow(ctx));
    await write(ctx, done);
    steps.push("completed");
    return done;
  } catch (e) {
    const next = failed(state, "processing_failed", "transaction", e instanceof Error ? e.message : String(e), isoNow(ctx));
    await write(ctx, next);
    steps.push("failed");
    return next;
  }
}

/** Removes a completed batch's quarantine once no journal of it is left. */
async function collect(ctx: ReviewContext, state: ReviewState, steps: string[]): Promise<void> {
  const dir = batchDir(ctx.paths, state.batchId);
  const evidencePath = join(dir, EVIDENCE_FILE);
  const evidence = (await readJsonOrUndefined(ctx.fs, evidencePath)) as { garbageCollection?: { status?: string } } | undefined;
  if (evidence === undefined || evidence.garbageCollection?.status === "completed") return;
  const journals = await ctx.fs.readdir(journalDirOf(dir)).catch(() => []);
  if (journals.some((e) => e.kind === "file" && !e.name.startsWith("."))) return; // recovery may still need them
  await ctx.fs.rm(join(dir, QUARANTINE_DIR), { recursive: true, force: true });
  await writeJson(ctx.fs, evidencePath, { ...evidence, garbageCollection: { ...evidence.garbageCollection, status: "completed" } });
  steps.push("collected");
}

async function capture(ctx: ReviewContext, steps: string[]): Promise<ReviewState | number | { readonly unlisted: string }> {
  const { drafts, activeTools, formerNames, unlisted } = await listCandidates(ctx);
  if (unlisted !== undefined) return { unlisted };
  const batch = captureBatch(drafts, activeTools, ctx.newId(), isoNow(ctx), formerNames);
  if (batch === undefined) return eligibleDrafts(drafts).length;
  const dir = batchDir(ctx.paths, batch.batchId);
  await durableChain(ctx.fs, dir, ctx.paths.recipeRoot);
  await writeJson(ctx.fs, join(dir, BATCH_FILE), batch);
  await writeJson(ctx.fs, join(dir, PROJECTION_FILE), project(batch));
  const state: ReviewState = {
    phase: "captured",
    batchId: batch.batchId,
    batchSha256: batchSha256(batch),
    sources: batch.drafts.map((d) => d.path),
    attempts: 0,
    processingAttempts: 0,
    updatedAt: batch.createdAt,
  };
  await write(ctx, state);
  steps.push("captured");
  return state;
}

/** The text a reviewer gets: its instructions, then the projection. */
export const reviewerInput = (batch: Batch): string => `${REVIEW_INSTRUCTIONS}\n\n${JSON.stringify(project(batch), null, 2)}\n`;

/** Reviews a captured batch and executes its decisions. Decisions written before a crash are final:
 *  they run without asking again, even with no reviewer; without one and without decisions the
 *  batch waits as it is. */
async function review(ctx: ReviewContext, state: ReviewState, reviewer: Reviewer | undefined, steps: string[]): Promise<ReviewState> {
  const dir = batchDir(ctx.paths, state.batchId);
  const at = (): string => isoNow(ctx);
  const fail = async (stage: string, error: string): Promise<ReviewState> => {
    const next = failed(state, "failed", stage, error, at());
    await write(ctx, next);
    steps.push("failed");
    return next;
  };
  const batch = (await readJsonOrUndefined(ctx.fs, join(dir, BATCH_FILE))) as Batch | undefined;
  if (batch === undefined || batchSha256(batch) !== state.batchSha256) return fail("review_state", `captured batch ${state.batchId} is missing or changed`);
  if ((await readPlan(ctx, state)) === undefined) {
    if (reviewer === undefined) return state;
    let reply: string;
    try {
      reply = await reviewer.review(reviewerInput(batch));
    } catch (e) {
      return fail("review_run", e instanceof Error ? e.message : String(e));
    }
    await ensureDir(ctx.fs, dir);
    await writeFileAtomic(ctx.fs, join(dir, REPLY_FILE), reply);
    const parsed = parseReply(reply);
    if (E.isLeft(parsed)) return fail("result_parse", replyErrorText("Draft", parsed.left));
    const decisions = validateDecisions(batch, parsed.right);
    if (E.isLeft(decisions)) return fail("result_validation", decisions.left.join("; "));
    await writeJson(ctx.fs, join(dir, DECISIONS_FILE), planOf(batch, decisions.right, ctx.paths.recipeRoot));
    steps.push("reviewed");
  }
  const executing = moved(state, "executing", at());
  await write(ctx, executing);
  return execute(ctx, executing, steps);
}

async function cycleLocked(ctx: ReviewContext, options: CycleOptions): Promise<CycleReport> {
  const steps: string[] = [];
  let eligible: number | undefined;
  let unlisted: string | undefined;
  let state = await readState(ctx);
  if (state !== undefined && (state.phase === "executing" || (state.phase === "processing_failed" && !isParked(state)))) {
    steps.push("recovered");
    state = await execute(ctx, state, steps);
  }
  if (state?.phase === "completed") await collect(ctx, state, steps);
  if (options.reviewer !== undefined || options.capture === true) {
    if (state === undefined || state.phase === "completed") {
      const captured = await capture(ctx, steps);
      if (typeof captured === "number") eligible = captured;
      else if ("unlisted" in captured) unlisted = captured.unlisted;
      else state = captured;
    }
  }
  // a batch that failed as often as it may is neither reviewed nor executed again until a retry
  const parkedBefore = state !== undefined && isParked(state);
  const reviewable = state !== undefined && (state.phase === "captured" || (state.phase === "failed" && !isParked(state)));
  if (reviewable && state !== undefined) state = await review(ctx, state, options.reviewer, steps);
  // cleanup comes only after `completed` is durable, and is repeated by any later cycle
  if (state?.phase === "completed") await collect(ctx, state, steps);
  steps.push(...(await tidyReviews(ctx, state?.batchId)));
  // the outcomes of a batch completed now: a skipped promotion must not hide behind "completed"
  const evidence = state !== undefined && steps.includes("completed")
    ? ((await readJsonOrUndefined(ctx.fs, join(batchDir(ctx.paths, state.batchId), EVIDENCE_FILE))) as { actions?: Record<string, number> } | undefined)
    : undefined;
  return {
    phase: state?.phase ?? "idle",
    steps,
    ...(state === undefined ? {} : { batchId: state.batchId, projection: join(batchDir(ctx.paths, state.batchId), PROJECTION_FILE) }),
    ...(state?.lastError === undefined ? {} : { error: state.lastError }),
    ...(eligible === undefined ? {} : { eligible }),
    ...(unlisted === undefined ? {} : { unlisted }),
    ...(evidence?.actions === undefined ? {} : { actions: evidence.actions }),
    ...(state === undefined || !isParked(state)
      ? {}
      : { parked: { attempts: state.phase === "failed" ? state.attempts : state.processingAttempts, retry: state.nextAction ?? RETRY_ACTION, before: parkedBefore } }),
  };
}

/** Runs one cycle; without a reviewer it only recovers and cleans up (session start). */
export function runCycle(ctx: ReviewContext, options: CycleOptions = {}): Promise<CycleReport> {
  return ctx.lock.withLock(statePath(ctx.paths), () => cycleLocked(ctx, options), { timeoutMs: ctx.lockTimeoutMs });
}

/** review.retry / review.reset for the draft scope. */
export function controlReview(ctx: ReviewContext, action: ControlAction) {
  return ctx.lock.withLock(
    statePath(ctx.paths),
    async () => {
      const state = await readState(ctx);
      const hasPlan = state !== undefined && (await exists(ctx.fs, join(batchDir(ctx.paths, state.batchId), DECISIONS_FILE)));
      const outcome = control(action, state, hasPlan, isoNow(ctx));
      if (outcome.next === null) await ctx.fs.rm(statePath(ctx.paths));
      else if (outcome.next !== undefined) await write(ctx, outcome.next);
      return outcome;
    },
    { timeoutMs: ctx.lockTimeoutMs },
  );
}
