// The head lines of the recipe views: the first line of the compact `status`, `summary` and
// `doctor` texts, and of their tables on a terminal (host-cli/tables.ts), made here once so both
// say the same. This module stays light (no io-ts): the installed command's front door
// (host-cli/front-door.ts) loads it with the tables.
import { VIEW_LIMITS } from "./compact-text.js";
import type { RecipesSummary } from "./registry-summary.js";

/** The counts line of `status` and `summary`, without the next commands. */
export function statusCounts(summary: Pick<RecipesSummary, "counts">): string {
  const c = summary.counts;
  return (
    `recipes active=${c.active} components=${c.components} drafts=${c.drafts}` +
    ` shadowed=${c.shadowed} invalid=${c.invalid} disabled=${c.disabled}` +
    ` current_policy=${c.current_policy} recommendations=${c.recommendations}` +
    ` diagnostics=${c.diagnostics}`
  );
}

/** The doctor's head line: its counts and the most frequent risk labels. */
export function doctorHeadline(summary: Pick<RecipesSummary, "counts" | "risk_summary">): string {
  const c = summary.counts;
  const topRisks = summary.risk_summary
    .slice(0, VIEW_LIMITS.topRisks)
    .map((r) => `${r.label}:${r.count}`)
    .join(",");
  return (
    `recipes doctor errors=${c.errors} warnings=${c.warnings} info=${c.info}` +
    ` actions=${c.actions} recommendations=${c.recommendations} risks=${c.risks}` +
    (topRisks === "" ? "" : ` top_risks=${topRisks}`)
  );
}
