// `inspect target=recipes view=reviews`: bounded, read-only evidence of the automatic reviews. It
// never starts anything. Texts are cut to 240 characters (errors and actions to 500).
import type { JsonObject } from "../model.js";
import { cutText as cut } from "./view-text.js";
import type { ReviewState } from "./admission.js";

export const LINEAGE_LIMIT = 100;


export interface LineageFact {
  readonly file: string;
  /** the ledger record; undefined when it could not be read as a JSON object */
  readonly record?: JsonObject | undefined;
}

function lineage(f: LineageFact): JsonObject {
  const r = f.record ?? {};
  const epochs = Array.isArray(r["review_epochs"]) ? r["review_epochs"].slice(-5) : [];
  const pick = (k: string): JsonObject => (r[k] === undefined ? {} : { [k]: r[k]! });
  return {
    name: typeof r["lineage_name"] === "string" ? r["lineage_name"] : decodeURIComponent(f.file.replace(/\.json$/, "")),
    ...pick("current_path"),
    ...pick("lifetime_calls"),
    ...pick("revision"),
    ...pick("revision_calls"),
    ...pick("demoted_at"),
    ...pick("demoted_from_revision"),
    ...pick("rollback_of_revision"),
    ...(Array.isArray(r["former_names"]) && r["former_names"].length > 0 ? { former_names: r["former_names"].slice(-5) } : {}),
    ...(epochs.length === 0 ? {} : { review_epochs: epochs }),
  };
}

export function draftReviewDetails(state: ReviewState | undefined, evidence: JsonObject | undefined): JsonObject {
  if (state === undefined) return { phase: "idle" };
  const gc = evidence?.["garbageCollection"];
  const gcObject = typeof gc === "object" && gc !== null && !Array.isArray(gc) ? (gc as JsonObject) : {};
  return {
    phase: state.phase,
    attempts: state.attempts,
    processing_attempts: state.processingAttempts,
    batch_id: state.batchId,
    sources: state.sources.length,
    updated_at: state.updatedAt,
    ...(state.failedStage === undefined ? {} : { failed_stage: cut(state.failedStage, 240) }),
    ...(state.lastError === undefined ? {} : { last_error: cut(state.lastError, 500) }),
    ...(state.nextAction === undefined ? {} : { next_action: cut(state.nextAction, 500) }),
    ...(evidence === undefined
      ? {}
      : {
          evidence: {
            actions: (evidence["actions"] ?? {}) as JsonObject,
            garbage_collection: { reviewed_sources: gcObject["reviewedSources"] ?? 0, status: gcObject["status"] ?? "pending" },
            reviewed_sources: gcObject["reviewedSources"] ?? 0,
          },
        }),
  };
}

export interface ReviewsFacts {
  readonly draft: JsonObject;
  /** every ledger file name under the usage store, sorted */
  readonly lineageFiles: readonly string[];
  /** the first LINEAGE_LIMIT of them, read */
  readonly lineages: readonly LineageFact[];
  /** the tool portfolio review's section (core/review/tool-reviews-view.ts); idle without one */
  readonly tool?: JsonObject & { readonly phase: string };
  /** revision snapshots retained, over the first LINEAGE_LIMIT lineages' rings */
  readonly revisionSnapshots?: number;
}

export function reviewsDetails(facts: ReviewsFacts) {
  return {
    draft_review: facts.draft as { readonly phase: string } & JsonObject,
    lineage_count: facts.lineageFiles.length,
    lineages: facts.lineages.slice(0, LINEAGE_LIMIT).map(lineage),
    revision_snapshots: facts.revisionSnapshots ?? 0,
    tool_review: facts.tool ?? { phase: "idle" },
  };
}
