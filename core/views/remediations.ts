// Doctor remediations and cleanup recommendations: what an operator
// could do about each entry. Advisory only; nothing here changes a file.
import type { JsonObject, Severity } from "../model.js";
import type { Discovery, RecipeEntry } from "../discovery/types.js";
import { compareText } from "./compact.js";
import { warningDiagnostic } from "../compile/recipe-warning.js";
import { declaredPolicy, type SandboxMode } from "../sandbox/policy.js";

export type RemediationKind =
  | "blocking_invalid"
  | "invalid"
  | "blocking_disabled"
  | "risky_shell_boundary"
  | "option_injection"
  | "disabled"
  | "unconfined_risk"
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

const RANK: Readonly<Record<RemediationKind, number>> = {
  blocking_invalid: 0,
  invalid: 1,
  blocking_disabled: 2,
  risky_shell_boundary: 3,
  option_injection: 4,
  disabled: 5,
  unconfined_risk: 6,
  shadowed: 7,
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
      reason: `string argument(s) ${injectable.join(", ")} form a whole command word before any "--": a value starting with "-" becomes an option of the command`,
      action: `put "--" before the argument(s) in the template, or give them a type (path, int, number, enum)`,
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

/** One remediation per entry that needs one, most urgent first (rank, then id, then path). */
export function remediations(discovery: Discovery, mode: SandboxMode = "off"): Remediation[] {
  return discovery.entries
    .flatMap((e) => remediationFor(discovery, e, mode) ?? [])
    .sort((a, b) => RANK[a.kind] - RANK[b.kind] || compareText(a.id, b.id) || compareText(a.path, b.path));
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
