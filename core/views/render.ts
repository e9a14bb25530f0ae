// Compact texts of the recipe registry views other than doctor: status/summary
// (plus our per-entry lines), imports and reviews.
import { isObject } from "../template/graph.js";
import { compareText, nextToken, oneLine } from "./compact-text.js";
import { statusCounts } from "./headlines.js";
import { isComponent, type RecipesSummary } from "./registry-summary.js";

// Caps keep the summary compact on registries with thousands of recipes.
const ACTIVE_NAMES = 50;
const GROUP_LINES = 20;

/** The single counts line shared by `status` and `summary`. */
export const statusLine = (summary: RecipesSummary): string => `${statusCounts(summary)}${nextToken(summary.next_actions)}`;

function capped(lines: readonly string[], what: string): string[] {
  if (lines.length <= GROUP_LINES) return [...lines];
  return [...lines.slice(0, GROUP_LINES), `… +${lines.length - GROUP_LINES} more ${what}`];
}

/** Why each tool is present, hidden, broken or disabled, one short line per fact. */
function entryLines(summary: RecipesSummary): string[] {
  const lines: string[] = [];
  const names = (label: string, ids: string[]): void => {
    if (ids.length === 0) return;
    ids.sort(compareText);
    const shown = ids.slice(0, ACTIVE_NAMES).join(", ");
    lines.push(`${label}: ${shown}${ids.length > ACTIVE_NAMES ? `, … +${ids.length - ACTIVE_NAMES} more` : ""}`);
  };
  // tools the agent has, then winners that are not tools for a reason other than being broken or off
  names("tools", summary.active.filter((a) => a.tool).map((a) => a.id));
  names("components", summary.active.filter(isComponent).map((a) => a.id));
  lines.push(
    ...capped(summary.shadowed.map((s) => `shadowed: ${s.path} (by ${s.shadowed_by ?? "?"})`), "shadowed"),
    ...capped(summary.invalid.map((i) => oneLine(`invalid: ${i.id}: ${i.errors.join("; ")}`)), "invalid"),
    ...capped(summary.disabled.map((d) => `disabled: ${d.path}`), "disabled"),
  );
  lines.push(...capped(summary.active.flatMap((a) => (a.sandbox === undefined ? [] : [`sandbox: ${a.id} ${a.sandbox}`])), "sandboxed tools"));
  if (summary.drafts.length > 0) lines.push(`drafts: ${summary.drafts.length}`);
  lines.push(...capped(usageLines(summary), "used recipes"));
  lines.push(
    ...capped(summary.diagnostics.map((d) => oneLine(`diagnostic ${d.severity}: ${d.message}`)), "diagnostics"),
  );
  return lines;
}

/** One line per recipe with recorded launches: its launch count and the time of the last one. */
function usageLines(summary: RecipesSummary): string[] {
  return summary.active.flatMap((a) => {
    const calls = a.usage?.["calls"];
    if (typeof calls !== "number" || calls <= 0) return [];
    const last = a.usage?.["last_launch_at"];
    return [`usage: ${a.id} calls=${calls}${typeof last === "string" ? ` last_call=${last}` : ""}`];
  });
}

export const statusText = (summary: RecipesSummary): string => statusLine(summary);

export const summaryText = (summary: RecipesSummary): string =>
  [statusLine(summary), ...entryLines(summary).map((l) => `  ${l}`)].join("\n");

/** One line per import binding of an active recipe, then one per recipe that does not load: its
 *  imports are not known (a broken import is the usual reason), so an empty list does not read as
 *  "nothing imports anything" while a recipe failed. */
export function importsText(summary: RecipesSummary): string {
  const lines = summary.active.flatMap((a) =>
    Object.entries(a.imports ?? {}).map(([alias, value]) => {
      const binding = isObject(value) ? value["from"] : undefined;
      const from = typeof value === "string" ? value : typeof binding === "string" ? binding : JSON.stringify(value);
      return `recipe=${a.id} alias=${alias} from=${from}`;
    }),
  );
  const unknown = summary.invalid.map((i) => oneLine(`invalid: ${i.id}: ${i.errors.join("; ")} (its imports are not known)`));
  if (lines.length === 0) lines.push(unknown.length === 0 ? "(no recipe imports)" : "(no recipe imports among the recipes that load)");
  return [...lines, ...capped(unknown, "invalid")].join("\n");
}

export type ReviewsDetails = {
  readonly draft_review: { readonly phase: string };
  /** null when the ledgers could not be read (`usage_unreadable`) */
  readonly lineage_count: number | null;
  readonly lineages: readonly unknown[];
  /** null when the ledgers could not be read (`usage_unreadable`) */
  readonly revision_snapshots: number | null;
  readonly tool_review: { readonly phase: string };
  /** why the usage ledgers could not be read: the counts above are then not known */
  readonly usage_unreadable?: string;
  /** review state files that are there but do not read: the phases above are then not known */
  readonly state_unreadable?: readonly string[];
};

/** Automatic reviews have not run yet: both phases idle, no lineages, no snapshots. */
export const idleReviews = (): ReviewsDetails => ({
  draft_review: { phase: "idle" },
  lineage_count: 0,
  lineages: [],
  revision_snapshots: 0,
  tool_review: { phase: "idle" },
});


// a failed review says why and what to do in the plain view too (a reviewer killed for its output
// size, a refused reply): only verbose output used to show it
const failureLines = (scope: string, review: Readonly<Record<string, unknown>>): string[] => {
  if (review["phase"] !== "failed" && review["phase"] !== "processing_failed") return [];
  const field = (key: string): string => (typeof review[key] === "string" ? String(review[key]) : "");
  const error = field("last_error");
  if (error === "") return [];
  const stage = field("failed_stage");
  const next = field("next_action");
  return [`${scope}_review ${stage === "" ? "" : `failed_stage=${stage} `}last_error=${error.replaceAll("\n", " ")}`, ...(next === "" ? [] : [`next: ${next}`])];
};

export const reviewsText = (r: ReviewsDetails): string =>
  [
    `automatic_reviews draft=${r.draft_review.phase} tool=${r.tool_review.phase}`,
    // ledgers that could not be read are not shown as none
    r.usage_unreadable === undefined ? `lineages=${r.lineage_count} revision_snapshots=${r.revision_snapshots}` : "lineages=unknown revision_snapshots=unknown",
    ...failureLines("draft", r.draft_review),
    ...failureLines("tool", r.tool_review),
    ...(r.state_unreadable ?? []).map((line) => `warning: ${line}`),
  ].join("\n");
