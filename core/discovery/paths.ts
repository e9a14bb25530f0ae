// Path helpers for discovery. Recipe paths are POSIX-style absolute paths produced by the runtime.
import type { RecipeFormat } from "../model.js";

export const basename = (path: string): string => {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
};

export const dirname = (path: string): string => {
  const i = path.lastIndexOf("/");
  return i <= 0 ? (i === 0 ? "/" : ".") : path.slice(0, i);
};

/** `x.json` → {id: "x", format: "json"}; case-sensitive; dot-files (temps of atomic writes) are not recipes. */
export function recipeFileName(name: string): { id: string; format: RecipeFormat } | undefined {
  // past this, a name ending in an extension has at least one character before it
  if (name.startsWith(".")) return undefined;
  if (name.endsWith(".json")) return { id: name.slice(0, -5), format: "json" };
  if (name.endsWith(".md")) return { id: name.slice(0, -3), format: "md" };
  return undefined;
}

/** Endings a user may have meant for a recipe file that discovery never loads: `.json` or `.md` in
 *  another case (`Greet.JSON`), and YAML (`greet.yaml`: a recipe's YAML goes in the frontmatter
 *  of a Markdown recipe). */
const NEAR_MISS = /\.(?:json|md|ya?ml)$/i;

/** A name like a recipe file's that is not one (see NEAR_MISS); dot-files are never meant as
 *  recipes (the temps of atomic writes, editors' swap files). */
export const misnamedRecipe = (name: string): boolean => !name.startsWith(".") && recipeFileName(name) === undefined && NEAR_MISS.test(name);
