// Diagnostic severity, suggested action and ownership. A diagnostic the compile step made (a
// recipe's tagged warning or its problem) is classified by its tag. The registry's own texts
// (shadowing, blocking, root permissions) are classified by their fixed shapes first, so a recipe
// id or path that happens to contain "invalid" or "eval" cannot change the severity of an
// unrelated message; the word lists are the last resort for texts of unknown origin.
import type { Severity } from "../model.js";
import type { Discovery, RecipeEntry } from "../discovery/types.js";
import { compareText } from "./compact.js";
import { warningDiagnostic, type WarningKind } from "../compile/recipe-warning.js";

const INFO_SHAPES = [
  /^Recipe .+ shadows \d+ lower-priority recipe\(s\)$/s,
  /^Recipe .+ is disabled and blocks lower-priority recipes$/s,
  /^Markdown recipe .+ is shadowed by JSON recipe .+$/s,
];
const ERROR_SHAPES = [/^Recipe .+ is invalid and blocks lower-priority recipes$/s, /^Invalid recipe: /, /^Failed to load recipe /];
const ROOT_WARNING = /world-writable|group-writable|broad Windows principals/;
const ERROR_WORDS = /invalid|failed to (?:load|inspect)|not found|cyclic|exceeds|must define|repeat must/i;
const WARNING_WORDS = /world-writable|group-writable|invokes bash|eval|destructive|broad filesystem|unsafe/i;

/** What the compile step said an entry diagnostic is: one of its tagged warnings, or its problem. */
export type DiagnosticTag = WarningKind | "problem";

/** The tag of each entry diagnostic the compile step produced, found by its text; undefined for a
 * diagnostic no compile result made (registry and root diagnostics, markdown shadowing). */
export function diagnosticTags(discovery: Discovery): (message: string) => DiagnosticTag | undefined {
  const tags = new Map<string, DiagnosticTag>();
  for (const entry of discovery.entries) {
    const compiled = entry.compiled;
    if (compiled.kind === "problem") for (const d of compiled.diagnostics) tags.set(d, "problem");
    else for (const w of compiled.warnings) tags.set(warningDiagnostic(compiled.path, w), w.kind);
  }
  return (message) => tags.get(message);
}

export function diagnosticSeverity(message: string, tag?: DiagnosticTag): Severity {
  if (tag === "problem") return "error";
  if (tag !== undefined) return "warning";
  if (INFO_SHAPES.some((r) => r.test(message))) return "info";
  if (ERROR_SHAPES.some((r) => r.test(message))) return "error";
  if (ROOT_WARNING.test(message)) return "warning";
  if (ERROR_WORDS.test(message)) return "error";
  if (WARNING_WORDS.test(message)) return "warning";
  return "info";
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };
export const severityRank = (s: Severity): number => SEVERITY_RANK[s];

const WARNING_ACTIONS: Readonly<Record<WarningKind, string>> = {
  authoring: "correct the recipe (it still loads as written)",
  shell: "audit the trusted shell boundary and keep only if intentional",
  boundary: "audit the trusted command boundary and keep only if intentional",
};

/** The operator's next step for one diagnostic: by its tag when it has one, else first match wins. */
export function diagnosticAction(message: string, tag?: DiagnosticTag): string {
  if (tag !== undefined && tag !== "problem") return WARNING_ACTIONS[tag];
  if (ROOT_WARNING.test(message)) return "tighten recipe root permissions";
  if (/^Markdown recipe .+ is shadowed by JSON recipe /s.test(message) || /shadows \d+ lower-priority/.test(message))
    return "confirm the active override or rename one recipe";
  if (/must define template/i.test(message)) return "add a template field or remove the recipe";
  if (/cyclic/i.test(message)) return "break the import cycle";
  if (/exceeds.*size/i.test(message)) return "split large prompt or data into separate files";
  if (/repeat must/i.test(message)) return "use a positive repeat count or an array-typed repeat source";
  if (/Markdown recipe/i.test(message)) return "fix frontmatter and add a fenced template or recipe block";
  if (/JSON|Expected|parse/i.test(message)) return "fix recipe syntax or archive the file";
  if (/^Recipe .+ is invalid and blocks lower-priority recipes$/s.test(message))
    return "fix the recipe, or disable/delete/archive it to restore the fallback";
  if (/is disabled and blocks/.test(message)) return "keep disabled intentionally or delete/archive the file";
  return "inspect the recipe and fix or archive it if unexpected";
}

/** Which entry a registry diagnostic is about: the winner whose id or own diagnostics it names. */
export function diagnosticOwners(discovery: Discovery): (message: string) => RecipeEntry | undefined {
  const owners = new Map<string, RecipeEntry>();
  const claim = (message: string, entry: RecipeEntry): void => {
    if (!owners.has(message)) owners.set(message, entry);
  };
  for (const [id, winner] of discovery.active) {
    claim(`Recipe ${id} is invalid and blocks lower-priority recipes`, winner);
    claim(`Recipe ${id} is disabled and blocks lower-priority recipes`, winner);
    claim(`Recipe ${id} shadows ${winner.shadows.length} lower-priority recipe(s)`, winner);
    for (const d of winner.diagnostics) claim(d, winner);
  }
  // a shadowed entry's own diagnostics are registry diagnostics too; without an owner they would
  // be listed twice, once without their path
  for (const entry of discovery.entries) for (const d of entry.diagnostics) claim(d, entry);
  return (message) => {
    const owner = owners.get(message);
    if (owner !== undefined) return owner;
    for (const [id, winner] of discovery.active)
      if (message.startsWith(`Recipe ${id} could not be exposed as a tool: `)) return winner;
    return undefined;
  };
}

export interface DiagnosticDetail {
  readonly id?: string;
  readonly path?: string;
  readonly risk_labels?: readonly string[];
  readonly action: string;
  readonly message: string;
  readonly severity: Severity;
}

/** Registry diagnostics and every entry's own (shadowed entries too), once per path and message,
 * sorted by severity then message. */
export function diagnosticDetails(discovery: Discovery): DiagnosticDetail[] {
  const ownerOf = diagnosticOwners(discovery);
  const tagOf = diagnosticTags(discovery);
  const seen = new Set<string>();
  const out: DiagnosticDetail[] = [];
  const push = (message: string, entry: RecipeEntry | undefined): void => {
    const key = `${entry?.path ?? ""}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({
      ...(entry === undefined ? {} : { id: entry.id, path: entry.path }),
      ...(entry !== undefined && entry.riskLabels.length > 0 ? { risk_labels: entry.riskLabels } : {}),
      action: diagnosticAction(message, tagOf(message)),
      message,
      severity: diagnosticSeverity(message, tagOf(message)),
    });
  };
  for (const message of discovery.diagnostics) push(message, ownerOf(message));
  for (const entry of discovery.entries) for (const message of entry.diagnostics) push(message, entry);
  return out.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || compareText(a.message, b.message));
}
