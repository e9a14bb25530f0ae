// The recipe registry summary object, shared by the status,
// summary, doctor and imports views. Entry lists carry both the older keys (`id`, `shadowedBy`,
// `diagnostics`, which existing agents read) and the current ones (`name`, `format`,
// `shadowed_by`, `errors`), so either reader finds what it expects.
import type { JsonObject, RecipeFormat, Severity } from "../model.js";
import type { ConfigFacts, Discovery, DraftEntry, RecipeEntry } from "../discovery/discovery-result.js";
import { compareText, templatePreview, VIEW_LIMITS } from "./compact-text.js";
import { diagnosticDetails, diagnosticOwners, diagnosticSeverity, diagnosticTags, type DiagnosticDetail, type DiagnosticTag } from "./diagnostics.js";
import { recommendations, remediations, type Recommendation, type Remediation } from "./remediations.js";
import { declaredPolicy, describePolicy, type SandboxMode } from "../sandbox/policy.js";

export type RecipesView = "status" | "summary" | "doctor" | "imports" | "reviews";

export interface SummaryOptions {
  readonly view: RecipesView;
  /** sha256 (hex) of a file's bytes, when the runtime can read it */
  readonly digest?: (path: string) => string | undefined;
  /** the usage ledger record of an entry; inline `usage` of the recipe is the fallback */
  readonly usage?: (entry: RecipeEntry) => JsonObject | undefined;
  /** PI_RECIPES_SANDBOX as the runtime read it (default off) */
  readonly sandboxMode?: SandboxMode;
}

type Ref = { readonly id: string; readonly name: string; readonly path: string; readonly format: RecipeFormat };

export type ActiveItem = Ref & {
  readonly description?: string;
  readonly tool: boolean;
  readonly disabled: boolean;
  readonly invalid: boolean;
  /** a user recipe named like a built-in tool: not registered, and no component either */
  readonly reserved_name?: true;
  readonly shadows: readonly string[];
  readonly risk_labels?: readonly string[];
  readonly imports?: JsonObject;
  readonly usage?: JsonObject;
  /** the policy its commands run under (`network=off write=.`); absent: unconfined */
  readonly sandbox?: string;
};
export type ToolItem = {
  readonly name: string;
  readonly path: string;
  readonly format: RecipeFormat;
  readonly description: string;
  readonly async: boolean;
  readonly args: readonly string[];
  readonly required: readonly string[];
};
export type ShadowedItem = Ref & {
  readonly shadowedBy?: string;
  readonly shadowed_by?: string;
  readonly diagnostics: readonly string[];
};
export type InvalidItem = Ref & { readonly diagnostics: readonly string[]; readonly errors: readonly string[] };
export type DisabledItem = Ref;
export type RiskSummaryItem = { readonly label: string; readonly count: number; readonly recipes: readonly string[] };
export type DiagnosticItem = {
  readonly id?: string;
  readonly name?: string;
  readonly path?: string;
  readonly format?: RecipeFormat;
  readonly message: string;
  readonly severity: Severity;
};
export type ManifestItem = {
  readonly active: boolean;
  readonly disabled: boolean;
  readonly id: string;
  readonly invalid: boolean;
  readonly path: string;
  readonly root: string;
  readonly sha256?: string;
  readonly shadowed: boolean;
  readonly size: number;
  readonly tool: boolean;
};
export type DraftItem = Ref & {
  readonly sha256?: string;
  readonly size: number;
  readonly created_at: string;
  readonly modified_at: string;
  readonly valid: boolean;
  readonly diagnostics: readonly string[];
  readonly errors?: readonly string[];
  readonly risk_labels?: readonly string[];
  readonly description?: string;
  readonly source_run?: string;
  readonly async?: boolean;
  readonly template_preview?: string;
};

/** The counts every view prints, defined once here and computed once from the lists below, so
 * that no view, verbose or compact, and no host says another number than the one listed. */
export type RecipeCounts = {
  /** recipe tools offered to the agent (the `tools` list) */
  readonly active: number;
  /** the winning entry of every recipe name (the `active` list): the tools, the components, and
   *  the winners that are invalid, disabled or named like a built-in tool */
  readonly active_entries: number;
  /** winners that load but are no tool (packaged components, recipes outside the tool root) */
  readonly components: number;
  readonly drafts: number;
  /** recipe files hidden by a higher-priority one with the same name */
  readonly shadowed: number;
  /** recipes that fail to load, each counted once however many diagnostics it has */
  readonly invalid: number;
  readonly disabled: number;
  readonly current_policy: number;
  readonly recommendations: number;
  /** the registry's diagnostic messages (the `diagnostics` list) */
  readonly diagnostics: number;
  /** the doctor's findings (the `remediations` list), by severity; they add up to `actions` */
  readonly errors: number;
  readonly warnings: number;
  readonly info: number;
  readonly actions: number;
  /** risk labels over all recipes (the `risk_summary` counts added up) */
  readonly risks: number;
};

export type RecipesSummary = {
  readonly counts: RecipeCounts;
  /** the winning entry of every name, whether or not it is a tool (its `tool`, `invalid`,
   *  `disabled` and `reserved_name` say which); `counts.active` counts only the tools among them */
  readonly active: readonly ActiveItem[];
  readonly tools: readonly ToolItem[];
  readonly shadowed: readonly ShadowedItem[];
  readonly invalid: readonly InvalidItem[];
  readonly disabled: readonly DisabledItem[];
  readonly risk_summary: readonly RiskSummaryItem[];
  readonly recommendations: readonly Recommendation[];
  readonly remediations: readonly Remediation[];
  readonly top_action?: Remediation;
  /** registry diagnostics in discovery order, each with the entry it concerns */
  readonly diagnostics: readonly DiagnosticItem[];
  /** the same diagnostics as plain strings */
  readonly diagnostic_messages: readonly string[];
  readonly diagnostic_details: readonly DiagnosticDetail[];
  readonly integrity_manifest: readonly ManifestItem[];
  readonly drafts: readonly DraftItem[];
  readonly next_actions: readonly string[];
};

const ref = (e: { id: string; path: string; format: RecipeFormat }): Ref => ({
  id: e.id,
  name: e.id,
  path: e.path,
  format: e.format,
});
/** The listed config fields of an entry; the whole config only for an entry built without them. */
export const factsOf = (entry: RecipeEntry): ConfigFacts | undefined => entry.facts ?? entry.config;

const byIdThenPath = (a: Ref, b: Ref): number => compareText(a.id, b.id) || compareText(a.path, b.path);

/** Load errors of an entry; every diagnostic when none is an error, so the list is never empty. */
function errorsOf(diagnostics: readonly string[], tagOf: (message: string) => DiagnosticTag | undefined): readonly string[] {
  const errors = diagnostics.filter((d) => diagnosticSeverity(d, tagOf(d)) === "error");
  return errors.length > 0 ? errors : diagnostics;
}

/** A winner that loads but is no tool: a packaged component or a recipe outside the tool root
 *  (a user recipe named like a built-in tool is a problem, not a component). */
export const isComponent = (a: ActiveItem): boolean => !a.tool && !a.invalid && !a.disabled && a.reserved_name !== true;

function activeItem(entry: RecipeEntry, usage: JsonObject | undefined, mode: SandboxMode): ActiveItem {
  const config = factsOf(entry);
  // built field by field, the same keys in the same order as the contract (docs/performance.md)
  const item: { -readonly [K in keyof ActiveItem]: ActiveItem[K] } = { id: entry.id, name: entry.id, path: entry.path, format: entry.format } as ActiveItem;
  if (config?.description !== undefined) item.description = config.description;
  item.tool = entry.tool;
  item.disabled = entry.disabled;
  item.invalid = entry.invalid;
  if (entry.reservedName === true) item.reserved_name = true;
  item.shadows = entry.shadows;
  if (entry.riskLabels.length > 0) item.risk_labels = entry.riskLabels;
  if (config?.imports !== undefined) item.imports = config.imports;
  if (usage !== undefined) item.usage = usage;
  const policy = entry.tool ? declaredPolicy(config?.sandbox, mode) : undefined;
  if (policy !== undefined) item.sandbox = describePolicy(policy);
  return item;
}

function riskSummary(entries: readonly RecipeEntry[]): RiskSummaryItem[] {
  const byLabel = new Map<string, { count: number; ids: Set<string> }>();
  for (const entry of entries)
    for (const label of entry.riskLabels) {
      const slot = byLabel.get(label) ?? { count: 0, ids: new Set<string>() };
      slot.count += 1;
      slot.ids.add(entry.id);
      byLabel.set(label, slot);
    }
  return [...byLabel]
    .map(([label, { count, ids }]) => ({ label, count, recipes: [...ids].sort(compareText) }))
    .sort((a, b) => b.count - a.count || compareText(a.label, b.label));
}

function draftItem(draft: DraftEntry, digest: SummaryOptions["digest"]): DraftItem {
  const sha256 = draft.sha256 ?? digest?.(draft.path);
  const sourceRun = draft.source_run ?? /spawn run (\S+)/.exec(draft.description ?? "")?.[1];
  const preview = templatePreview(draft.template_preview);
  return {
    ...ref(draft),
    ...(sha256 === undefined ? {} : { sha256 }),
    size: draft.size,
    created_at: draft.created_at,
    modified_at: draft.modified_at,
    valid: draft.valid,
    diagnostics: draft.diagnostics,
    // an invalid draft's diagnostics are its problem's, the compile step's only text for it
    ...(draft.valid ? {} : { errors: draft.diagnostics }),
    ...(draft.risk_labels.length > 0 ? { risk_labels: draft.risk_labels } : {}),
    ...(draft.description === undefined ? {} : { description: draft.description }),
    ...(sourceRun === undefined ? {} : { source_run: sourceRun }),
    ...(draft.async === undefined ? {} : { async: draft.async }),
    ...(preview === undefined ? {} : { template_preview: preview }),
  };
}

/** The ordered, de-duplicated follow-up commands of a diagnostic (at most 4). */
export function recipesNextActions(
  view: RecipesView,
  counts: { invalid: number; diagnostics: number },
  topAction: Remediation | undefined,
  drafts: readonly { path: string; valid: boolean }[],
): string[] {
  const actions: string[] = [];
  if (view !== "doctor" && (counts.invalid > 0 || counts.diagnostics > 0)) actions.push("inspect target=recipes view=doctor");
  // next holds only commands a host accepts; the top action's advice is on the doctor's `top` line
  if (view === "doctor" && topAction !== undefined && topAction.path !== "") actions.push(`inspect target=tool:${topAction.id}`);
  // a draft that does not load (bad JSON, a FIFO in the drafts folder) cannot be spawned: the
  // listing still shows it, and the spawn offered is that of the first draft that can run
  if (drafts.length > 0) actions.push("inspect target=recipes view=summary verbose=true");
  const first = drafts.find((d) => d.valid);
  if (first !== undefined) actions.push(`spawn file=${first.path}`);
  return [...new Set(actions)].slice(0, VIEW_LIMITS.nextActions);
}

export function buildRecipesSummary(discovery: Discovery, options: SummaryOptions): RecipesSummary {
  const usageOf = (entry: RecipeEntry): JsonObject | undefined => options.usage?.(entry) ?? factsOf(entry)?.usage;
  const entries = discovery.entries;
  const ownerOf = diagnosticOwners(discovery);
  const tagOf = diagnosticTags(discovery);
  const mode = options.sandboxMode ?? "off";
  const remedies = remediations(discovery, mode);
  const topAction = remedies[0];
  const invalid = entries
    .filter((e) => e.invalid)
    .map((e): InvalidItem => ({ ...ref(e), diagnostics: e.diagnostics, errors: errorsOf(e.diagnostics, tagOf) }))
    .sort(byIdThenPath);
  const diagnostics = discovery.diagnostics.map((message): DiagnosticItem => {
    const owner = ownerOf(message);
    return { ...(owner === undefined ? {} : ref(owner)), message, severity: diagnosticSeverity(message, tagOf(message)) };
  });
  const drafts = discovery.drafts.map((d) => draftItem(d, options.digest));
  const active = [...discovery.active.values()].map((e) => activeItem(e, usageOf(e), mode)).sort(byIdThenPath);
  const shadowed = entries
    .filter((e) => e.shadowed)
    .map((e): ShadowedItem => {
      const by = e.shadowedBy ?? discovery.active.get(e.id)?.path;
      return { ...ref(e), ...(by === undefined ? {} : { shadowedBy: by, shadowed_by: by }), diagnostics: e.diagnostics };
    })
    .sort(byIdThenPath);
  const disabled = entries.filter((e) => e.disabled).map(ref).sort(byIdThenPath);
  const risks = riskSummary(entries);
  const recommended = recommendations(discovery, usageOf);
  const severities = { error: 0, warning: 0, info: 0 };
  for (const r of remedies) severities[r.severity] += 1;
  const counts: RecipeCounts = {
    active: discovery.tools.length,
    active_entries: active.length,
    components: active.filter(isComponent).length,
    drafts: drafts.length,
    shadowed: shadowed.length,
    invalid: invalid.length,
    disabled: disabled.length,
    current_policy: active.filter((a) => "current_policy" in a).length,
    recommendations: recommended.length,
    diagnostics: diagnostics.length,
    errors: severities.error,
    warnings: severities.warning,
    info: severities.info,
    actions: remedies.length,
    risks: risks.reduce((sum, r) => sum + r.count, 0),
  };
  return {
    counts,
    active,
    tools: discovery.tools.map((t) => ({
      name: t.name,
      path: t.path,
      format: t.format,
      description: t.description,
      async: t.async,
      args: t.surface.names,
      required: t.surface.required,
    })),
    shadowed,
    invalid,
    disabled,
    risk_summary: risks,
    recommendations: recommended,
    remediations: remedies,
    ...(topAction === undefined ? {} : { top_action: topAction }),
    diagnostics,
    diagnostic_messages: discovery.diagnostics,
    diagnostic_details: diagnosticDetails(discovery),
    integrity_manifest: entries
      .map((e): ManifestItem => {
        const sha256 = options.digest?.(e.path);
        return {
          active: e.active,
          disabled: e.disabled,
          id: e.id,
          invalid: e.invalid,
          path: e.path,
          root: e.sourceRoot,
          ...(sha256 === undefined ? {} : { sha256 }),
          shadowed: e.shadowed,
          size: e.size,
          tool: e.tool,
        };
      })
      .sort((a, b) => compareText(a.id, b.id) || compareText(a.path, b.path)),
    drafts,
    next_actions: recipesNextActions(
      options.view,
      { invalid: invalid.length, diagnostics: diagnostics.length },
      topAction,
      drafts,
    ),
  };
}
