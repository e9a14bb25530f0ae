// Readable tables of the recipe summary and doctor views, for a person at a terminal. Agents
// (no terminal) get the compact text the registry writes, scripts get `--json`; the facts are
// the same `details` object either way.
import type { CommandResult } from "../core/result.js";
import { doctorHeadline, statusCounts } from "../core/views/headlines.js";
import type { RecipesSummary } from "../core/views/registry-summary.js";
import type { ParsedCommandLine } from "./argv.js";

type Row = Readonly<Record<string, unknown>>;

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v.filter((r) => typeof r === "object" && r !== null) as Row[]) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const base = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** The error of an invalid recipe without the path it repeats: `<file>: <reason>`. */
function shortError(error: string, path: string): string {
  const reason = error.replace(/^Invalid recipe: /, "").replace(/^Failed to load recipe /, "");
  return reason.startsWith(`${path}: `) ? `${base(path)}: ${reason.slice(path.length + 2)}` : reason.replaceAll(path, base(path));
}

function table(title: string, header: readonly string[], body: readonly (readonly string[])[]): string[] {
  if (body.length === 0) return [];
  const width = header.map((h, i) => Math.min(40, Math.max(h.length, ...body.map((r) => (r[i] ?? "").length))));
  // a cell wider than its column is cut with "…", so the columns after it stay aligned
  const fit = (c: string, w: number): string => (c.length > w ? `${c.slice(0, w - 1)}…` : c.padEnd(w));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : fit(c, width[i] ?? 0))).join("  ").trimEnd();
  return [`${title} (${body.length})`, `  ${line(header)}`, ...body.map((r) => `  ${line(r)}`), ""];
}

function argsCell(tool: Row): string {
  const required = new Set(Array.isArray(tool["required"]) ? (tool["required"] as string[]) : []);
  const args = Array.isArray(tool["args"]) ? (tool["args"] as string[]) : [];
  return args.length === 0 ? "-" : args.map((a) => (required.has(a) ? `${a}*` : a)).join(", ");
}

function summaryTable(d: Row): string[] {
  return [
    ...table("Tools", ["NAME", "ARGS (* required)", "DESCRIPTION"], rows(d["tools"]).map((t) => [str(t["name"]), argsCell(t), str(t["description"])])),
    ...table("Invalid recipes", ["NAME", "ERROR"], rows(d["invalid"]).map((r) => [str(r["name"]), errorsOf(r)])),
    ...table("Disabled", ["NAME", "FILE"], rows(d["disabled"]).map((r) => [str(r["name"]), str(r["path"])])),
    ...table("Shadowed", ["NAME", "FILE", "SHADOWED BY"], rows(d["shadowed"]).map((r) => [str(r["name"]), base(str(r["path"])), str(r["shadowed_by"])])),
    ...table("Drafts", ["NAME", "FILE", "DESCRIPTION"], rows(d["drafts"]).map((r) => [str(r["name"]), `drafts/${base(str(r["path"]))}`, str(r["description"])])),
    ...diagnosticsTable(d),
  ];
}

// Every diagnostic the head line counts (a file that was not loaded, an unknown field), not only
// the invalid recipes: a table that left them out would read as a clean registry. At most
// DIAGNOSTIC_ROWS rows; the doctor view has them all.
const DIAGNOSTIC_ROWS = 20;

function diagnosticsTable(d: Row): string[] {
  const all = rows(d["diagnostics"]).map((r) => [str(r["severity"]), str(r["message"])]);
  const shown = all.slice(0, DIAGNOSTIC_ROWS);
  const lines = table("Diagnostics", ["SEVERITY", "MESSAGE"], shown);
  if (all.length <= DIAGNOSTIC_ROWS) return lines;
  // (the title counts every one; the last line says where the rest are)
  lines[0] = `Diagnostics (${all.length})`;
  lines.splice(lines.length - 1, 0, `  … ${all.length - DIAGNOSTIC_ROWS} more: pi-recipes inspect target=recipes view=doctor`);
  return lines;
}

function errorsOf(r: Row): string {
  const errors = Array.isArray(r["errors"]) ? (r["errors"] as unknown[]).map(str) : [];
  const path = str(r["path"]);
  return errors.length === 0 ? "(no reason recorded)" : errors.map((e) => shortError(e, path)).join(" | ");
}

// The doctor's findings are the `remediations` list: the head line's error, warning and info
// counts are counts of it, so the table lists exactly those (the raw diagnostics, which name one
// invalid recipe in several messages, are the summary's).
function doctorTable(d: Row): string[] {
  const findings = rows(d["remediations"]).map((r) => [str(r["severity"]), str(r["kind"]), str(r["id"]), shortError(str(r["reason"]), str(r["path"])), str(r["action"])]);
  return [
    ...table("Invalid recipes", ["NAME", "ERROR"], rows(d["invalid"]).map((r) => [str(r["name"]), errorsOf(r)])),
    ...table("Findings", ["SEVERITY", "KIND", "RECIPE", "WHY", "WHAT TO DO"], findings),
  ];
}

function nextLines(d: Row): string[] {
  const next = Array.isArray(d["next_actions"]) ? (d["next_actions"] as unknown[]).map(str) : [];
  const commands = next.filter((a) => /^(inspect|spawn|message|register_tool|call|schema|list) /.test(a));
  return commands.length === 0 ? [] : ["Next:", ...commands.map((c) => `  pi-recipes ${c}`)];
}

/** The table for this command's result, or undefined to print the text as it is. */
export function tableFor(cmd: ParsedCommandLine, result: CommandResult): string | undefined {
  const target = cmd.params["target"];
  const view = cmd.params["view"];
  if (cmd.verb !== "inspect" || !result.ok || (target !== "recipes" && target !== "recipe-registry")) return undefined;
  if (view !== "summary" && view !== "doctor") return undefined;
  // the view's head line, made from the details as the compact text makes it (without its
  // `next=` tokens: the Next list below spells them out); never the text's first line, which
  // with verbose=true is the first line of the details as JSON
  const summary = result.details as unknown as RecipesSummary;
  const head = view === "summary" ? statusCounts(summary) : doctorHeadline(summary);
  const body = view === "summary" ? summaryTable(result.details) : doctorTable(result.details);
  const lines = [head, "", ...body, ...nextLines(result.details)];
  if (body.length === 0) lines.push("Nothing to report.");
  return lines.join("\n").trimEnd();
}
