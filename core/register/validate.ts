// The last gate before a write: the exact bytes about to be written must load and resolve at the
// target path as discovery would load them, and become a tool. register_tool never writes a file
// that discovery would then report as invalid (the reference does, §5.5).
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeFormat, RecipeProblem, SnapshotFile } from "../model.js";
import { analyzeArgs } from "../args/analysis.js";
import type { ArgSurface } from "../discovery/types.js";
import { toolFromEntry } from "../discovery/to-tool.js";
import { checkRecipe } from "../recipe/check.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { loadRecipe } from "../recipe/load.js";
import { trustedBoundaryWarnings } from "../risk/warnings.js";
import { authoringWarnings } from "../recipe/lint.js";

export interface ValidRecipe {
  readonly config: RecipeConfig;
  readonly surface: ArgSurface;
  readonly warnings: readonly string[];
}

const encoder = new TextEncoder();

/** A file as the runtime would read it back after writing `content` to `path`. */
export const contentFile = (path: string, content: string): SnapshotFile => {
  const bytes = encoder.encode(content);
  return { path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes };
};

/** Loads `file` as recipe `name` the way discovery does (a disabled recipe is not resolved). */
export function loadAsDiscovered(file: SnapshotFile, name: string, format: RecipeFormat, ctx: ResolveContext): E.Either<RecipeProblem, RecipeConfig> {
  const loaded = loadRecipe(file, name, format);
  if (E.isLeft(loaded) || loaded.right.disabled === true) return loaded;
  return E.chain(checkRecipe)(resolveRecipe(loaded.right, file.path, ctx));
}

export function validateContent(path: string, name: string, content: string, ctx: ResolveContext): E.Either<RecipeProblem, ValidRecipe> {
  const file = contentFile(path, content);
  // resolved as the registry will see it after the write: a bare word naming the recipe itself is then a reference
  const after: ResolveContext = { ...ctx, readFile: (p) => (p === path ? file : ctx.readFile(p)) };
  const loaded = loadAsDiscovered(file, name, "json", after);
  if (E.isLeft(loaded)) return loaded;
  const config = loaded.right;
  const warnings = [...trustedBoundaryWarnings(config.template), ...authoringWarnings(config)];
  if (config.disabled === true) {
    const surface = analyzeArgs({ ...(config.args === undefined ? {} : { args: config.args }), ...(config.defaults === undefined ? {} : { defaults: config.defaults }), template: config.template });
    return E.right({ config, surface, warnings });
  }
  const tool = toolFromEntry(name, path, "json", config);
  if (E.isLeft(tool)) return E.left({ kind: "invalid", message: tool.left });
  return E.right({ config, surface: tool.right.surface, warnings });
}
