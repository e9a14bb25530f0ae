// Shared vocabulary of the registry core. Everything here is plain data: the runtime builds
// snapshots from real files, the core turns them into tool sets, diagnostics and views.
import type { FieldName, FieldValues } from "./recipe/fields.js";
import type { Json, JsonObject } from "./json.js";

/** The largest recipe file (or import) read, in bytes: a bigger one is a problem, not read. */
export const RECIPE_SIZE_LIMIT = 1048576;

/** What the runtime read for one file. `bytes` is absent when the file was too large to read
 * (size over the limit) or could not be read (then `readError` says why). */
export interface SnapshotFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs: number;
  readonly bytes?: Uint8Array;
  readonly readError?: string;
  /** the errno code of `readError` ("ENOENT", "EISDIR", "EINVAL", ...): what decides how a failed
   * read is treated; `readError` is only its text */
  readonly readErrorCode?: string;
}

/** One discovery source: a directory (tools by location when `tool`), or one explicit file. */
export interface SourceListing {
  readonly kind: "root" | "file";
  /** the directory (for kind "file": the file's directory) */
  readonly root: string;
  /** false when the directory does not exist */
  readonly present: boolean;
  /** POSIX mode of the root directory, when known */
  readonly rootMode?: number;
  /** recipes of this source are tools */
  readonly tool: boolean;
  /** the usage ledger applies to recipes of this source */
  readonly mutableUsage: boolean;
  /** candidate recipe files (`*.json`, `*.md`, regular files only) in listing order */
  readonly files: readonly SnapshotFile[];
  /** problem listing or inspecting the root (e.g. EACCES) */
  readonly error?: string;
  /** symbolic links named like recipes in the root (never followed, never entries), in path
   *  order; absent when there are none */
  readonly links?: readonly string[];
  /** other entries of the root meant as recipes by their names but never loaded (folders named
   *  like recipes, near-miss names: core/discovery/paths.ts misnamedRecipe), in path order;
   *  absent when there are none */
  readonly strays?: readonly string[];
}

/** Everything discovery needs, read by the runtime. Sources are in priority order (0 = highest). */
export interface RegistrySnapshot {
  readonly agentDir: string;
  readonly recipeRoot: string;
  readonly home: string;
  readonly cwd: string;
  readonly sources: readonly SourceListing[];
  readonly drafts: readonly SnapshotFile[];
  /** the drafts folder, when it is there but could not be listed (`drafts` is then empty, though
   *  the folder may hold drafts) */
  readonly draftsUnlisted?: { readonly dir: string; readonly error: string };
  /** the packaged component root, when there is one (bare-name references search it last) */
  readonly packagedRoot?: string;
  /** Files outside the listed roots (imports, delegation targets), read on demand and cached by
   * the runtime; absent means "does not exist". */
  readonly readExtra?: (path: string) => SnapshotFile | undefined;
}

export type RecipeFormat = "json" | "md";

export type ArgType =
  | { readonly kind: "string" }
  | { readonly kind: "path" }
  | { readonly kind: "int" }
  | { readonly kind: "number" }
  | { readonly kind: "bool" }
  | { readonly kind: "array" }
  | { readonly kind: "enum"; readonly values: readonly string[] };

export type { Json, JsonObject } from "./json.js";

/** A recipe file after parsing and field validation (template graph kept as written). The
 * fields and their types come from the recipe-field table, core/recipe/fields.ts. */
export type RecipeConfig = {
  /** always the file basename without its extension */
  readonly name: string;
  /** the template envelope: the raw template, wrapped with the control keys given at top level */
  readonly template: Json;
  /** the object as written in the file (Markdown: frontmatter merged with the fence) */
  readonly raw: JsonObject;
} & { readonly [K in Exclude<FieldName, "template">]?: FieldValues[K] };

/** A problem found while loading a recipe. `field` names the offending field when there is one. */
export interface RecipeProblem {
  /** `invalid`: the recipe resolved to nothing (shown as `Invalid recipe: <path>[: reason]`);
   * `failed`: loading threw (shown as `Failed to load recipe <path>: <message>`). */
  readonly kind: "invalid" | "failed";
  readonly message?: string;
  readonly field?: string;
}

export type Severity = "error" | "warning" | "info";

export const RESERVED_TOOL_NAMES: readonly string[] = [
  "read", "write", "edit", "bash", "find", "grep", "ls", "register_tool", "message", "spawn", "inspect",
];
