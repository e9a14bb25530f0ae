// `inspect target=tool:pi-actors view=triage`: one compact attention
// surface over the runtime, the recipe registry and the runs. It only points at problems and at
// the inspect command that shows more; it never repairs anything.
import { nextToken } from "./compact-text.js";
import type { RecipesSummary } from "./registry-summary.js";
import type { Remediation } from "./remediations.js";
import type { RuntimeStatus } from "./tool-status.js";
import type { ReviewsDetails } from "./render.js";

export type ActiveRun = { readonly run: string; readonly ownerId?: string; readonly recipe?: string; readonly status: string };
export type StaleClaim = {
  readonly run: string;
  readonly id: string;
  readonly claimed_at: string;
  readonly claimed_by?: string;
  readonly type?: string;
};
export type FailedRun = { readonly run: string; readonly recipe?: string; readonly status: string };
export type AttentionMessage = { readonly run: string; readonly id: string; readonly summary?: string; readonly type?: string };

/** What the run store knows, already filtered to the runs this session may see. */
export interface RunFacts {
  readonly current_session: string | null;
  readonly active_runs: readonly ActiveRun[];
  readonly other_session_runs: number;
  readonly stale_claims: readonly StaleClaim[];
  readonly recent_failed_runs: readonly FailedRun[];
  readonly attention_messages: readonly AttentionMessage[];
}

/** No run store yet, or nothing in it. */
export const noRuns = (currentSession: string | null = null): RunFacts => ({
  current_session: currentSession,
  active_runs: [],
  other_session_runs: 0,
  stale_claims: [],
  recent_failed_runs: [],
  attention_messages: [],
});

export type ReviewNeedingAction = { readonly scope: "draft" | "tool"; readonly phase: string; readonly last_error?: string };

/** The review phases an operator has to act on: nothing moves on its own from these. */
const STUCK = new Set(["failed", "processing_failed"]);

function reviewsNeedingAction(reviews: ReviewsDetails | undefined): ReviewNeedingAction[] {
  if (reviews === undefined) return [];
  const out: ReviewNeedingAction[] = [];
  for (const [scope, review] of [["draft", reviews.draft_review], ["tool", reviews.tool_review]] as const) {
    if (!STUCK.has(review.phase)) continue;
    const error = (review as { readonly last_error?: unknown }).last_error;
    out.push({ scope, phase: review.phase, ...(typeof error === "string" ? { last_error: error } : {}) });
  }
  return out;
}

export type HighRiskRecipe = { readonly id: string; readonly path: string; readonly risk_labels: readonly string[] };

export type TriageDetails = {
  readonly runtime: RuntimeStatus;
  readonly current_session: string | null;
  readonly active_runs: readonly ActiveRun[];
  readonly other_session_runs: number;
  readonly invalid_recipes: RecipesSummary["invalid"];
  readonly blocking_recipes: readonly Remediation[];
  readonly high_risk_recipes: readonly HighRiskRecipe[];
  readonly draft_recipes: RecipesSummary["drafts"];
  readonly stale_claims: readonly StaleClaim[];
  readonly recent_failed_runs: readonly FailedRun[];
  readonly attention_messages: readonly AttentionMessage[];
  /** automatic reviews that failed and wait for an operator (review.retry, review.reset, a fix) */
  readonly reviews_needing_action: readonly ReviewNeedingAction[];
  readonly next_actions: readonly string[];
};

const TRIAGE_LIMITS = { failedRuns: 5, attention: 10, nextActions: 5 } as const;

/** A lifecycle label alone (long-running) is not a reason for attention. */
const ATTENTION_EXEMPT = "risk.long_running";

function highRisk(summary: RecipesSummary): HighRiskRecipe[] {
  return summary.active
    .filter((a) => a.tool && (a.risk_labels ?? []).some((l) => l !== ATTENTION_EXEMPT))
    .map((a) => ({ id: a.id, path: a.path, risk_labels: a.risk_labels ?? [] }));
}

function triageNextActions(summary: RecipesSummary, runs: RunFacts, failed: readonly FailedRun[], attention: readonly AttentionMessage[], reviews: readonly ReviewNeedingAction[]): string[] {
  const actions: string[] = [];
  if (reviews.length > 0) actions.push("inspect target=recipes view=reviews");
  if (summary.invalid.length > 0 || summary.remediations.length > 0) actions.push("inspect target=recipes view=doctor");
  if (summary.drafts.length > 0) actions.push("inspect target=recipes view=summary verbose=true");
  const firstFailed = failed[0];
  if (firstFailed !== undefined) actions.push(`inspect target=run:${firstFailed.run} view=tail lines=80`);
  const firstAttention = attention[0];
  // every hint must be a command the hosts accept: runs have a status and a tail view
  if (firstAttention !== undefined) actions.push(`inspect target=run:${firstAttention.run} view=tail`);
  const firstActive = runs.active_runs[0];
  if (firstActive !== undefined) actions.push(`inspect target=run:${firstActive.run} view=status`);
  return [...new Set(actions)].slice(0, TRIAGE_LIMITS.nextActions);
}

export function buildTriage(runtime: RuntimeStatus, summary: RecipesSummary, runs: RunFacts, reviews?: ReviewsDetails): TriageDetails {
  const failed = runs.recent_failed_runs.slice(0, TRIAGE_LIMITS.failedRuns);
  const attention = runs.attention_messages.slice(-TRIAGE_LIMITS.attention);
  const stuck = reviewsNeedingAction(reviews);
  return {
    runtime,
    current_session: runs.current_session,
    active_runs: runs.active_runs,
    other_session_runs: runs.other_session_runs,
    invalid_recipes: summary.invalid,
    blocking_recipes: summary.remediations.filter((r) => r.kind.startsWith("blocking_")),
    high_risk_recipes: highRisk(summary),
    draft_recipes: summary.drafts,
    stale_claims: runs.stale_claims,
    recent_failed_runs: failed,
    attention_messages: attention,
    reviews_needing_action: stuck,
    next_actions: triageNextActions(summary, runs, failed, attention, stuck),
  };
}

export function triageText(t: TriageDetails): string {
  return (
    `triage version=${t.runtime.version} mode=${t.runtime.mode} active_runs=${t.active_runs.length}` +
    ` other_runs=${t.other_session_runs} invalid_recipes=${t.invalid_recipes.length}` +
    ` blocking_recipes=${t.blocking_recipes.length} high_risk_recipes=${t.high_risk_recipes.length}` +
    ` drafts=${t.draft_recipes.length} stale_claims=${t.stale_claims.length}` +
    ` failed_runs=${t.recent_failed_runs.length} attention=${t.attention_messages.length} reviews_needing_action=${t.reviews_needing_action.length}${nextToken(t.next_actions)}`
  );
}
