// The last gate before a write: the exact bytes about to be written must compile at the target
// path as discovery would compile them, and become a tool. register_tool never writes a file that
// discovery would then report as invalid.
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeProblem, SnapshotFile } from "../model.js";
import type { ArgSurface } from "../tool/tool-spec.js";
import { compileRecipe } from "../compile/compile-recipe.js";
import { warningTexts } from "../compile/recipe-warning.js";
import type { ResolveContext } from "../recipe/imports.js";
import type { SandboxMode } from "../sandbox/policy.js";

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

export function validateContent(path: string, name: string, content: string, ctx: ResolveContext): E.Either<RecipeProblem, ValidRecipe> {
  const file = contentFile(path, content);
  // resolved as the registry will see it after the write: a bare word naming the recipe itself is then a reference
  const after: ResolveContext = { ...ctx, readFile: (p) => (p === path ? file : ctx.readFile(p)) };
  const compiled = compileRecipe({ file, id: name, format: "json" }, after);
  if (compiled.kind === "problem") return E.left(compiled.problem);
  const valid = { config: compiled.config, surface: compiled.surface, warnings: warningTexts(compiled.warnings) };
  // a disabled recipe is not a tool, so nothing about being one can refuse it
  if (compiled.disabled || compiled.toolProblem === undefined) return E.right(valid);
  return E.left({ kind: "invalid", message: compiled.toolProblem });
}

/** With `PI_RECIPES_SANDBOX=on` (`mode`), the operator confines every tool that does not opt out
 *  with `sandbox: false`; register_tool, which agents call, must not be the way to opt out. The
 *  refusal, or undefined when the recipe may be written. Judged on the recipe as it resolves (an
 *  imported `sandbox: false` counts too). */
export function unconfinedRefusal(config: RecipeConfig, mode: SandboxMode | undefined): string | undefined {
  if (mode !== "on" || config.sandbox !== false) return undefined;
  return 'PI_RECIPES_SANDBOX=on: register_tool does not write a tool that runs unconfined ("sandbox": false). Leave the field out (the tool then runs confined) or give it a sandbox policy; a recipe that must run unconfined is written by a person, as a file.';
}
