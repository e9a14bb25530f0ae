// Argument declarations and defaults the registry cannot honour make a resolved recipe invalid at
// load time, naming the field, instead of failing on every call. (The template's structure is
// checked by the compile step's survey, core/compile/template-survey.ts.)
import * as E from "fp-ts/lib/Either.js";
import type { ArgType, JsonObject, RecipeConfig } from "../model.js";
import { MISMATCH, isValidDefault, normalizeRaw } from "../args/arg-type.js";
import { hasUnknownType, parseDeclaration } from "../args/declarations.js";
import type { RecipeError } from "./recipe-error.js";

/** The type of the last declaration of `name` (a later declaration of a name wins). */
function declaredType(args: readonly string[], name: string): ArgType | undefined {
  for (let i = args.length - 1; i >= 0; i--) {
    const d = parseDeclaration(args[i]!);
    if (d.name === name) return d.type;
  }
  return undefined;
}

/** The first declaration the registry cannot honour, in the order written. */
function declarationError(args: readonly string[]): RecipeError | undefined {
  for (const token of args) {
    const d = parseDeclaration(token);
    if (d.name === "") return { _tag: "ArgWithoutName", token };
    if (hasUnknownType(d)) return { _tag: "UnknownArgType", declaration: d };
    if (d.default !== undefined && !isValidDefault(d.type, d.default)) return { _tag: "InvalidDefault", name: d.name, type: d.type };
  }
  return undefined;
}

/** The first default that its declared type refuses (strings and paths take any value). */
function defaultError(args: readonly string[], defaults: JsonObject): RecipeError | undefined {
  for (const name of Object.keys(defaults)) {
    const type = declaredType(args, name);
    if (type === undefined || type.kind === "string" || type.kind === "path") continue;
    if (normalizeRaw(type, defaults[name]) === MISMATCH) return { _tag: "DefaultMismatch", name, type };
  }
  return undefined;
}

// Runs for every recipe of a discovery: the declarations are parsed once each (memoized), and
// nothing is built unless something is wrong.
export function checkArgs(config: RecipeConfig): E.Either<RecipeError, RecipeConfig> {
  const args = config.args;
  if (args === undefined) return E.right(config);
  const error = declarationError(args) ?? (config.defaults === undefined || args.length === 0 ? undefined : defaultError(args, config.defaults));
  return error === undefined ? E.right(config) : E.left(error);
}
