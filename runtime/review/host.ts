// What a host needs for drafts and automatic review: a draft capturer for spawn, the effective
// policy and reviewer, and one cycle run when the host is idle. All of it runs over the host's own
// file system and lock (its session's), never over adapters of its own.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { LockTimeoutError, type Lock } from "../../adapters/lock/Lock.js";
import type { AgentPaths } from "../agent-paths.js";
import { closeLedger } from "../ledger/index.js";
import { automaticReviewPolicy } from "../verbs/status.js";
import { captureDraft, type DraftCaptured, type InlineDraft } from "./capture-draft.js";
import { openReviews, type ReviewContext } from "./review-context.js";
import { controlReview, runCycle, type CycleReport } from "./cycle.js";
import { controlPortfolioReview } from "./portfolio-cycle.js";
import { configuredReviewer, REVIEWER_ENV, type Reviewer } from "./reviewer.js";
import { ReviewStateUnreadable } from "./files.js";

/** The host's place and ports, as its session holds them (a RuntimeSession is one). */
export interface ReviewPorts {
  readonly paths: AgentPaths;
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly packagedRoot?: string | undefined;
}

export function draftCapturer(ports: ReviewPorts): (draft: InlineDraft) => Promise<DraftCaptured> {
  return (draft) => captureDraft({ fs: ports.fs, lock: ports.lock, paths: ports.paths, now: Date.now }, draft);
}

export interface ReviewPolicy {
  readonly enabled: boolean;
  readonly reviewer?: Reviewer;
  /** for status views: the reviewer, or why there is none */
  readonly describe: string;
}

/** The policy of a host whose reviewer comes from the environment (CLI, MCP), or is given (Pi). */
export function reviewPolicy(env: NodeJS.ProcessEnv = process.env, hostReviewer?: Reviewer): ReviewPolicy {
  const enabled = automaticReviewPolicy(env);
  const reviewer = configuredReviewer(env) ?? hostReviewer;
  const describe = reviewer?.describe ?? `none (set ${REVIEWER_ENV} to a reviewer command; nothing is scheduled)`;
  return { enabled, describe, ...(reviewer === undefined ? {} : { reviewer }) };
}

export async function withReviews<A>(ports: ReviewPorts, run: (ctx: ReviewContext) => Promise<A>, options: { readonly lockTimeoutMs?: number } = {}): Promise<A> {
  const { fs, lock, paths, packagedRoot } = ports;
  const ctx = openReviews({ fs, lock, paths, ...(packagedRoot === undefined ? {} : { packagedRoot }), ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }) });
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

/** How long an idle host's review waits for a lock another process holds. */
const IDLE_LOCK_WAIT_MS = 100;

/**
 * The scheduled cycle of a host that just went idle (its foreground turn or command ended): it
 * runs only when the policy allows it, a reviewer exists and no run is active. Errors are
 * returned, never thrown: a review must not break the host.
 */
export async function idleCycle(
  ports: ReviewPorts,
  policy: ReviewPolicy,
  activeRuns: () => number | Promise<number>,
): Promise<CycleReport | { readonly skipped: string }> {
  if (!policy.enabled) return { skipped: "policy_off" };
  if (policy.reviewer === undefined) return { skipped: "no_reviewer" };
  if ((await activeRuns()) > 0) return { skipped: "runs_active" };
  try {
    // opportunistic: when another process holds the review (or the ledger), this host does not
    // wait for it (a command would otherwise end seconds late); the next idle moment tries again
    return await withReviews(ports, (ctx) => runCycle(ctx, { reviewer: policy.reviewer! }), { lockTimeoutMs: IDLE_LOCK_WAIT_MS });
  } catch (e) {
    if (e instanceof LockTimeoutError) return { skipped: "review_busy" };
    return { skipped: `error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** review.retry / review.reset as `message to=tool:pi-actors` delivers them, for either scope. */
export function reviewControlFor(ports: ReviewPorts, afterChange?: () => Promise<unknown>) {
  return async (action: "review.retry" | "review.reset", scope: "draft" | "tool", options?: { readonly reviewer?: boolean }) => {
    let outcome: { readonly changed: boolean; readonly phase: string; readonly next?: unknown; readonly reason?: string; readonly error?: string };
    try {
      outcome = await withReviews(ports, (ctx): Promise<{ readonly changed: boolean; readonly phase: string; readonly next?: unknown }> =>
        scope === "tool" ? controlPortfolioReview(ctx, action, options?.reviewer ?? true) : controlReview(ctx, action),
      );
    } catch (e) {
      // its phase is not known, so neither control applies: the answer names the file
      if (!(e instanceof ReviewStateUnreadable)) throw e;
      outcome = { changed: false, phase: "unknown", reason: "review_state_unreadable", error: e.message };
    }
    if (outcome.changed && afterChange !== undefined) await afterChange().catch(() => undefined);
    const { next: _next, ...shown } = outcome;
    return { action, scope, ...shown };
  };
}
