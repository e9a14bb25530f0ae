// The tool a compiled recipe becomes: its name, description, parameter schema and prompt snippet,
// built on demand from the compile result (only winners of a tool source need one).
import * as E from "fp-ts/lib/Either.js";
import { parametersSchema } from "../args/schema.js";
import type { ArgSurface, ToolSpec } from "../tool/types.js";
import type { JsonObject, RecipeConfig } from "../model.js";
import type { CompiledConfig } from "./compile-recipe.js";

/** `facts`: the config's description and async flag when the caller has them apart from the
 *  config (a compile cache parses a stored config only when something reads `config`) */
export function toolOf(compiled: CompiledConfig, facts: Pick<RecipeConfig, "description" | "async"> = compiled.config): E.Either<string, ToolSpec> {
  if (compiled.toolProblem !== undefined) return E.left(compiled.toolProblem);
  const name = compiled.id;
  const async = facts.async === true;
  const tool: { -readonly [K in keyof ToolSpec]: ToolSpec[K] } = {
    name,
    description: facts.description ?? `Execute template recipe: ${name}`,
    path: compiled.path,
    format: compiled.format,
    async,
    promptSnippet: `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`,
  } as { -readonly [K in keyof ToolSpec]: ToolSpec[K] };
  sources.set(tool, { compiled });
  Object.defineProperties(tool, LAZY);
  if (compiled.sourceSha256 !== undefined) tool.sourceSha256 = compiled.sourceSha256;
  return E.right(tool);
}

// The surface and config are read from the compile result when asked (a compile cache parses a
// stored one only then), and the JSON schema is built when a host first asks for it: a `list` of
// 10,000 tools needs none, a host publishing one tool needs that tool's only. The getters are
// shared by every tool (a getter made per object would turn each tool into a slow dictionary
// object); each tool's compile result and schema are kept here.
const sources = new WeakMap<ToolSpec, { readonly compiled: CompiledConfig; parameters?: JsonObject }>();

const LAZY: PropertyDescriptorMap = {
  surface: {
    get(this: ToolSpec): ArgSurface {
      return sources.get(this)!.compiled.surface;
    },
    enumerable: true,
    configurable: true,
  },
  parameters: {
    get(this: ToolSpec): JsonObject {
      const source = sources.get(this)!;
      return (source.parameters ??= parametersSchema(source.compiled.surface, { async: this.async }));
    },
    enumerable: true,
    configurable: true,
  },
  config: {
    get(this: ToolSpec): RecipeConfig {
      return sources.get(this)!.compiled.config;
    },
    enumerable: true,
    configurable: true,
  },
};
