// The tool a compiled recipe becomes: its name, description, parameter schema and prompt snippet,
// built on demand from the compile result (only winners of a tool source need one).
import * as E from "fp-ts/lib/Either.js";
import { parametersSchema } from "../args/schema.js";
import type { ToolSpec } from "../discovery/types.js";
import type { JsonObject } from "../model.js";
import type { CompiledConfig } from "./compile-recipe.js";

// The JSON schema is built when a host first asks for it: a `list` of 10,000 tools needs none, a
// host publishing one tool needs that tool's only. It stays an own, enumerable property (a spread
// or JSON.stringify of a tool sees it), through one getter shared by every tool: an object literal
// with a getter of its own (a closure per tool) is kept by V8 as a slow dictionary of some 1 KB,
// this shape as a fast object of ~150 bytes sharing one hidden class.
const schemas = new WeakMap<ToolSpec, JsonObject>();

function parameters(this: ToolSpec): JsonObject {
  let schema = schemas.get(this);
  if (schema === undefined) {
    schema = parametersSchema(this.surface, { async: this.async });
    schemas.set(this, schema);
  }
  return schema;
}

const PARAMETERS: PropertyDescriptor = { get: parameters, enumerable: true, configurable: true };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function toolOf(compiled: CompiledConfig): E.Either<string, ToolSpec> {
  if (compiled.toolProblem !== undefined) return E.left(compiled.toolProblem);
  const { id: name, config } = compiled;
  const async = config.async === true;
  // built in the key order of ToolSpec, `parameters` in its place
  const tool: Partial<Mutable<ToolSpec>> = {
    name,
    description: config.description ?? `Execute template recipe: ${name}`,
    path: compiled.path,
    format: compiled.format,
    async,
    surface: compiled.surface,
  };
  Object.defineProperty(tool, "parameters", PARAMETERS);
  tool.promptSnippet = `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`;
  tool.config = config;
  if (compiled.sourceSha256 !== undefined) tool.sourceSha256 = compiled.sourceSha256;
  return E.right(tool as ToolSpec);
}
