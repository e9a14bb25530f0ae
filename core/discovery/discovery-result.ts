// The result of discovery: every entry found, which one wins each id, and the tool set.
import type { RecipeConfig, RecipeFormat, RecipeProblem } from "../model.js";
import type { CompiledRecipe } from "../compile/compile-recipe.js";
import type { ToolSpec } from "../tool/tool-spec.js";

export interface RecipeEntry {
  readonly id: string;
  readonly path: string;
  readonly format: RecipeFormat;
  /** index of the source in the snapshot (0 = highest priority) */
  readonly priority: number;
  readonly sourceRoot: string;
  /** the entry's source makes tools (user recipe root) */
  readonly toolSource: boolean;
  readonly mutableUsage: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly config?: RecipeConfig;
  readonly problem?: RecipeProblem;
  readonly invalid: boolean;
  readonly disabled: boolean;
  /** the entry wins its id (even when invalid or disabled) */
  readonly active: boolean;
  readonly shadowed: boolean;
  /** path of the winner, for shadowed entries */
  readonly shadowedBy?: string;
  /** paths this winner shadows, in priority order */
  readonly shadows: readonly string[];
  /** entry diagnostics: invalid/failed message, trusted-boundary warnings, markdown shadowing */
  readonly diagnostics: readonly string[];
  readonly riskLabels: readonly string[];
  /** sha256 of the bytes a loadable entry was compiled from (see ToolSpec.sourceSha256) */
  readonly sourceSha256?: string;
  /** the entry is exposed as a tool */
  readonly tool: boolean;
  /** a winner of the user recipe root named like one of the host's built-in tools: it loads, but
   *  is never registered (neither a tool nor a component) */
  readonly reservedName?: true;
  /** the compile result the fields above are read from */
  readonly compiled: CompiledRecipe;
  /** the few config fields the listing views print (a loadable entry) */
  readonly facts?: ConfigFacts;
}

/** Every name a recipe of the user recipe root holds, sorted: the tools', and an invalid,
 *  disabled or component recipe's too (its file is there, so nothing else may take the name). */
export function userRecipeNames(discovery: Discovery): string[] {
  const names = new Set(discovery.tools.map((t) => t.name));
  for (const e of discovery.entries) if (e.toolSource) names.add(e.id);
  return [...names].sort();
}

/** The config fields the registry's listings show for every entry: description, async, the
 *  imports table, the usage a recipe carries and its sandbox. */
export type ConfigFacts = Pick<RecipeConfig, "description" | "async" | "imports" | "usage" | "sandbox">;

/** The facts of a config, without copying anything else. */
export function configFacts(config: RecipeConfig): ConfigFacts {
  const { description, async, imports, usage, sandbox } = config;
  const facts: { -readonly [K in keyof ConfigFacts]: ConfigFacts[K] } = {};
  if (description !== undefined) facts.description = description;
  if (async !== undefined) facts.async = async;
  if (imports !== undefined) facts.imports = imports;
  if (usage !== undefined) facts.usage = usage;
  if (sandbox !== undefined) facts.sandbox = sandbox;
  return facts;
}

export interface DraftEntry {
  readonly id: string;
  readonly path: string;
  readonly format: RecipeFormat;
  readonly size: number;
  readonly created_at: string;
  readonly modified_at: string;
  readonly valid: boolean;
  readonly diagnostics: readonly string[];
  readonly risk_labels: readonly string[];
  readonly description?: string;
  readonly source_run?: string;
  readonly async?: boolean;
  readonly template_preview?: string;
  /** sha256 of the bytes, when the runtime supplied a digest function */
  readonly sha256?: string;
}

/** A folder discovery found there but could not list (the error says why): a recipe root, whose
 *  recipes, and so its tools, are then unknown, or the drafts folder, whose drafts are then unknown.
 *  Its diagnostic is among the registry diagnostics too (core/discovery/diagnostic-texts.ts
 *  unlistedRoot, unlistedDrafts). */
export interface UnlistedFolder {
  readonly kind: "root" | "drafts";
  readonly dir: string;
  readonly error: string;
}

export interface Discovery {
  /** all entries, grouped by id (ids in order of first appearance), winner first */
  readonly entries: readonly RecipeEntry[];
  /** id -> winning entry, in order of first appearance */
  readonly active: ReadonlyMap<string, RecipeEntry>;
  /** tools (winning, valid, enabled entries of tool sources with unreserved names), sorted by name */
  readonly tools: readonly ToolSpec[];
  /** registry diagnostics: root problems, then each id's bucket in order of first appearance,
   *  then a drafts folder that could not be listed */
  readonly diagnostics: readonly string[];
  readonly drafts: readonly DraftEntry[];
  /** the folders that are there but could not be listed, in the order of their diagnostics: a
   *  discovery that lists one does not know every recipe, and says so wherever it answers */
  readonly unlisted: readonly UnlistedFolder[];
}
