// Which file a register_tool name denotes.
//
// register_tool creates only normalized names (`[a-z0-9_]`, at most 64), so a name can never reach
// outside the recipe root. But hand-authored recipes may be named `docs-review` (hyphens and
// capitals are valid tool names), and updating or deleting such a recipe by its name must reach
// it, even one whose name is not a valid tool name (`my tool.json`, which discovery reports
// instead of exposing): a name that is a safe file basename and has a recipe file of exactly that
// name targets that file; any other name is normalized, and refused when normalizing would drop
// its letters.

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

/** What MCP clients and model APIs accept as a tool name; the only names ever exposed. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Accents folded to their base letters (`ü` → `u`), so a suggestion keeps the name readable. */
const foldAccents = (s: string): string => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");

/** A valid tool name close to `name` (case and hyphens kept), or undefined when none is near. */
export function suggestToolName(name: string): string | undefined {
  const base = foldAccents(name).replace(/[^A-Za-z0-9_-]+/g, "_").replace(/_+/g, "_").replace(/^[_-]+|[_-]+$/g, "");
  const cut = base.slice(0, MAX_TOOL_NAME_LENGTH).replace(/[_-]+$/, "");
  return cut === "" ? undefined : cut;
}

/** Why a recipe file's name cannot be a tool, with a rename suggestion; undefined when it can. */
export function toolNameProblem(id: string, extension: string): string | undefined {
  if (TOOL_NAME.test(id)) return undefined;
  const suggestion = suggestToolName(id);
  const rename = suggestion === undefined ? "rename the file using only those characters" : `rename it to ${suggestion}.${extension}`;
  return `${JSON.stringify(id)} is not a valid tool name (tool names use only A-Z, a-z, 0-9, _ and -, at most ${MAX_TOOL_NAME_LENGTH} characters): ${rename}`;
}

/** Letters and digits of `s`, lower-cased, in order: what normalization must not lose. */
const alnum = (s: string): string => (s.toLowerCase().match(/[\p{L}\p{N}]/gu) ?? []).join("");

/**
 * A refusal when normalization would drop letters or digits of the name (`ünï` → `n`), with
 * the name it should be registered under instead, or cut it at 64 characters (two long names
 * that differ only past the cut would be one tool); undefined when normalizing only changes case
 * or separators.
 */
export function mangledNameProblem(given: string, normalized: string): string | undefined {
  const kept = alnum(normalized.replace(/^tool_(?=[0-9])/, ""));
  const wanted = alnum(given);
  if (wanted.slice(0, kept.length) === kept && kept.length === wanted.length) return undefined;
  if (wanted.slice(0, kept.length) === kept && normalized.length >= MAX_TOOL_NAME_LENGTH - 1)
    return `Invalid tool name ${JSON.stringify(given)}: a tool name has at most ${MAX_TOOL_NAME_LENGTH} characters, and this one would be cut to ${JSON.stringify(normalized)}; use a shorter name.`;
  const suggestion = normalizeToolName(foldAccents(given));
  const hint = suggestion === undefined ? "use ASCII letters, digits, _ or -" : `use ${JSON.stringify(suggestion)}`;
  return `Invalid tool name ${JSON.stringify(given)}: tool names use only ASCII letters, digits, _ and -, and normalizing it would drop characters (giving ${JSON.stringify(normalized)}); ${hint}.`;
}
