// Doctor remediations and cleanup recommendations: what an operator
// could do about each entry. Advisory only; nothing here changes a file.
import type { JsonObject, Severity } from "../model.js";
import type { Discovery, RecipeEntry } from "../discovery/discovery-result.js";
import { compareText } from "./compact-text.js";
import { warningDiagnostic } from "../compile/recipe-warning.js";
import { declaredPolicy, type SandboxMode } from "../sandbox/policy.js";
import { diagnosticDetails, diagnosticOwners, diagnosticTags, severityRank, type DiagnosticTag } from "./diagnostics.js";

export type RemediationKind =
  | "blocking_invalid"
  | "invalid"
  | "not_a_tool"
  | "blocking_disabled"
  | "risky_shell_boundary"
  | "option_injection"
  | "authoring"
  | "diagnostic"
  | "disabled"
  | "unconfined_risk"
  | "reserved_name"
  | "shadowed";

export type Remediation = {
  readonly id: string;
  readonly kind: RemediationKind;
  readonly severity: Severity;
  readonly path: string;
  readonly blocked_fallback?: string;
  readonly active_path?: string;
  readonly risk_labels?: readonly string[];
  readonly reason: string;
  readonly action: string;
};

// within a severity (errors first, then warnings, then info)
const RANK: Readonly<Record<RemediationKind, number>> = {
  blocking_invalid: 0,
  invalid: 1,
  not_a_tool: 2,
  blocking_disabled: 3,
  risky_shell_boundary: 4,
  option_injection: 5,
  authoring: 6,
  diagnostic: 7,
  disabled: 8,
  unconfined_risk: 9,
  reserved_name: 10,
  shadowed: 11,
};

const activePathOf = (discovery: Discovery, entry: RecipeEntry): string | undefined =>
  entry.shadowedBy ?? discovery.active.get(entry.id)?.path;

/** Labels of what a confined run would stop: doctor suggests `sandbox` for tools carrying them. */
export const CONFINABLE_RISKS: readonly string[] = ["risk.network", "risk.shell", "risk.eval"];
export const SANDBOX_ADVICE = 'confine it: add "sandbox": true (no network, writes only under the working directory; docs/sandbox.md)';

const unconfinedRisks = (entry: RecipeEntry, mode: SandboxMode): string[] =>
  entry.tool && declaredPolicy((entry.facts ?? entry.config)?.sandbox, mode) === undefined ? entry.riskLabels.filter((l) => CONFINABLE_RISKS.includes(l)) : [];

function remediationFor(discovery: Discovery, entry: RecipeEntry, mode: SandboxMode): Remediation | undefined {
  const fallback = entry.shadows[0];
  const blocked = fallback === undefined ? {} : { blocked_fallback: fallback };
  if (entry.invalid)
    return {
      id: entry.id,
      kind: fallback === undefined ? "invalid" : "blocking_invalid",
      severity: "error",
      path: entry.path,
      ...blocked,
      reason:
        fallback === undefined
          ? "recipe is invalid and cannot be exposed as a tool"
          : "invalid higher-priority recipe blocks a lower-priority fallback",
      action: "fix recipe syntax/config, or disable/delete/archive it to restore fallback",
    };
  if (entry.disabled && entry.active)
    return {
      id: entry.id,
      kind: fallback === undefined ? "disabled" : "blocking_disabled",
      severity: "warning",
      path: entry.path,
      ...blocked,
      reason:
        fallback === undefined
          ? "recipe is disabled and not exposed as a tool"
          : "disabled higher-priority recipe intentionally blocks a lower-priority fallback",
      action: "keep disabled intentionally, re-enable, or delete/archive the file",
    };
  // authoring warnings are findings of their own, not a command boundary to audit
  const boundary = entry.compiled.kind === "recipe" ? entry.compiled.warnings.find((w) => w.kind !== "authoring") : undefined;
  const risks = unconfinedRisks(entry, mode);
  if (boundary !== undefined)
    return {
      id: entry.id,
      kind: "risky_shell_boundary",
      severity: "warning",
      path: entry.path,
      ...(entry.riskLabels.length > 0 ? { risk_labels: entry.riskLabels } : {}),
      reason: warningDiagnostic(entry.path, boundary),
      action: `audit trusted command boundary; keep only if the recipe is local and intentional${risks.length > 0 ? `; or ${SANDBOX_ADVICE}` : ""}`,
    };
  const injectable = entry.compiled.kind === "recipe" ? entry.compiled.optionInjection : [];
  if (injectable.length > 0)
    return {
      id: entry.id,
      kind: "option_injection",
      severity: "warning",
      path: entry.path,
      risk_labels: entry.riskLabels,
      reason: `argument(s) ${injectable.join(", ")} form a whole command word before any "--": a value starting with "-" becomes an option of the command`,
      action: `put "--" before the argument(s) in the template, or give them a type whose values cannot start with "-" (path, enum)`,
    };
  if (risks.length > 0)
    return {
      id: entry.id,
      kind: "unconfined_risk",
      severity: "info",
      path: entry.path,
      risk_labels: entry.riskLabels,
      reason: `the tool carries ${risks.join(", ")} and runs unconfined`,
      action: SANDBOX_ADVICE,
    };
  if (entry.shadowed) {
    const activePath = activePathOf(discovery, entry);
    return {
      id: entry.id,
      kind: "shadowed",
      severity: "info",
      path: entry.path,
      ...(activePath === undefined ? {} : { active_path: activePath }),
      reason: activePath === undefined ? "shadowed by a higher-priority recipe" : `shadowed by ${activePath}`,
      action: "keep as fallback/component, merge, rename, delete, or archive",
    };
  }
  return undefined;
}

// Diagnostics that are findings of their own whatever else is said about their recipe: a likely
// authoring mistake (an unknown field with its did-you-mean) and a loaded recipe that is no tool.
const OWN_FINDING: ReadonlySet<DiagnosticTag | undefined> = new Set<DiagnosticTag | undefined>(["authoring", "not-a-tool", "reserved-recipe"]);
const KIND_OF_TAG: Readonly<Partial<Record<DiagnosticTag, RemediationKind>>> = {
  authoring: "authoring",
  "not-a-tool": "not_a_tool",
  "reserved-name": "reserved_name",
  "reserved-recipe": "reserved_name",
};

/** The registry's diagnostics that no entry remediation already stands for: authoring warnings,
 * recipes that are not tools, root diagnostics (permissions, listing errors) and any diagnostic of a
 * recipe that has no remediation. A winner's "shadows N lower-priority recipe(s)" is the shadowed
 * entry's remediation seen from the other side, so it is not counted twice. */
function diagnosticFindings(discovery: Discovery, covered: ReadonlySet<string>): Remediation[] {
  if (discovery.diagnostics.length === 0 && discovery.entries.every((e) => e.diagnostics.length === 0)) return [];
  const tagOf = diagnosticTags(discovery);
  const ownerOf = diagnosticOwners(discovery);
  return diagnosticDetails(discovery).flatMap((d): Remediation[] => {
    const tag = tagOf(d.message);
    if (tag === "shadows") return [];
    // a reserved name held by a recipe file: that file's own diagnostic (which names it) stands for it
    if (tag === "reserved-name" && d.path !== undefined) return [];
    if (!OWN_FINDING.has(tag) && d.path !== undefined && covered.has(d.path)) return [];
    const owner = ownerOf(d.message);
    const prefix = d.path === undefined ? "" : `Recipe ${d.path}: `;
    const text = tag === "authoring" && d.message.startsWith(prefix) ? d.message.slice(prefix.length) : d.message;
    return [
      {
        id: d.id ?? owner?.id ?? "-",
        kind: (tag === undefined ? undefined : KIND_OF_TAG[tag]) ?? "diagnostic",
        severity: d.severity,
        path: d.path ?? "",
        ...(d.risk_labels === undefined ? {} : { risk_labels: d.risk_labels }),
        reason: d.message,
        // an authoring warning says what is wrong and what was probably meant: that is the action;
        // a diagnostic of no recipe (a recipe root's) keeps its text, which names the root
        action: tag === "authoring" ? text : d.path === undefined ? `${d.message}: ${d.action}` : d.action,
      },
    ];
  });
}

/** Every finding of the doctor, most urgent first (severity, rank, then id, then path): one
 * remediation per entry that needs one, and the diagnostics none of them stands for. The doctor's
 * error, warning and info counts are counts of this list. */
export function remediations(discovery: Discovery, mode: SandboxMode = "off"): Remediation[] {
  const perEntry = discovery.entries.flatMap((e) => remediationFor(discovery, e, mode) ?? []);
  const covered = new Set(perEntry.map((r) => r.path));
  return [...perEntry, ...diagnosticFindings(discovery, covered)].sort(
    (a, b) => severityRank(a.severity) - severityRank(b.severity) || RANK[a.kind] - RANK[b.kind] || compareText(a.id, b.id) || compareText(a.path, b.path),
  );
}

export type Recommendation = {
  readonly id: string;
  readonly path: string;
  readonly reason: string;
  readonly actions: readonly string[];
};

/** Launch count of a usage record; the ledger's `calls` view, else its lifetime count. */
function recordedCalls(usage: JsonObject): number {
  const calls = usage["calls"] ?? usage["lifetime_calls"];
  return typeof calls === "number" ? calls : 0;
}

function recommendationFor(
  discovery: Discovery,
  entry: RecipeEntry,
  usage: JsonObject | undefined,
): Omit<Recommendation, "id" | "path"> | undefined {
  if (entry.invalid)
    return { reason: "invalid recipe blocks lower-priority entries with the same id", actions: ["fix", "delete", "archive"] };
  if (entry.shadowed) {
    const activePath = activePathOf(discovery, entry);
    return {
      reason: activePath === undefined ? "shadowed by a higher-priority recipe" : `shadowed by ${activePath}`,
      actions: ["merge", "delete", "archive"],
    };
  }
  if (entry.disabled)
    return {
      reason: "disabled recipe is retained but not exposed as a tool",
      actions: ["keep disabled", "delete", "archive"],
    };
  // Without usage evidence an unused-tool verdict would be a guess, so it needs a record.
  if (entry.mutableUsage && entry.tool && usage !== undefined && recordedCalls(usage) === 0)
    return {
      reason: "active user tool has no recorded launches",
      actions: ["keep as tool", "move out of tool root", "delete", "archive"],
    };
  if (entry.reservedName === true)
    return {
      reason: "user recipe is named like a built-in tool and is not registered",
      actions: ["rename", "delete", "archive"],
    };
  if (entry.mutableUsage && !entry.tool)
    return {
      reason: "user recipe is a component, not an active tool",
      actions: ["keep component", "move into tool root", "merge", "delete", "archive"],
    };
  if (entry.shadows.length > 0)
    return {
      reason: `overrides ${entry.shadows.length} lower-priority recipe(s)`,
      actions: ["keep override", "merge", "delete", "archive"],
    };
  return undefined;
}

/** Operator-gated cleanup suggestions, sorted by id then path. */
export function recommendations(
  discovery: Discovery,
  usageOf: (entry: RecipeEntry) => JsonObject | undefined,
): Recommendation[] {
  return discovery.entries
    .flatMap((entry) => {
      const r = recommendationFor(discovery, entry, usageOf(entry));
      return r === undefined ? [] : [{ id: entry.id, path: entry.path, ...r }];
    })
    .sort((a, b) => compareText(a.id, b.id) || compareText(a.path, b.path));
}
