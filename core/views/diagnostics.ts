// Diagnostic severity, suggested action and ownership. A diagnostic the compile step made (a
// recipe's tagged warning or its problem) is classified by its tag. The registry's own texts
// (shadowing, blocking, root permissions) are classified by their fixed shapes first, so a recipe
// id or path that happens to contain "invalid" or "eval" cannot change the severity of an
// unrelated message; the word lists are the last resort for texts of unknown origin.
import type { Severity } from "../model.js";
import type { Discovery, RecipeEntry } from "../discovery/discovery-result.js";
import { compareText } from "./compact-text.js";
import { warningDiagnostic, type WarningKind } from "../compile/recipe-warning.js";
import { disabledBlocks, invalidBlocks, markdownShadowed, notExposed, reservedName, reservedRecipe, shadowsLower, unlistedDrafts, unlistedRoot } from "../discovery/diagnostic-texts.js";

const INFO_SHAPES = [
  /^Recipe .+ shadows \d+ lower-priority recipe\(s\)$/s,
  /^Recipe .+ is disabled and blocks lower-priority recipes$/s,
  /^Markdown recipe .+ is shadowed by JSON recipe .+$/s,
];
const LINKED = /^Recipe file .+ is a symbolic link and was not loaded: /s;
const STRAY_FOLDER = /^Recipe file .+ is a folder and was not loaded: /s;
const STRAY_CASE = /^Recipe file .+ was not loaded: a recipe file's name ends in \.json or \.md, in lower case: /s;
const STRAY_YAML = /^Recipe file .+ was not loaded: a recipe is a \.json file, or a \.md file /s;
const ERROR_SHAPES = [/^Recipe .+ is invalid and blocks lower-priority recipes$/s, /^Invalid recipe: /, /^Failed to load recipe /, LINKED, STRAY_FOLDER, STRAY_CASE, STRAY_YAML];
/** the usage views' own: ledgers that could not be read (runtime/usage-view.ts) */
const USAGE_UNREADABLE = /^Usage ledgers could not be read: /;
/** a journal recovery set aside (runtime/usage-view.ts) */
const QUARANTINED_JOURNAL = /^Journal .+ was set aside by recovery: /s;
/** a review's state file that does not read (runtime/review/files.ts) */
const REVIEW_STATE_UNREADABLE = /^Review state .+ is unreadable /s;
/** what the usage ledger repaired on the way (an unreadable index rebuilt, an unreadable ledger
 *  started again): counts may be lower than the launches made */
const USAGE_REPAIRED = /^Usage (?:index|ledger|lineage) .+ (?:was unreadable|is unreadable|failed|did not read as a ledger)/s;
/** a ledger that did not read, kept beside itself (runtime/ledger/ledger-store.ts) */
const USAGE_KEPT_ASIDE = /^Usage ledger .+ (?:is kept aside|did not read as a ledger)/s;
/** the usage ledger's other notes (a lineage not followed, a name held by another lineage) */
const USAGE_NOTE = /^Usage (?:lineage|ledger|index|journal|accounting) /;
/** a recipe's delegation target that is missing or has no template (core/recipe/recipe-error.ts) */
const DELEGATE_UNLOADED = /^Failed to load recipe .+: Template recipe must define template: /s;
/** an import whose file is missing (one that is there but no recipe says so in parentheses) */
const IMPORT_MISSING = /^Failed to load recipe .+: Recipe import not found: [^ (]+$/s;
const ROOT_WARNING = /world-writable|group-writable|broad Windows principals/;
const ERROR_WORDS = /invalid|failed to (?:load|inspect)|not found|cyclic|exceeds|must define|repeat must/i;
const WARNING_WORDS = /world-writable|group-writable|invokes bash|eval|destructive|broad filesystem|unsafe/i;

/** What a diagnostic of the discovery is: one of a recipe's tagged warnings, its problem, or one of
 * the registry's own diagnostics about a bucket (core/discovery/diagnostic-texts.ts). */
export type DiagnosticTag =
  | WarningKind
  | "problem"
  | "invalid-blocks"
  | "disabled-blocks"
  | "shadows"
  | "markdown-shadowed"
  | "not-a-tool"
  | "reserved-name"
  | "reserved-recipe"
  | "unlisted-root"
  | "unlisted-drafts";

/** A lookup whose table is built on the first question: a registry without diagnostics (the
 * common case, and 10,000 recipes of it) never pays for texts nobody asks about. */
function onDemand<T>(build: () => Map<string, T>): (message: string) => T | undefined {
  let table: Map<string, T> | undefined;
  return (message) => (table ??= build()).get(message);
}

/** The tag of each diagnostic the discovery made, found by building its text again from the same
 * facts; undefined for a text of another origin (a root's permissions). */
export function diagnosticTags(discovery: Discovery): (message: string) => DiagnosticTag | undefined {
  return onDemand(() => tagTable(discovery));
}

function tagTable(discovery: Discovery): Map<string, DiagnosticTag> {
  const tags = new Map<string, DiagnosticTag>();
  const tag = (message: string, t: DiagnosticTag): void => {
    if (!tags.has(message)) tags.set(message, t);
  };
  for (const entry of discovery.entries) {
    const compiled = entry.compiled;
    if (compiled.kind === "problem") for (const d of compiled.diagnostics) tag(d, "problem");
    else {
      for (const w of compiled.warnings) tag(warningDiagnostic(compiled.path, w), w.kind);
      if (compiled.toolProblem !== undefined) tag(notExposed(entry.id, compiled.toolProblem), "not-a-tool");
    }
    if (entry.reservedName === true) tag(reservedRecipe(entry.path, entry.id), "reserved-recipe");
    if (entry.shadowedBy !== undefined) tag(markdownShadowed(entry.path, entry.shadowedBy), "markdown-shadowed");
  }
  for (const [id, winner] of discovery.active) {
    tag(invalidBlocks(id), "invalid-blocks");
    tag(disabledBlocks(id), "disabled-blocks");
    tag(shadowsLower(id, winner.shadows.length), "shadows");
    tag(reservedName(id), "reserved-name");
  }
  for (const u of discovery.unlisted) {
    if (u.kind === "root") tag(unlistedRoot(u.dir, u.error), "unlisted-root");
    else tag(unlistedDrafts(u.dir, u.error), "unlisted-drafts");
  }
  return tags;
}

const TAG_SEVERITY: Readonly<Record<DiagnosticTag, Severity>> = {
  shell: "warning",
  boundary: "warning",
  authoring: "warning",
  problem: "error",
  "invalid-blocks": "error",
  "not-a-tool": "error",
  "disabled-blocks": "info",
  shadows: "info",
  "markdown-shadowed": "info",
  "reserved-name": "info",
  // a recipe file the user wrote that is no tool
  "reserved-recipe": "error",
  // what the folder holds is unknown: every tool it has is missing
  "unlisted-root": "error",
  // no draft is counted, shown or reviewed while it lasts
  "unlisted-drafts": "error",
};

/** A tagged diagnostic's severity is its tag's; a text of unknown origin is read by its shape,
 * then by its words. */
export function diagnosticSeverity(message: string, tag?: DiagnosticTag): Severity {
  if (tag !== undefined) return TAG_SEVERITY[tag];
  if (USAGE_UNREADABLE.test(message) || QUARANTINED_JOURNAL.test(message) || USAGE_REPAIRED.test(message) || REVIEW_STATE_UNREADABLE.test(message)) return "warning";
  if (USAGE_NOTE.test(message)) return "info";
  if (INFO_SHAPES.some((r) => r.test(message))) return "info";
  if (ERROR_SHAPES.some((r) => r.test(message))) return "error";
  if (ROOT_WARNING.test(message)) return "warning";
  if (ERROR_WORDS.test(message)) return "error";
  if (WARNING_WORDS.test(message)) return "warning";
  return "info";
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };
export const severityRank = (s: Severity): number => SEVERITY_RANK[s];

const TAG_ACTIONS: Readonly<Partial<Record<DiagnosticTag, string>>> = {
  authoring: "correct the recipe (it still loads as written)",
  shell: "audit the trusted shell boundary and keep only if intentional",
  boundary: "audit the trusted command boundary and keep only if intentional",
  shadows: "confirm the active override or rename one recipe",
  "markdown-shadowed": "confirm the active override or rename one recipe",
  "invalid-blocks": "fix the recipe, or disable/delete/archive it to restore the fallback",
  "disabled-blocks": "keep disabled intentionally or delete/archive the file",
  // the one reason a loaded recipe is not a tool: an unsafe `repeat`
  "not-a-tool": "use a positive repeat count or an array-typed repeat source",
  "reserved-name": "rename the recipe file: a recipe named like a built-in tool is never registered",
  "reserved-recipe": "rename the recipe file: a recipe named like a built-in tool is never registered",
  "unlisted-root": "let this user list the folder (read and search permission: chmod u+rx), or correct what the error names",
  "unlisted-drafts": "let this user list the folder (read and search permission: chmod u+rx), or correct what the error names",
};

/** The operator's next step for one diagnostic: by its tag when that decides it, else (a problem,
 * a root diagnostic, a text of unknown origin) the first matching shape. */
export function diagnosticAction(message: string, tag?: DiagnosticTag): string {
  const byTag = tag === undefined ? undefined : TAG_ACTIONS[tag];
  if (byTag !== undefined) return byTag;
  if (ROOT_WARNING.test(message)) return "tighten recipe root permissions";
  if (QUARANTINED_JOURNAL.test(message)) return "read the journal (JSON: its plan and the files it names), check those files, then delete the journal";
  if (USAGE_UNREADABLE.test(message)) return "run the view again once the other process is done, or repair the usage folder";
  if (USAGE_KEPT_ASIDE.test(message)) return "restore the counts by hand from the file kept aside (into the tool's new ledger), then delete it";
  if (REVIEW_STATE_UNREADABLE.test(message)) return "read the state file; move it aside or delete it to start the reviews over";
  if (USAGE_REPAIRED.test(message)) return "nothing to undo: the ledger repaired what it could; launches it could not read are not counted";
  if (USAGE_NOTE.test(message)) return "nothing to do unless it is unexpected: rename one of the recipes to tell their histories apart";
  if (LINKED.test(message)) return "copy the file into the recipe folder in place of the link, or link the whole folder";
  if (STRAY_FOLDER.test(message)) return "move the folder out of the recipe folder: a recipe is one file";
  if (STRAY_CASE.test(message)) return "rename the file to the lower-case ending, or move it out of the recipe folder";
  if (STRAY_YAML.test(message)) return "write it as a .md recipe (the fields as YAML frontmatter, the template in a fenced block) or as .json, or move it out of the recipe folder";
  if (/^Markdown recipe .+ is shadowed by JSON recipe /s.test(message) || /shadows \d+ lower-priority/.test(message))
    return "confirm the active override or rename one recipe";
  // a delegation target or an import that did not load: the fixed texts say the same of a file
  // that is missing as of one without a template, so the step covers both
  if (DELEGATE_UNLOADED.test(message)) return "the delegated recipe file it names is missing or has no template: create it with one, or correct the path in the template";
  if (IMPORT_MISSING.test(message)) return "no recipe file is where the import's \"from\" points: create it, or fix \"from\"";
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
  return onDemand(() => ownerTable(discovery));
}

function ownerTable(discovery: Discovery): Map<string, RecipeEntry> {
  const owners = new Map<string, RecipeEntry>();
  const claim = (message: string, entry: RecipeEntry): void => {
    if (!owners.has(message)) owners.set(message, entry);
  };
  for (const [id, winner] of discovery.active) {
    claim(invalidBlocks(id), winner);
    claim(disabledBlocks(id), winner);
    claim(shadowsLower(id, winner.shadows.length), winner);
    if (winner.reservedName === true) claim(reservedName(id), winner);
    for (const d of winner.diagnostics) claim(d, winner);
  }
  // a shadowed entry's own diagnostics are registry diagnostics too; without an owner they would
  // be listed twice, once without their path
  for (const entry of discovery.entries) for (const d of entry.diagnostics) claim(d, entry);
  return owners;
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
