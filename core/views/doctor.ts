// Compact `inspect target=recipes view=doctor`: counts, the single
// most urgent action, then up to 8 remediation lines.
import { nextToken, preview, VIEW_LIMITS } from "./compact.js";
import type { RecipesSummary } from "./registry-summary.js";

export function doctorText(summary: RecipesSummary): string {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of summary.diagnostic_details) counts[d.severity] += 1;
  const risks = summary.risk_summary.reduce((sum, r) => sum + r.count, 0);
  const topRisks = summary.risk_summary
    .slice(0, VIEW_LIMITS.topRisks)
    .map((r) => `${r.label}:${r.count}`)
    .join(",");
  const lines = [
    `recipes doctor errors=${counts.error} warnings=${counts.warning} info=${counts.info}` +
      ` actions=${summary.remediations.length} recommendations=${summary.recommendations.length} risks=${risks}` +
      (topRisks === "" ? "" : ` top_risks=${topRisks}`) +
      nextToken(summary.next_actions),
  ];
  const top = summary.top_action;
  if (top !== undefined)
    lines.push(`top severity=${top.severity} kind=${top.kind} id=${top.id} action=${preview(top.action)}`);
  for (const r of summary.remediations.slice(0, VIEW_LIMITS.doctorLines)) {
    const blocked = r.blocked_fallback === undefined ? "" : ` blocked=${preview(r.blocked_fallback)}`;
    const labels =
      r.risk_labels === undefined ? "" : ` labels=${r.risk_labels.slice(0, VIEW_LIMITS.labels).join(",")}`;
    lines.push(`${r.severity} kind=${r.kind} id=${r.id}${blocked}${labels} action=${preview(r.action)}`);
  }
  const confined = summary.active.flatMap((a) => (a.sandbox === undefined ? [] : [`sandbox id=${a.id} ${a.sandbox}`]));
  lines.push(...confined.slice(0, VIEW_LIMITS.doctorLines));
  if (confined.length > VIEW_LIMITS.doctorLines) lines.push(`… +${confined.length - VIEW_LIMITS.doctorLines} more sandboxed tools`);
  return lines.join("\n");
}
