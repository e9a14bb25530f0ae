// The draft review's admission state: which batch is under review and how far it got. One small
// JSON file, rewritten atomically; these are its decoder and transitions.
import type { JsonObject } from "../model.js";

export type ReviewPhase = "captured" | "failed" | "executing" | "processing_failed" | "completed";

export const MAX_ATTEMPTS = 3;
export const RETRY_ACTION = 'message to=tool:pi-actors type=review.retry body={"scope":"draft"}';

export interface ReviewState extends FailureRecord {
  readonly phase: ReviewPhase;
  readonly batchId: string;
  readonly batchSha256: string;
  readonly sources: readonly string[];
}

const PHASES: ReadonlySet<string> = new Set(["captured", "failed", "executing", "processing_failed", "completed"]);
/** a count as written, 0 for anything else (a negative or fractional count, a text) */
export const countOf = (v: unknown): number => (Number.isInteger(v) ? Math.max(0, v as number) : 0);

/** The state, or undefined for a missing or unreadable file (idle). */
export function decodeState(raw: unknown): ReviewState | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const o = raw as JsonObject;
  const { phase, batchId, batchSha256, sources, updatedAt } = o;
  if (!PHASES.has(phase as string) || typeof batchId !== "string" || !/^[A-Za-z0-9-]{1,80}$/.test(batchId)) return undefined;
  if (typeof batchSha256 !== "string" || !Array.isArray(sources) || !sources.every((s) => typeof s === "string")) return undefined;
  const text = (k: string): { [k: string]: string } => (typeof o[k] === "string" ? { [k]: o[k] as string } : {});
  return {
    phase: phase as ReviewPhase,
    batchId,
    batchSha256,
    sources: sources as string[],
    attempts: countOf(o["attempts"]),
    processingAttempts: countOf(o["processingAttempts"]),
    updatedAt: typeof updatedAt === "string" ? updatedAt : "",
    ...text("failedStage"),
    ...text("lastError"),
    ...text("nextAction"),
  };
}

/** What the draft batch's and the tool portfolio's states both record of a failure. */
export interface FailureRecord {
  readonly phase: string;
  readonly attempts: number;
  readonly processingAttempts: number;
  readonly updatedAt: string;
  readonly failedStage?: string;
  readonly lastError?: string;
  readonly nextAction?: string;
}

/** A review that failed at `stage`: a failed review (the reviewer, or its reply) counts an attempt,
 *  a failed execution a processing attempt; `nextAction` says how to retry it. */
export function failedReview<S extends FailureRecord>(state: S, phase: "failed" | "processing_failed", stage: string, error: string, at: string, nextAction: string): S {
  return {
    ...state,
    phase,
    ...(phase === "failed" ? { attempts: state.attempts + 1 } : { processingAttempts: state.processingAttempts + 1 }),
    failedStage: stage,
    lastError: error,
    nextAction,
    updatedAt: at,
  };
}

export const failed = (state: ReviewState, phase: "failed" | "processing_failed", stage: string, error: string, at: string): ReviewState =>
  failedReview(state, phase, stage, error, at, RETRY_ACTION);

export function moved(state: ReviewState, phase: ReviewPhase, at: string): ReviewState {
  const { failedStage: _s, lastError: _e, nextAction: _n, ...rest } = state;
  return { ...rest, phase, updatedAt: at };
}

/** A tick may still act on this review; a parked one (three failures of its kind) waits for
 *  review.retry or review.reset. The draft batch and the tool portfolio park alike. */
export const isParked = (s: FailureRecord): boolean =>
  (s.phase === "failed" && s.attempts >= MAX_ATTEMPTS) || (s.phase === "processing_failed" && s.processingAttempts >= MAX_ATTEMPTS);

export type ControlAction = "review.retry" | "review.reset";

export interface ControlOutcome {
  readonly changed: boolean;
  readonly phase: string;
  readonly previous_phase?: string;
  readonly reason?: string;
  /** the new state; null deletes the file */
  readonly next?: ReviewState | null;
}

/** review.retry: a failed batch gets fresh attempts; one with a journal resumes it (never a new
 *  reviewer). review.reset: forget a terminal batch with nothing left to recover. */
export function control(action: ControlAction, state: ReviewState | undefined, hasJournal: boolean, at: string): ControlOutcome {
  if (state === undefined) return { changed: false, phase: "idle", reason: "review_state_unavailable" };
  if (action === "review.reset") {
    if (state.phase !== "completed" && state.phase !== "failed" && state.phase !== "processing_failed")
      return { changed: false, phase: state.phase, reason: "review_state_not_terminal" };
    // a journal that has not finished still needs recovery: reset would orphan it
    if (hasJournal && state.phase === "processing_failed") return { changed: false, phase: state.phase, reason: "review_recovery_evidence_requires_retry" };
    return { changed: true, phase: "idle", previous_phase: state.phase, next: null };
  }
  if (state.phase !== "failed" && state.phase !== "processing_failed") return { changed: false, phase: state.phase, reason: "review_state_not_retryable" };
  const phase: ReviewPhase = hasJournal ? "executing" : "captured";
  return { changed: true, phase, previous_phase: state.phase, next: { ...moved(state, phase, at), attempts: 0, processingAttempts: 0 } };
}
