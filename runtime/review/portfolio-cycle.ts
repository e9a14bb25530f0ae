// One portfolio review cycle, under the lock of the tool review's admission state: capture the 36
// oldest eligible tools when no review is open, ask the reviewer, and turn a valid reply into an
// approval plan. Approval never touches a recipe: the plan waits for activation at a safe
// boundary (runtime/review/activate.ts). The state and every file of a review live under
// `<recipe root>/.usage/reviews/tool/`, beside the ledgers, out of reach of temp-file ageing.
import * as E from "fp-ts/lib/Either.js";
import { join } from "node:path";
import { approvalSha256, approve, parsePortfolioReply, readersOf, validatePortfolioDecisions, type ApprovalPlan } from "../../core/review/portfolio-decide.js";
import { discoverThroughFs } from "../fs-discovery.js";
import { replyErrorText } from "../../core/review/reply.js";
import { capturePortfolio, eligibilityCount, portfolioReviewerInput, portfolioSha256, projectPortfolio, type Portfolio } from "../../core/review/portfolio.js";
import {
  decodeToolState,
  isToolParked,
  TOOL_RETRY_ACTION,
  mayCapture,
  toolControl,
  toolFailed,
  TOOL_RECAPTURE_ACTION,
  toolMoved,
  type ToolReviewState,
} from "../../core/review/tool-admission.js";
import { writeFileAtomic } from "../../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../agent-paths.js";
import { isoNow, type ReviewContext } from "./review-context.js";
import { durableChain, fileSha, readJsonOrUndefined, readStateFile, writeJson } from "./files.js";
import { listToolCandidates } from "./portfolio-candidates.js";
import { realRoot, rootChanged } from "./root-guard.js";
import type { Reviewer } from "./reviewer.js";
import type { Parked } from "./cycle.js";

export const toolReviewRoot = (paths: AgentPaths): string => join(paths.usageRoot, "reviews", "tool");
export const toolStatePath = (paths: AgentPaths): string => join(toolReviewRoot(paths), "state.json");
export const toolReviewDir = (paths: AgentPaths, reviewId: string): string => join(toolReviewRoot(paths), "reviews", reviewId);

export const PORTFOLIO_FILE = "portfolio.json";
export const TOOL_PROJECTION_FILE = "projection.json";
export const TOOL_REPLY_FILE = "reply.txt";
export const APPROVED_FILE = "approved.json";

export interface PortfolioCycleOptions {
  readonly reviewer?: Reviewer;
  /** capture even without a reviewer (the operator's `review scope=tool`: the projection is then
   *  there to answer with `--scripted FILE`) */
  readonly capture?: boolean;
  /** tools a portfolio holds: 36, smaller only in tests that need a small one */
  readonly portfolioSize?: number;
  /** Test-only breakage, for showing the crash property catches it: `stateBeforePlan` records
   *  the approval in the state before the approved plan it names is written. */
  readonly faults?: { readonly stateBeforePlan?: boolean };
}

export interface PortfolioCycleReport {
  readonly phase: string;
  /** what this cycle did, in order: captured, approved, failed */
  readonly steps: readonly string[];
  /** eligible tools now, of the 36 a portfolio needs (when a capture was considered) */
  readonly eligible?: { readonly eligible: number; readonly needed: number };
  readonly reviewId?: string;
  readonly projection?: string;
  readonly error?: string;
  /** the review failed as often as it may and waits for `review.retry` (runtime/review/cycle.ts) */
  readonly parked?: Parked;
}

const write = (ctx: ReviewContext, s: ToolReviewState): Promise<void> => writeJson(ctx.fs, toolStatePath(ctx.paths), s);

export const readToolState = (ctx: ReviewContext): Promise<ToolReviewState | undefined> => readStateFile(ctx.fs, toolStatePath(ctx.paths), decodeToolState);

/** The approved plan of the state, when its bytes still have the approved digest. */
export async function readApproved(ctx: ReviewContext, state: ToolReviewState): Promise<ApprovalPlan | undefined> {
  const raw = (await readJsonOrUndefined(ctx.fs, join(toolReviewDir(ctx.paths, state.reviewId), APPROVED_FILE))) as ApprovalPlan | undefined;
  return raw !== undefined && raw.reviewId === state.reviewId && Array.isArray(raw.sources) && approvalSha256(raw) === state.approvedSha256 ? raw : undefined;
}

async function capture(ctx: ReviewContext, steps: string[], size: number | undefined): Promise<{ state?: ToolReviewState; eligible: { eligible: number; needed: number } }> {
  const { tools, activeTools } = await listToolCandidates(ctx);
  const eligible = size === undefined ? eligibilityCount(tools) : { ...eligibilityCount(tools), needed: size };
  const portfolio = capturePortfolio(tools, activeTools, ctx.newId(), isoNow(ctx), size);
  if (portfolio === undefined) return { eligible };
  const root = await realRoot(ctx.fs, ctx.paths.recipeRoot);
  const dir = toolReviewDir(ctx.paths, portfolio.reviewId);
  await durableChain(ctx.fs, dir, ctx.paths.recipeRoot);
  await writeJson(ctx.fs, join(dir, PORTFOLIO_FILE), portfolio);
  await writeJson(ctx.fs, join(dir, TOOL_PROJECTION_FILE), projectPortfolio(portfolio));
  const state: ToolReviewState = {
    phase: "captured",
    reviewId: portfolio.reviewId,
    portfolioSha256: portfolioSha256(portfolio),
    tools: portfolio.tools.length,
    attempts: 0,
    processingAttempts: 0,
    updatedAt: portfolio.createdAt,
    ...(root === undefined ? {} : { root }),
  };
  await write(ctx, state);
  steps.push("captured");
  return { state, eligible };
}

async function review(ctx: ReviewContext, state: ToolReviewState, reviewer: Reviewer, steps: string[], faults: PortfolioCycleOptions["faults"] = {}): Promise<ToolReviewState> {
  const dir = toolReviewDir(ctx.paths, state.reviewId);
  const fail = async (phase: "failed" | "processing_failed", stage: string, error: string, nextAction?: string): Promise<ToolReviewState> => {
    const next = toolFailed(state, phase, stage, error, isoNow(ctx), nextAction);
    await write(ctx, next);
    steps.push("failed");
    return next;
  };
  const portfolio = (await readJsonOrUndefined(ctx.fs, join(dir, PORTFOLIO_FILE))) as Portfolio | undefined;
  if (portfolio === undefined || portfolioSha256(portfolio) !== state.portfolioSha256) return fail("failed", "review_state", `captured portfolio ${state.reviewId} is missing or changed`);
  let reply: string;
  try {
    reply = await reviewer.review(portfolioReviewerInput(portfolio));
  } catch (e) {
    return fail("failed", "review_run", e instanceof Error ? e.message : String(e));
  }
  await writeFileAtomic(ctx.fs, join(dir, TOOL_REPLY_FILE), reply);
  const parsed = parsePortfolioReply(reply);
  if (E.isLeft(parsed)) return fail("failed", "result_parse", replyErrorText("Tool", parsed.left));
  const decisions = validatePortfolioDecisions(portfolio, parsed.right);
  if (E.isLeft(decisions)) return fail("failed", "result_validation", decisions.left.join("; "));
  // the folder captured is the folder approved: a root swapped meanwhile approves nothing
  const moved = state.root === undefined ? undefined : await rootChanged(ctx.fs, ctx.paths.recipeRoot, state.root, "activation");
  if (moved !== undefined) return fail("processing_failed", "approval", moved);
  // what the files hold now: a tool changed since the capture, or a target that appeared, stops it.
  // A first pass with nothing observed learns which paths approval looks at.
  const roots = { recipeRoot: ctx.paths.recipeRoot, draftRoot: ctx.paths.draftRoot };
  const asked = new Set<string>();
  approve(portfolio, state.portfolioSha256, decisions.right, roots, (p) => (asked.add(p), undefined), isoNow(ctx));
  const observed = new Map<string, string | undefined>();
  for (const p of asked) observed.set(p, await fileSha(ctx.fs, p));
  // which recipes read each tool now: a plan that would break one is not approved
  const reads = new Map<string, readonly string[]>();
  const { entries } = await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot, { reads });
  const plan = approve(portfolio, state.portfolioSha256, decisions.right, roots, (p) => observed.get(p), isoNow(ctx), readersOf(entries, reads));
  if (E.isLeft(plan)) {
    // a retry would approve the same capture again: a tool changed since, or one a recipe now
    // reads (a new capture leaves that one out), needs a new capture
    const stale = plan.left.some((e) => e.startsWith("Reviewed tool changed after capture") || e.startsWith("Tool review would break "));
    return fail("processing_failed", "approval", plan.left.join("; "), stale ? TOOL_RECAPTURE_ACTION : undefined);
  }
  // the plan first: a state that says approved always names a plan that is there
  const approved = toolMoved(state, "approved", isoNow(ctx), { approvedSha256: approvalSha256(plan.right) });
  if (faults.stateBeforePlan === true) await write(ctx, approved);
  await writeJson(ctx.fs, join(dir, APPROVED_FILE), plan.right);
  await write(ctx, approved);
  steps.push("approved");
  return approved;
}

async function cycleLocked(ctx: ReviewContext, options: PortfolioCycleOptions): Promise<PortfolioCycleReport> {
  const steps: string[] = [];
  let state = await readToolState(ctx);
  let eligible: { eligible: number; needed: number } | undefined;
  if ((options.reviewer !== undefined || options.capture === true) && mayCapture(state)) {
    const captured = await capture(ctx, steps, options.portfolioSize);
    eligible = captured.eligible;
    state = captured.state ?? state;
  }
  // a review that failed as often as it may is not done again until a retry
  const parkedBefore = state !== undefined && isToolParked(state);
  const reviewable = state !== undefined && (state.phase === "captured" || (state.phase === "failed" && !isToolParked(state)));
  if (reviewable && options.reviewer !== undefined) state = await review(ctx, state!, options.reviewer, steps, options.faults);
  return {
    phase: state?.phase ?? "idle",
    steps,
    ...(eligible === undefined ? {} : { eligible }),
    ...(state === undefined ? {} : { reviewId: state.reviewId, projection: join(toolReviewDir(ctx.paths, state.reviewId), TOOL_PROJECTION_FILE) }),
    ...(state?.lastError === undefined ? {} : { error: state.lastError }),
    ...(state === undefined || !isToolParked(state)
      ? {}
      : { parked: { attempts: state.phase === "failed" ? state.attempts : state.processingAttempts, retry: state.nextAction ?? TOOL_RETRY_ACTION, before: parkedBefore } }),
  };
}

/** Runs one portfolio cycle: capture when eligible, review, approve. */
export function runPortfolioCycle(ctx: ReviewContext, options: PortfolioCycleOptions = {}): Promise<PortfolioCycleReport> {
  return ctx.lock.withLock(toolStatePath(ctx.paths), () => cycleLocked(ctx, options), { timeoutMs: ctx.lockTimeoutMs });
}

/** review.retry / review.reset for the tool scope. */
export function controlPortfolioReview(ctx: ReviewContext, action: "review.retry" | "review.reset", reviewer = true) {
  return ctx.lock.withLock(
    toolStatePath(ctx.paths),
    async () => {
      const outcome = toolControl(action, await readToolState(ctx), isoNow(ctx), reviewer);
      if (outcome.next === null) await ctx.fs.rm(toolStatePath(ctx.paths));
      else if (outcome.next !== undefined) await write(ctx, outcome.next);
      return outcome;
    },
    { timeoutMs: ctx.lockTimeoutMs },
  );
}
