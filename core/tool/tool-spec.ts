// The tool a recipe becomes: its name, description, argument surface and parameter schema, with
// the config and source digest it was compiled from. Discovery picks which recipes become tools;
// compiling, the argument checks and the hosts read these types from here.
import type { ArgType, Json, JsonObject, RecipeConfig, RecipeFormat } from "../model.js";

/** The public argument surface of a tool: one source for schema, validation and usage hints. */
export interface ArgSurface {
  readonly names: readonly string[];
  readonly required: readonly string[];
  /** declared or inline types other than `string`, by name (own keys only) */
  readonly types: Readonly<Record<string, ArgType>>;
  /** top-level recipe defaults, used for samples and as runtime values: stringified, except that
   * arrays stay arrays */
  readonly defaults: Readonly<Record<string, string | readonly Json[]>>;
  /** defaults written in a declaration (`count:int=5` in `args`) or inline (`{count:int=5}`):
   * shown to callers; the template applies them itself */
  readonly declaredDefaults?: Readonly<Record<string, string>>;
  /** what each argument means, from the recipe's `arg_descriptions` */
  readonly descriptions?: Readonly<Record<string, string>>;
}

/** The declared type of an argument of `surface`, if it has one other than `string`. */
export const argTypeOf = (surface: Pick<ArgSurface, "types">, name: string): ArgType | undefined =>
  Object.hasOwn(surface.types, name) ? surface.types[name] : undefined;

/** Why a compiled recipe is not a tool: it loads, but cannot be offered (the message says why). */
export interface NotATool {
  readonly _tag: "NotATool";
  readonly message: string;
}

/** A tool: a plain value made by compiling a recipe (core/compile/tool.ts), its parameter schema
 *  included, so a host publishes what it was handed and never goes back to build anything. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly format: RecipeFormat;
  readonly async: boolean;
  readonly surface: ArgSurface;
  /** the JSON schema of the parameters as the agent sees it: one property per argument of
   *  `surface`, typed, described, with its shown default; the required names; and for an async
   *  tool the `run_id` and `correlation_id` that steer its detached run
   *  (`parametersSchema` in core/args/parameters-schema.ts) */
  readonly schema: JsonObject;
  readonly promptSnippet: string;
  readonly config: RecipeConfig;
  /** sha256 of the very bytes the tool was compiled from, when discovery was given a digest
   *  function. Launch accounting compares it with the file as it is at launch, so no host has to
   *  read the file again to learn what the tool was loaded from. */
  readonly sourceSha256?: string;
}
