// The tool portfolio review's part of `inspect target=recipes view=reviews`: its phase, review id,
// counts (tools, decisions by kind), failure evidence, and the retained revision snapshots.
// Bounded and value-free like the rest of the view: texts cut to 240 characters (errors and
// actions to 500), no recipe content.
import type { JsonObject } from "../model.js";
import { cutText as cut } from "./view-text.js";
import type { ToolReviewState } from "./tool-admission.js";

/** An approved plan whose activation record is there (a crash cut the activation short after its
 *  plan was written; the next command that opened the ledger store finished it): the state still
 *  says approved until an activation records it, and the view says so. */
function carriedOutNext(state: ToolReviewState, activated: JsonObject | undefined, activationPending: boolean): { readonly next_action?: string } {
  if (state.phase !== "approved" || activated === undefined || activated["approvedSha256"] !== state.approvedSha256) return {};
  return { next_action: activationPending ? "the plan is being carried out (an interrupted activation finishes when the next command opens the usage ledger)" : "the plan was carried out; pi-recipes activate (or the next Pi session or MCP server start) records the review as completed" };
}

/**
 * `activated` is the activation record; `activationPending` says whether the journal plan that
 * wrote it (the files, the lineages and the record, in one plan) still waits to be finished by
 * the next command's recovery: the lineages are then `pending`, else `committed`.
 */
export function toolReviewDetails(state: ToolReviewState | undefined, activated: JsonObject | undefined, activationPending = false): JsonObject & { readonly phase: string } {
  if (state === undefined) return { phase: "idle" };
  const actions = activated?.["actions"];
  const lineagePhase = activationPending ? "pending" : "committed";
  return {
    phase: state.phase,
    review_id: state.reviewId,
    tools: state.tools,
    attempts: state.attempts,
    processing_attempts: state.processingAttempts,
    updated_at: state.updatedAt,
    ...(state.failedStage === undefined ? {} : { failed_stage: cut(state.failedStage, 240) }),
    ...(state.lastError === undefined ? {} : { last_error: cut(state.lastError, 500) }),
    ...(state.nextAction === undefined ? carriedOutNext(state, activated, activationPending) : { next_action: cut(state.nextAction, 500) }),
    ...(typeof actions === "object" && actions !== null && !Array.isArray(actions) ? { evidence: { actions: actions as JsonObject, activated_at: activated?.["at"] ?? null, lineage_phase: lineagePhase } } : {}),
  };
}
