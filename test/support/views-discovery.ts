// Hand-built Discovery values for view tests: a tiny model of discovery's shadowing rules
// (winner per id by priority, shadows, registry diagnostics in order), independent of the
// real discovery so view tests only depend on the Discovery contract. views-discovery.test.ts checks
// the model against the real discovery.
import type { JsonObject, RecipeConfig, RecipeFormat, RecipeProblem } from "../../core/model.js";
import type { Discovery, DraftEntry, RecipeEntry } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import type { CompiledRecipe } from "../../core/compile/compile-recipe.js";
import { analyzeArgs, optionInjectionArgs, riskLabels, taggedBoundaryWarnings, trustedBoundaryWarnings } from "./template-reads.js";

export interface EntrySpec {
  readonly path: string;
  readonly priority?: number;
  /** recipe fields; absent means the file is invalid (see `problem`) */
  readonly config?: Omit<Partial<RecipeConfig>, "raw" | "name"> & { readonly template?: RecipeConfig["template"] };
  readonly problem?: RecipeProblem;
  readonly toolSource?: boolean;
  readonly mutableUsage?: boolean;
  readonly size?: number;
}

const idOf = (path: string): string => (path.split("/").pop() ?? "").replace(/\.(json|md)$/, "");
const formatOf = (path: string): RecipeFormat => (path.endsWith(".md") ? "md" : "json");
const rootOf = (path: string): string => path.slice(0, path.lastIndexOf("/"));

function entryDiagnostics(spec: EntrySpec, config: RecipeConfig | undefined): string[] {
  if (config !== undefined) return trustedBoundaryWarnings(config.template).map((w) => `Recipe ${spec.path}: ${w}`);
  const p = spec.problem ?? { kind: "invalid" as const };
  if (p.kind === "failed") return [`Failed to load recipe ${spec.path}: ${p.message ?? "error"}`];
  return [`Invalid recipe: ${spec.path}${p.message === undefined ? "" : `: ${p.message}`}`];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function buildDiscovery(
  specs: readonly EntrySpec[],
  extra: { rootDiagnostics?: readonly string[]; drafts?: readonly DraftEntry[] } = {},
): Discovery {
  const entries: Mutable<RecipeEntry>[] = specs.map((spec) => {
    const id = idOf(spec.path);
    const config: RecipeConfig | undefined =
      spec.config === undefined
        ? undefined
        : { template: "echo ok", ...spec.config, name: id, raw: { ...(spec.config as JsonObject) } };
    const invalid = config === undefined;
    const disabled = config?.disabled === true;
    const format = formatOf(spec.path);
    const diagnostics = entryDiagnostics(spec, config);
    const compiled: CompiledRecipe = config === undefined
      ? { kind: "problem", id, path: spec.path, format, problem: spec.problem ?? { kind: "invalid" }, diagnostics }
      : {
        kind: "recipe", id, path: spec.path, format, diagnostics, config, disabled,
        warnings: taggedBoundaryWarnings(config.template), riskLabels: riskLabels(config), surface: analyzeArgs(config),
        optionInjection: optionInjectionArgs(config),
      };
    return {
      id,
      path: spec.path,
      format: formatOf(spec.path),
      priority: spec.priority ?? 0,
      sourceRoot: rootOf(spec.path),
      toolSource: spec.toolSource ?? true,
      mutableUsage: spec.mutableUsage ?? spec.toolSource ?? true,
      size: spec.size ?? 10,
      mtimeMs: 0,
      ...(config === undefined ? {} : { config }),
      ...(invalid ? { problem: spec.problem ?? { kind: "invalid" } } : {}),
      invalid,
      disabled,
      active: false,
      shadowed: false,
      shadows: [],
      diagnostics,
      riskLabels: config === undefined ? [] : riskLabels(config),
      tool: false,
      compiled,
    };
  });
  const buckets = new Map<string, Mutable<RecipeEntry>[]>();
  for (const e of entries) buckets.set(e.id, [...(buckets.get(e.id) ?? []), e]);
  const active = new Map<string, RecipeEntry>();
  const diagnostics: string[] = [...(extra.rootDiagnostics ?? [])];
  for (const [id, bucket] of buckets) {
    bucket.sort((a, b) => a.priority - b.priority || (a.format === b.format ? 0 : a.format === "json" ? -1 : 1));
    const [winner, ...rest] = bucket;
    if (winner === undefined) continue;
    winner.active = true;
    winner.shadows = rest.map((e) => e.path);
    winner.tool = winner.toolSource && !winner.invalid && !winner.disabled;
    for (const s of rest) {
      s.shadowed = true;
      s.shadowedBy = winner.path;
      // JSON shadows Markdown only within one layer; across layers it is plain priority
      if (winner.format === "json" && s.format === "md" && s.priority === winner.priority)
        s.diagnostics = [...s.diagnostics, `Markdown recipe ${s.path} is shadowed by JSON recipe ${winner.path}`];
    }
    active.set(id, winner);
    if (winner.invalid) diagnostics.push(`Recipe ${id} is invalid and blocks lower-priority recipes`);
    if (winner.disabled) diagnostics.push(`Recipe ${id} is disabled and blocks lower-priority recipes`);
    if (winner.shadows.length > 0) diagnostics.push(`Recipe ${id} shadows ${winner.shadows.length} lower-priority recipe(s)`);
    for (const e of bucket) diagnostics.push(...e.diagnostics);
  }
  const tools: ToolSpec[] = entries
    .filter((e) => e.tool && e.config !== undefined)
    .map((e) => {
      const config = e.config as RecipeConfig;
      const names = (config.args ?? []).map((a) => a.split(/[:=]/)[0] ?? a);
      return {
        name: e.id,
        description: config.description ?? `Execute template recipe: ${e.id}`,
        path: e.path,
        format: e.format,
        async: config.async === true,
        surface: { names, required: names, types: {}, defaults: {} },
        schema: { type: "object" },
        promptSnippet: "",
        config,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, active, tools, diagnostics, drafts: extra.drafts ?? [], unlisted: [] };
}

export function draft(path: string, extra: Partial<DraftEntry> = {}): DraftEntry {
  return {
    id: idOf(path),
    path,
    format: formatOf(path),
    size: 42,
    created_at: "2024-01-01T00:00:00.000Z",
    modified_at: "2024-01-02T00:00:00.000Z",
    valid: true,
    diagnostics: [],
    risk_labels: [],
    ...extra,
  };
}

/** A user root over a packaged root: a broken, a disabled, a shell-running and an async recipe
 * in the user root, the first two shadowing packaged recipes of the same name. */
export function userOverPackaged(): Discovery {
  const high = "/home/u/.pi/agent/recipes";
  const low = "/pkg/recipes";
  return buildDiscovery([
    { path: `${high}/broken.json`, priority: 0, problem: { kind: "failed", message: "Expected property name or '}' in JSON at position 2" } },
    { path: `${high}/disabled-one.json`, priority: 0, config: { disabled: true, template: "echo off" } },
    { path: `${high}/shell-risk.json`, priority: 0, config: { template: "bash -c 'echo risky'" } },
    { path: `${high}/async-worker.json`, priority: 0, config: { async: true, template: "sleep 1" } },
    { path: `${low}/broken.json`, priority: 1, toolSource: false, mutableUsage: false, config: { template: "echo fallback" } },
    { path: `${low}/disabled-one.json`, priority: 1, toolSource: false, mutableUsage: false, config: { template: "echo fallback" } },
  ]);
}
