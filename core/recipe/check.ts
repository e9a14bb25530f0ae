// Argument declarations and defaults the registry cannot honour make a resolved recipe invalid at
// load time, naming the field, instead of failing on every call. (The template's structure is
// checked by the compile step's survey, core/compile/template-survey.ts.)
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeProblem } from "../model.js";
import { argKindLabel, isValidDefault } from "../args/arg-type.js";
import { hasUnknownType, parseDeclaration } from "../args/declarations.js";
import { normalizeArgValue } from "../args/arg-type.js";

const invalid = (field: string, message: string): E.Either<RecipeProblem, never> => E.left({ kind: "invalid", field, message });

export function checkArgs(config: RecipeConfig): E.Either<RecipeProblem, RecipeConfig> {
  let types: Map<string, ReturnType<typeof parseDeclaration>["type"]> | undefined;
  for (const token of config.args ?? []) {
    const d = parseDeclaration(token);
    if (d.name === "") return invalid("args", `field "args" has an entry without a name: ${JSON.stringify(token)}`);
    if (hasUnknownType(d)) {
      return invalid("args", `field "args" declares unknown type "${d.typeText ?? ""}" for ${d.name}; use string, path, int, number, bool, array or enum(a,b)`);
    }
    if (d.default !== undefined && !isValidDefault(d.type, d.default)) {
      return invalid("args", `field "args": Invalid default for ${d.name}:${argKindLabel(d.type)}`);
    }
    (types ??= new Map()).set(d.name, d.type);
  }
  const defaults = config.defaults;
  if (defaults === undefined || types === undefined) return E.right(config);
  for (const [name, value] of Object.entries(defaults)) {
    const type = types.get(name);
    if (type === undefined || type.kind === "string" || type.kind === "path") continue;
    const normalized = normalizeArgValue(name, type, value);
    if (E.isLeft(normalized)) return invalid("defaults", `field "defaults.${name}": ${normalized.left}`);
  }
  return E.right(config);
}
