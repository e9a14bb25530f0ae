// Which file a register_tool name denotes.
//
// register_tool creates only normalized names (`[a-z0-9_]`, at most 64), so a name can never reach
// outside the recipe root. But hand-authored recipes may be named `docs-review` or `My Tool`
//, and updating or deleting such a tool by its name must reach it: a name that is a
// safe file basename and has a recipe file of exactly that name targets that file; any other name
// is normalized.

export const MAX_TOOL_NAME_LENGTH = 64;

/** Trim, lower-case, `[^a-z0-9_]` → `_`, collapse, strip, `tool_` before a digit, cut to 64. */
export function normalizeToolName(input: string): string | undefined {
  const base = input.trim().toLowerCase().replace(/[^a-z0-9_]/g, "_").replace(/_+/g, "_").replace(/^_+|_+$/g, "");
  if (base === "") return undefined;
  const prefixed = /^[0-9]/.test(base) ? `tool_${base}` : base;
  const cut = prefixed.slice(0, MAX_TOOL_NAME_LENGTH).replace(/_+$/, "");
  return cut === "" ? undefined : cut;
}

// Separators, control characters and `..` could leave the folder or hide a name; a leading dot
// is a temp file of an atomic write, never a recipe.
const UNSAFE = /[/\\\u0000-\u001f\u007f]/;

/** Whether `name` may be used as a file basename in the recipe root exactly as written. */
export const isExactRecipeName = (name: string): boolean =>
  name !== "" && name.length <= 200 && !name.startsWith(".") && !name.includes("..") && !UNSAFE.test(name);

export interface NameCandidates {
  /** the normalization, the name of anything register_tool creates */
  readonly normalized?: string;
  /** the name as given, when it differs and is a safe basename; used only if its recipe exists */
  readonly exact?: string;
}

/** A name that tries to leave the folder or hides characters is refused outright rather than
 * normalized into some other name (`../etc` must not quietly become `etc`). */
export function unsafeNameProblem(given: string): string | undefined {
  if (!/[/\\]|\.\.|[\u0000-\u001f\u007f]/.test(given)) return undefined;
  return `Invalid tool name ${JSON.stringify(given)}: a tool name cannot contain path separators, "..", or control characters.`;
}

/** undefined: the name can denote no file at all (`Invalid tool name.`). */
export function nameCandidates(given: string): NameCandidates | undefined {
  if (unsafeNameProblem(given) !== undefined) return undefined;
  const normalized = normalizeToolName(given);
  const exact = given !== normalized && isExactRecipeName(given) ? given : undefined;
  if (normalized === undefined && exact === undefined) return undefined;
  return { ...(normalized === undefined ? {} : { normalized }), ...(exact === undefined ? {} : { exact }) };
}

/** The target name: the exact name when a recipe of that name exists, else the normalized one. */
export function chooseName(candidates: NameCandidates, recipeExists: (name: string) => boolean): string | undefined {
  if (candidates.exact !== undefined && recipeExists(candidates.exact)) return candidates.exact;
  return candidates.normalized;
}
