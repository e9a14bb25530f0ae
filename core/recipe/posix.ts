// POSIX path arithmetic on plain strings. The core never touches node:path: recipe paths come from
// the runtime as absolute POSIX paths, and resolving them must give the same answer on every host.
import type { RecipeFormat } from "../model.js";

// Discovery normalizes every recipe path, and the runtime's paths are nearly always normal already.
const isNormalAbsolute = (path: string): boolean =>
  path.startsWith("/") && (path.length === 1 || !path.endsWith("/")) && !path.includes("//") &&
  !path.includes("/./") && !path.includes("/../") && !path.endsWith("/.") && !path.endsWith("/..");

/** Collapses `//`, `.` and `..`; keeps a leading `/`; `..` above the root stays at the root. */
export function normalize(path: string): string {
  if (isNormalAbsolute(path)) return path;
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(part);
  }
  const body = out.join("/");
  return absolute ? `/${body}` : body === "" ? "." : body;
}

/** `path` against the directory `base` (itself absolute); an absolute `path` only gets normalized. */
export const resolveAgainst = (base: string, path: string): string =>
  normalize(path.startsWith("/") ? path : `${base}/${path}`);

export const join = (dir: string, name: string): string => normalize(`${dir}/${name}`);

export function dirname(path: string): string {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? "." : i === 0 ? "/" : trimmed.slice(0, i);
}

export function basename(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

export const hasRecipeExtension = (path: string): boolean => path.endsWith(".json") || path.endsWith(".md");

/** The format of any recipe path: `.md` is Markdown, everything else JSON. */
export const formatOfPath = (path: string): RecipeFormat => (path.endsWith(".md") ? "md" : "json");

/** The recipe id of a path: its basename without a `.json`/`.md` extension. */
export function idOfPath(path: string): string {
  const name = basename(path);
  if (name.endsWith(".json") && name.length > 5) return name.slice(0, -5);
  if (name.endsWith(".md") && name.length > 3) return name.slice(0, -3);
  return name;
}
