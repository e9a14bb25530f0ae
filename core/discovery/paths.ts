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
