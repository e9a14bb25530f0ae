// Compact `inspect target=recipes view=doctor`: the counts (RecipesSummary.counts, the same in
// every view), the single most urgent action, up to 8 findings, then the next commands. Meant to
// be read by a person or a model in a pipe: structured tokens first, then the advice as it is
// written (no underscores for spaces, nothing cut off).
import { VIEW_LIMITS } from "./compact-text.js";
import { doctorHeadline } from "./headlines.js";
import type { RecipesSummary } from "./registry-summary.js";
import type { Remediation } from "./remediations.js";

/** A token value as it is, or JSON-quoted when it holds whitespace (a path with a space). */
const token = (value: string): string => (/\s/.test(value) ? JSON.stringify(value) : value);

function findingLine(r: Remediation): string {
  const blocked = r.blocked_fallback === undefined ? "" : ` blocked=${token(r.blocked_fallback)}`;
  const labels = r.risk_labels === undefined || r.risk_labels.length === 0 ? "" : ` labels=${r.risk_labels.slice(0, VIEW_LIMITS.labels).join(",")}`;
  const advice = r.action.replace(/\s*\n\s*/g, " ");
  return `${r.severity} kind=${r.kind} id=${token(r.id)}${blocked}${labels}: ${advice}`;
}

export function doctorText(summary: RecipesSummary): string {
  const lines = [doctorHeadline(summary)];
  const top = summary.top_action;
  if (top !== undefined) lines.push(`top severity=${findingLine(top)}`);
  const shown = summary.remediations.slice(0, VIEW_LIMITS.doctorLines);
  lines.push(...shown.map(findingLine));
  const more = summary.remediations.length - shown.length;
  if (more > 0) lines.push(`… +${more} more (inspect target=recipes view=doctor verbose=true gives every finding, as JSON)`);
  const confined = summary.active.flatMap((a) => (a.sandbox === undefined ? [] : [`sandbox id=${a.id} ${a.sandbox}`]));
  lines.push(...confined.slice(0, VIEW_LIMITS.doctorLines));
  if (confined.length > VIEW_LIMITS.doctorLines) lines.push(`… +${confined.length - VIEW_LIMITS.doctorLines} more sandboxed tools`);
  if (summary.next_actions.length > 0) lines.push(`next: ${summary.next_actions.join(" | ")}`);
  return lines.join("\n");
}
