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
  if (name.startsWith(".")) return undefined;
  if (name.endsWith(".json") && name.length > 5) return { id: name.slice(0, -5), format: "json" };
  if (name.endsWith(".md") && name.length > 3) return { id: name.slice(0, -3), format: "md" };
  return undefined;
}
