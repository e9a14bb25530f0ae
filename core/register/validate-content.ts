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
import { startUpPlace, within } from "../sandbox/places.js";
import { normalize } from "../recipe/posix.js";

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
 *  with `sandbox: false`; register_tool, which agents call, must not be the way to opt out, nor to
 *  grant a tool the places no caller's value may choose (`home`: the home folder). The refusal, or
 *  undefined when the recipe may be written. Judged on the recipe as it resolves (an imported
 *  `sandbox: false` counts too). */
export function unconfinedRefusal(config: RecipeConfig, mode: SandboxMode | undefined, home: string): string | undefined {
  if (mode !== "on") return undefined;
  if (config.sandbox === false)
    return 'PI_RECIPES_SANDBOX=on: register_tool does not write a tool that runs unconfined ("sandbox": false). Leave the field out (the tool then runs confined) or give it a sandbox policy; a recipe that must run unconfined is written by a person, as a file.';
  // the write paths a recipe names itself are taken as written when the tool runs; written through
  // register_tool, they are an agent's choice, and judged as a caller's value would be
  const write = typeof config.sandbox === "object" ? (config.sandbox.write ?? []) : [];
  for (const path of write) {
    const why = tooWideForAnAgent(path, home);
    if (why !== undefined)
      return `PI_RECIPES_SANDBOX=on: register_tool does not write a tool whose sandbox.write names ${JSON.stringify(path)}: ${why}. A tool that must write there is written by a person, as a file.`;
  }
  return undefined;
}

/** Why an agent may not grant a tool the write path `path` (as written: `~`, relative or absolute,
 *  placeholders judged when the tool is called), or undefined. The places a caller's value may not
 *  choose either (core/sandbox/places.ts): the whole file system or the home folder, and the files
 *  other programs run later, unconfined. */
function tooWideForAnAgent(path: string, home: string): string | undefined {
  // (anywhere in the text, also after a placeholder: `{dir}/.git/hooks`)
  if (path.split("/").includes(".git")) return "a Git repository's own folder, whose hooks and config git runs later";
  const brace = path.indexOf("{");
  // the text up to its first placeholder, the brace kept: a name a value goes on with (`~/.{name}`,
  // `~/bin{x}`) is judged as a name that starts with what is written
  const fixed = brace < 0 ? path : path.slice(0, brace + 1);
  // a relative path is the call's working directory's: judged when the tool is called
  if (!(fixed === "~" || fixed.startsWith("~/") || fixed.startsWith("/"))) return undefined;
  const absolute = normalize(fixed === "~" ? home : fixed.startsWith("~/") ? `${home}/${fixed.slice(2)}` : fixed);
  // a folder holding the home folder, or the home folder itself (when no value follows)
  if (brace < 0 && within(home, absolute)) return absolute === "/" ? "the whole file system" : "the home folder or a folder holding it";
  if (startUpPlace(absolute, home) !== undefined) return "among the home folder's start-up files and settings, which other programs run or read later";
  return undefined;
}
