// The tool a compiled recipe becomes: its name, description, parameter schema and prompt snippet,
// built on demand from the compile result (only winners of a tool source need one).
import * as E from "fp-ts/lib/Either.js";
import { parametersSchema } from "../args/schema.js";
import type { ArgSurface, ToolSpec } from "../discovery/types.js";
import type { JsonObject, RecipeConfig } from "../model.js";
import type { CompiledConfig } from "./compile-recipe.js";

/** `facts`: the config's description and async flag when the caller has them apart from the
 *  config (a compile cache parses a stored config only when something reads `config`) */
export function toolOf(compiled: CompiledConfig, facts: Pick<RecipeConfig, "description" | "async"> = compiled.config): E.Either<string, ToolSpec> {
  if (compiled.toolProblem !== undefined) return E.left(compiled.toolProblem);
  const name = compiled.id;
  const async = facts.async === true;
  // the JSON schema is built when a host first asks for it: a `list` of 10,000 tools needs none,
  // a host publishing one tool needs that tool's only
  let parameters: JsonObject | undefined;
  // one literal of a fixed shape: a spread next to getters costs several times more per tool
  const tool: { -readonly [K in keyof ToolSpec]: ToolSpec[K] } = {
    name,
    description: facts.description ?? `Execute template recipe: ${name}`,
    path: compiled.path,
    format: compiled.format,
    async,
    get surface(): ArgSurface {
      return compiled.surface;
    },
    get parameters(): JsonObject {
      return (parameters ??= parametersSchema(compiled.surface, { async }));
    },
    promptSnippet: `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`,
    get config(): RecipeConfig {
      return compiled.config;
    },
  };
  if (compiled.sourceSha256 !== undefined) tool.sourceSha256 = compiled.sourceSha256;
  return E.right(tool);
}
