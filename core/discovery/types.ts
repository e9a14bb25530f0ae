// The result of discovery: every entry found, which one wins each id, and the tool set.
import type { ArgType, Json, JsonObject, RecipeConfig, RecipeFormat, RecipeProblem } from "../model.js";
import type { CompiledRecipe } from "../compile/compile-recipe.js";

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
  /** the compile result the fields above are read from */
  readonly compiled: CompiledRecipe;
  /** the few config fields the listing views print (a loadable entry): read these rather than
   *  `config`, which a compile cache may parse only when something asks for it */
  readonly facts?: ConfigFacts;
}

/** The config fields the registry's listings show for every entry: description, async, the
 *  imports table, the usage a recipe carries and its sandbox. Small, so a compile cache keeps them at hand. */
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

/** The public argument surface of a tool: one source for schema, validation and usage hints. */
export interface ArgSurface {
  readonly names: readonly string[];
  readonly required: readonly string[];
  /** declared or inline types other than `string`, by name (own keys only) */
  readonly types: Readonly<Record<string, ArgType>>;
  /** top-level recipe defaults, used for samples and as runtime values: stringified, except that
   * arrays stay arrays */
  readonly defaults: Readonly<Record<string, string | readonly Json[]>>;
  /** defaults written in a declaration (`count:int=5` in `args`) or inline (`{count:int=5}`):
   * shown to callers; the template applies them itself */
  readonly declaredDefaults?: Readonly<Record<string, string>>;
  /** what each argument means, from the recipe's `arg_descriptions` */
  readonly descriptions?: Readonly<Record<string, string>>;
}

/** The declared type of an argument of `surface`, if it has one other than `string`. */
export const argTypeOf = (surface: Pick<ArgSurface, "types">, name: string): ArgType | undefined =>
  Object.hasOwn(surface.types, name) ? surface.types[name] : undefined;

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly format: RecipeFormat;
  readonly async: boolean;
  readonly surface: ArgSurface;
  /** JSON schema of the tool's parameters, as the agent sees it */
  readonly parameters: JsonObject;
  readonly promptSnippet: string;
  readonly config: RecipeConfig;
  /** sha256 of the very bytes the tool was compiled from, when discovery was given a digest
   *  function. Launch accounting compares it with the file as it is at launch, so no host has to
   *  read the file again to learn what the tool was loaded from. */
  readonly sourceSha256?: string;
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

export interface Discovery {
  /** all entries, grouped by id (ids in order of first appearance), winner first */
  readonly entries: readonly RecipeEntry[];
  /** id -> winning entry, in order of first appearance */
  readonly active: ReadonlyMap<string, RecipeEntry>;
  /** tools (winning, valid, enabled entries of tool sources with unreserved names), sorted by name */
  readonly tools: readonly ToolSpec[];
  /** registry diagnostics: root problems, then each id's bucket in order of first appearance */
  readonly diagnostics: readonly string[];
  readonly drafts: readonly DraftEntry[];
}
