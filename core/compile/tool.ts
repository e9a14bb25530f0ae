// The tool a compiled recipe becomes: one plain value (name, description, argument surface,
// parameter schema, config, source digest), made only from the compile result. The schema is
// built here, once per tool, from the surface and the async flag, so every host publishes the
// same schema and none has to come back to the argument code to build it.
import * as E from "fp-ts/lib/Either.js";
import { parametersSchema } from "../args/parameters-schema.js";
import type { NotATool, ToolSpec } from "../tool/tool-spec.js";
import type { RecipeConfig } from "../model.js";
import type { CompiledConfig } from "./compile-recipe.js";


type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `facts`: the config's description and async flag when the caller has them apart from the
 *  config (a compile cache keeps them beside a stored config it has not parsed) */
export function toolOf(compiled: CompiledConfig, facts: Pick<RecipeConfig, "description" | "async"> = compiled.config): E.Either<NotATool, ToolSpec> {
  if (compiled.toolProblem !== undefined) return E.left({ _tag: "NotATool", message: compiled.toolProblem });
  const name = compiled.id;
  const async = facts.async === true;
  // built by assignment in one key order, so every tool has the same shape
  const tool: Mutable<ToolSpec> = {
    name,
    description: facts.description ?? `Execute template recipe: ${name}`,
    path: compiled.path,
    format: compiled.format,
    async,
    promptSnippet: `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`,
    surface: compiled.surface,
    schema: parametersSchema(compiled.surface, { async }),
    config: compiled.config,
  };
  if (compiled.sourceSha256 !== undefined) tool.sourceSha256 = compiled.sourceSha256;
  return E.right(tool);
}
