// The portfolio review's admission state: which portfolio is under review and how far it got. One
// small JSON file, rewritten atomically; these are its decoder, transitions and the operator's
// controls. The phases:
//   captured → (reviewer) → approved → (activation at a safe boundary) → completed
//   captured → failed (the reviewer failed, or its reply was refused; retried up to three times)
//   approved → processing_failed (activation could not run; nothing half-done is left: activation
//              is one journal plan, all done or not begun)
// A completed review never blocks the next capture. Every phase ends somewhere: review.retry
// leads a failed review back to captured and a processing_failed one back to approved; review.reset
// forgets any terminal review (no journal of it can be pending: the engine finishes or undoes its
// plan before the state moves on).
import type { JsonObject } from "../model.js";
import { countOf, failedReview, isParked, type FailureRecord } from "./admission.js";

export type ToolReviewPhase = "captured" | "failed" | "approved" | "processing_failed" | "completed";

export const TOOL_RETRY_ACTION = 'message to=tool:pi-actors type=review.retry body={"scope":"tool"}';

export interface ToolReviewState extends FailureRecord {
  readonly phase: ToolReviewPhase;
  readonly reviewId: string;
  readonly portfolioSha256: string;
  /** how many tools the portfolio holds */
  readonly tools: number;
  /** the digest of approved.json, once approved: activation runs only that plan */
  readonly approvedSha256?: string;
  /** the real path of the recipe root the portfolio was captured in: approval and activation
   *  write nowhere else (runtime/review/root-guard.ts) */
  readonly root?: string;
}

const PHASES: ReadonlySet<string> = new Set(["captured", "failed", "approved", "processing_failed", "completed"]);

/** The state, or undefined for a missing or unreadable file (idle). */
export function decodeToolState(raw: unknown): ToolReviewState | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const o = raw as JsonObject;
  const { phase, reviewId, portfolioSha256 } = o;
  if (!PHASES.has(phase as string) || typeof reviewId !== "string" || !/^[A-Za-z0-9-]{1,80}$/.test(reviewId)) return undefined;
  if (typeof portfolioSha256 !== "string") return undefined;
  const text = (k: string): { [k: string]: string } => (typeof o[k] === "string" ? { [k]: o[k] as string } : {});
  if (phase === "approved" && typeof o["approvedSha256"] !== "string") return undefined;
  return {
    phase: phase as ToolReviewPhase,
    reviewId,
    portfolioSha256,
    tools: countOf(o["tools"]),
    attempts: countOf(o["attempts"]),
    processingAttempts: countOf(o["processingAttempts"]),
    updatedAt: typeof o["updatedAt"] === "string" ? o["updatedAt"] : "",
    ...text("approvedSha256"),
    ...text("root"),
    ...text("failedStage"),
    ...text("lastError"),
    ...text("nextAction"),
  };
}

export const toolFailed = (state: ToolReviewState, phase: "failed" | "processing_failed", stage: string, error: string, at: string, nextAction: string = TOOL_RETRY_ACTION): ToolReviewState =>
  failedReview(state, phase, stage, error, at, nextAction);

/** A tool changed since the portfolio was captured: retrying approves the same stale capture
 *  again and fails the same way; a reset lets the next review capture the tools as they are. */
export const TOOL_RECAPTURE_ACTION = 'message to=tool:pi-actors type=review.reset body={"scope":"tool"} (the tools, or the recipes that read them, changed since the capture: the next review captures the tools again)';

export function toolMoved(state: ToolReviewState, phase: ToolReviewPhase, at: string, extra: { approvedSha256?: string } = {}): ToolReviewState {
  const { failedStage: _s, lastError: _e, nextAction: _n, ...rest } = state;
  return { ...rest, ...extra, phase, updatedAt: at };
}

/** A failed review waits for review.retry once it failed three times (as a draft batch does). */
export const isToolParked: (s: ToolReviewState) => boolean = isParked;

/** The phases a new capture may replace. */
export const mayCapture = (s: ToolReviewState | undefined): boolean => s === undefined || s.phase === "completed";

export interface ToolControlOutcome {
  readonly changed: boolean;
  readonly phase: string;
  readonly previous_phase?: string;
  readonly reason?: string;
  /** the new state; null deletes the file */
  readonly next?: ToolReviewState | null;
}

/** review.retry / review.reset for the tool scope. */
/** `reviewer`: whether a retry may go back to a reviewer. With the automatic review off it may
 *  not, but a retry that only carries out the approved plan again (activation is no review) is
 *  still taken; one that would need the reviewer says so (`review_disabled`) and changes nothing. */
export function toolControl(action: "review.retry" | "review.reset", state: ToolReviewState | undefined, at: string, reviewer = true): ToolControlOutcome {
  if (state === undefined) return { changed: false, phase: "idle", reason: "review_state_unavailable" };
  if (action === "review.reset") {
    if (state.phase !== "completed" && state.phase !== "failed" && state.phase !== "processing_failed")
      return { changed: false, phase: state.phase, reason: "review_state_not_terminal" };
    return { changed: true, phase: "idle", previous_phase: state.phase, next: null };
  }
  if (state.phase !== "failed" && state.phase !== "processing_failed") return { changed: false, phase: state.phase, reason: "review_state_not_retryable" };
  const phase: ToolReviewPhase = state.phase === "processing_failed" && state.approvedSha256 !== undefined ? "approved" : "captured";
  if (phase === "captured" && !reviewer) return { changed: false, phase: state.phase, reason: "review_disabled" };
  return { changed: true, phase, previous_phase: state.phase, next: { ...toolMoved(state, phase, at), attempts: 0, processingAttempts: 0 } };
}
