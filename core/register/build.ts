// The recipe object a create or an update writes. An update
// starts from the stored raw object and replaces only what was given, so nothing the call did
// not mention is lost: imports, async, object templates, unknown keys.
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Json, JsonObject } from "../model.js";
import { parseArgsShorthand, shorthandErrorText, type ParsedArgs } from "../args/declarations.js";
import { isPlainObject } from "../recipe/fields.js";
import { setOwn } from "../recipe/own.js";
import type { RegisterInput } from "./params.js";
import type { RecipeInputError } from "./texts.js";

/** The defaults to write: those given, else (an update that gives `args` but not `defaults`)
 *  the stored ones, which the call did not mention and so keeps; then the shorthand's own
 *  (`mode=check`) over them. `defaults=null` clears the stored ones. */
function defaultsOf(input: RegisterInput, shorthand: Readonly<Record<string, string>> | undefined, stored: Json | undefined): Json | undefined {
  const given = input.fields.has("defaults") ? input.fields.get("defaults") : isPlainObject(stored) ? stored : undefined;
  // a defaults value that is not an object is left for the recipe decoder to name
  if (given !== undefined && given !== null && !isPlainObject(given)) return given;
  const out: Record<string, Json> = {};
  if (given !== undefined && given !== null) for (const [k, v] of Object.entries(given as JsonObject)) setOwn(out, k, v);
  // the shorthand is the more specific statement about the names it declares
  if (shorthand !== undefined) for (const [k, v] of Object.entries(shorthand)) setOwn(out, k, v);
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * The object to write: `base` (the stored raw recipe of an update, else nothing) with the given
 * parameters applied. `template` is the checked template parameter, when one was given.
 */
export function buildRecipe(input: RegisterInput, template: Json | undefined, base: JsonObject | undefined): E.Either<RecipeInputError, JsonObject> {
  const shorthand: E.Either<RecipeInputError, ParsedArgs | undefined> =
    input.args === undefined ? E.right(undefined) : pipe(parseArgsShorthand(input.args), E.mapLeft((e) => ({ _tag: "ArgsShorthand", message: shorthandErrorText(e) })));
  const stored = base?.["description"];
  const description = (input.description ?? (typeof stored === "string" ? stored : "")).trim();
  const body = template ?? base?.["template"];
  return pipe(
    shorthand,
    E.filterOrElse((): boolean => description !== "", (): RecipeInputError => ({ _tag: "DescriptionRequired" })),
    chain((parsed) => (body === undefined ? E.left({ _tag: "TemplateRequired" }) : E.right(assemble(input, base, description, body, parsed)))),
  );
}

/** The recipe object once every parameter is known to be usable. */
function assemble(input: RegisterInput, base: JsonObject | undefined, description: string, body: Json, parsed: ParsedArgs | undefined): JsonObject {
  const out = new Map<string, Json>();
  if (base !== undefined) for (const key of Object.keys(base)) out.set(key, base[key] as Json);
  out.set("description", description);
  if (input.async !== undefined) out.set("async", input.async);
  if (parsed !== undefined) out.set("args", [...parsed.declarations]);
  if (parsed !== undefined || input.fields.has("defaults")) {
    const defaults = defaultsOf(input, parsed?.defaults, base?.["defaults"]);
    if (defaults === undefined) out.delete("defaults");
    else out.set("defaults", defaults);
  }
  // values only travel with a co-located recipe, i.e. one that says async
  if (input.values !== undefined && typeof out.get("async") === "boolean") out.set("values", input.values);
  for (const [key, value] of input.fields) {
    if (key === "defaults") continue;
    if (value === null) out.delete(key);
    else out.set(key, value);
  }
  out.set("template", body);
  const object: Record<string, Json> = {};
  for (const [key, value] of out) setOwn(object, key, value);
  return object;
}
