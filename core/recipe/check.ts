// Argument declarations and defaults the registry cannot honour make a resolved recipe invalid at
// load time, naming the field, instead of failing on every call. (The template's structure is
// checked by the compile step's survey, core/compile/template-survey.ts.)
import * as E from "fp-ts/lib/Either.js";
import type { ArgType, RecipeConfig, RecipeProblem } from "../model.js";
import { MISMATCH, argKindLabel, isValidDefault, mismatchMessage, normalizeRaw } from "../args/arg-type.js";
import { hasUnknownType, parseDeclaration, unknownTypeMessage } from "../args/declarations.js";

const invalid = (field: string, message: string): E.Either<RecipeProblem, never> => E.left({ kind: "invalid", field, message });

/** The type of the last declaration of `name` (a later declaration of a name wins). */
function declaredType(args: readonly string[], name: string): ArgType | undefined {
  for (let i = args.length - 1; i >= 0; i--) {
    const d = parseDeclaration(args[i]!);
    if (d.name === name) return d.type;
  }
  return undefined;
}

// Runs for every recipe of a discovery: the declarations are parsed once each (memoized), and
// nothing is built unless something is wrong.
export function checkArgs(config: RecipeConfig): E.Either<RecipeProblem, RecipeConfig> {
  const args = config.args;
  if (args === undefined) return E.right(config);
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    const d = parseDeclaration(token);
    if (d.name === "") return invalid("args", `field "args" has an entry without a name: ${JSON.stringify(token)}`);
    if (hasUnknownType(d)) {
      return invalid("args", unknownTypeMessage(d));
    }
    if (d.default !== undefined && !isValidDefault(d.type, d.default)) {
      return invalid("args", `field "args": Invalid default for ${d.name}:${argKindLabel(d.type)}`);
    }
  }
  const defaults = config.defaults;
  if (defaults === undefined || args.length === 0) return E.right(config);
  for (const name of Object.keys(defaults)) {
    const type = declaredType(args, name);
    if (type === undefined || type.kind === "string" || type.kind === "path") continue;
    if (normalizeRaw(type, defaults[name]) === MISMATCH) return invalid("defaults", `field "defaults.${name}": ${mismatchMessage(name, type)}`);
  }
  return E.right(config);
}
