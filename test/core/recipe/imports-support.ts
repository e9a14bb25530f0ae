// A Map-backed file system for resolver tests: recipe paths -> text (objects are written as JSON).
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeProblem, SnapshotFile } from "../../../core/model.js";
import { type ResolveContext, resolveRecipe } from "../../../core/recipe/imports.js";
import { loadRecipe } from "../../../core/recipe/load.js";
import { formatOfPath, idOfPath } from "../../../core/recipe/posix.js";
import { recipeProblem } from "../../../core/recipe/recipe-error.js";

export const AGENT = "/home/u/.pi/agent";
export const ROOT = `${AGENT}/recipes`;
export const PKG = "/opt/pi-recipes/recipes";
export const CWD = "/work/project";

export type Files = Record<string, string | object>;

export function snapshotFile(path: string, content: string | object): SnapshotFile {
  const bytes = new TextEncoder().encode(typeof content === "string" ? content : JSON.stringify(content));
  return { path, size: bytes.length, mtimeMs: 1, birthtimeMs: 1, bytes };
}

export function contextOf(files: Files, extra: Partial<ResolveContext> = {}): ResolveContext {
  const map = new Map(Object.entries(files).map(([path, content]) => [path, snapshotFile(path, content)]));
  return { readFile: (p) => map.get(p), agentDir: AGENT, home: "/home/u", cwd: CWD, userRoot: ROOT, packagedRoot: PKG, ...extra };
}

export function resolvePath(files: Files, path: string, extra: Partial<ResolveContext> = {}): E.Either<RecipeProblem, RecipeConfig> {
  const ctx = contextOf(files, extra);
  const file = ctx.readFile(path);
  if (file === undefined) throw new Error(`test setup: no file ${path}`);
  const loaded = loadRecipe(file, idOfPath(path), formatOfPath(path));
  if (E.isLeft(loaded)) throw new Error(`test setup: ${path} does not load: ${JSON.stringify(loaded.left)}`);
  // the problem a caller shows
  return E.mapLeft(recipeProblem)(resolveRecipe(loaded.right, path, ctx));
}

export function resolved(files: Files, path: string, extra: Partial<ResolveContext> = {}): RecipeConfig {
  const r = resolvePath(files, path, extra);
  if (E.isLeft(r)) throw new Error(`expected a config, got: ${JSON.stringify(r.left)}`);
  return r.right;
}

export function problem(files: Files, path: string, extra: Partial<ResolveContext> = {}): RecipeProblem {
  const r = resolvePath(files, path, extra);
  if (E.isRight(r)) throw new Error(`expected a problem, got: ${JSON.stringify(r.right)}`);
  return r.left;
}
