// A raw recipe object -> a validated RecipeConfig.
// Imports and delegation are resolved by a later stage; here the object is checked and shaped.
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Errors } from "io-ts";
import type { Json, JsonObject, RecipeConfig, RecipeProblem } from "../model.js";
import { setOwn } from "./own.js";
import {
  ENVELOPE_KEYS,
  FIELD_ORDER,
  type FieldName,
  type FieldSpec,
  type FieldValues,
  MAX_JSON_DEPTH,
  RECIPE_FIELDS,
  formatPath,
  gotText,
  hasOwn,
  isPlainObject,
  jsonFault,
  kindOf,
  locateFailure,
  FIELD,
} from "./fields.js";

export const NOT_AN_OBJECT = "JSON recipe must be an object";
export const NO_TEMPLATE = "recipe must define template";
export const UNUSABLE_TEMPLATE = "template must be a non-empty command string, sequence or object";
export const BAD_REPEAT = "Command template repeat must be a positive integer.";


const ENVELOPE_INDEX: ReadonlyMap<string, number> = new Map(ENVELOPE_KEYS.map((key, i) => [key, i]));

const invalid = (message: string, field?: string): RecipeProblem =>
  field === undefined ? { kind: "invalid", message } : { kind: "invalid", message, field };

function checkJson(raw: Readonly<Record<string, unknown>>): RecipeProblem | undefined {
  const fault = jsonFault(raw);
  if (fault === undefined) return undefined;
  const top = fault.at[0];
  const field = typeof top === "string" ? top : undefined;
  if (fault.reason === "too-deep") return invalid(`recipe nests deeper than ${MAX_JSON_DEPTH} levels`, field);
  return invalid(`recipe holds a non-JSON value (${kindOf(fault.value)}) at ${formatPath("recipe", fault.at)}`, field);
}

/** One present field, decoded by its table row: the value the config keeps (undefined: the row
 * leaves it out), or the problem naming the field and where in it the value is wrong. */
function decodeField<K extends FieldName>(raw: JsonObject, field: K): E.Either<RecipeProblem, FieldValues[K] | undefined> {
  const spec = RECIPE_FIELDS[field] as unknown as FieldSpec<FieldValues[K]>;
  const value = raw[field];
  // the guard is the codec's own (or its shortcut for JSON data, which the whole recipe is by now:
  // decodeObject checked it first); decode runs only to locate what is wrong
  const accepted: E.Either<Errors, FieldValues[K]> = (spec.checked === undefined ? spec.codec.is(value) : spec.checked(value))
    ? E.right(value as FieldValues[K])
    : spec.codec.decode(value);
  return pipe(
    accepted,
    E.map((v) => (spec.kept === undefined ? v : spec.kept(v as never) as FieldValues[K] | undefined)),
    E.mapLeft((errors) => {
      const { path, value: found } = locateFailure(field, errors);
      const got = gotText(field, path, found, spec.quoteGot === true);
      return invalid(field === "template" ? `${UNUSABLE_TEMPLATE} ${got}` : `field "${field}" must be ${spec.expected} ${got}`, field);
    }),
  );
}

/** The raw template wrapped with the control keys given at top level (see docs/recipes.md). */
export function templateEnvelope(raw: JsonObject): Json {
  const template = raw["template"] as Json;
  // built by assignment: object spread costs several times more on this per-file hot path
  let envelope: Record<string, Json> | undefined;
  // a recipe has few own keys and most have no control key: find those it has, then copy them
  // in the listed order
  let present: number[] | undefined;
  for (const key of Object.getOwnPropertyNames(raw)) {
    const at = ENVELOPE_INDEX.get(key);
    if (at !== undefined) (present ??= []).push(at);
  }
  if (present === undefined) return template;
  present.sort((a, b) => a - b);
  for (const at of present) {
    const key = ENVELOPE_KEYS[at]!;
    const value = raw[key];
    if (value === undefined) continue;
    envelope ??= {};
    envelope[key] = value;
  }
  if (envelope === undefined) return template;
  if (!isPlainObject(template)) {
    envelope["template"] = template;
    return envelope;
  }
  const node = template as JsonObject;
  for (const key of Object.keys(node)) setOwn(envelope, key, node[key] as Json);
  return envelope;
}

type Unusable = { readonly kind: "unusable"; readonly what: string; readonly at: readonly (string | number)[] }
  | { readonly kind: typeof FIELD.repeat; readonly at: readonly (string | number)[] };

const isImportNode = (node: JsonObject): boolean => typeof node["name"] === "string" && !hasOwn(node, "template");

const badRepeat = (node: JsonObject): boolean => {
  const repeat = node[FIELD.repeat];
  return typeof repeat === "number" && !(Number.isInteger(repeat) && repeat > 0);
};

/**
 * Refused when the recipe is loaded, not when it runs: every leaf must be a non-blank command,
 * every sequence non-empty, every object an import node or a node whose `template` is usable. A
 * numeric `repeat` that is not a positive integer gets the same structural error expansion gives.
 */
function findUnusable(node: Json): Unusable | undefined {
  if (typeof node === "string") return node.trim() === "" ? { kind: "unusable", what: "blank string", at: HERE } : undefined;
  if (Array.isArray(node)) {
    if (node.length === 0) return { kind: "unusable", what: "empty array", at: HERE };
    for (let i = 0; i < node.length; i++) {
      const inner = findUnusable(node[i] as Json);
      // the location is built on the way out, only for what is found
      if (inner !== undefined) return { ...inner, at: [i, ...inner.at] };
    }
    return undefined;
  }
  if (isPlainObject(node)) {
    const object = node as JsonObject;
    if (isImportNode(object)) return undefined;
    if (badRepeat(object)) return { kind: FIELD.repeat, at: HERE };
    if (!hasOwn(object, "template")) return { kind: "unusable", what: "object without template", at: HERE };
    const inner = findUnusable(object["template"] as Json);
    return inner === undefined ? undefined : { ...inner, at: ["template", ...inner.at] };
  }
  return { kind: "unusable", what: kindOf(node), at: HERE };
}

const HERE: readonly (string | number)[] = Object.freeze([]);

function checkTemplate(raw: JsonObject, envelope: Json): RecipeProblem | undefined {
  const template = raw["template"] as Json;
  const wrapped = envelope !== template && !isPlainObject(template);
  // a wrapped envelope is usable exactly when the raw template is; check that one so that
  // locations read as the author wrote them
  const found = wrapped
    ? badRepeat(envelope as JsonObject) ? ({ kind: FIELD.repeat, at: [] } as const) : findUnusable(template)
    : findUnusable(envelope);
  if (found === undefined) return undefined;
  if (found.kind === FIELD.repeat) {
    const fromTopLevel = found.at.length === 0 && !(isPlainObject(template) && hasOwn(template, FIELD.repeat));
    return { kind: "failed", message: BAD_REPEAT, field: fromTopLevel ? FIELD.repeat : "template" };
  }
  const where = found.at.length === 0 ? "" : ` at ${formatPath("template", found.at)}`;
  return invalid(`${UNUSABLE_TEMPLATE} (got ${found.what}${where})`, "template");
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Every field the recipe holds, decoded by its row of the table in one walk over the table: the
 * config has the table's key order (name first, raw last), and of two mistyped fields the one
 * listed first is reported. `template` holds the raw template until the envelope replaces it.
 */
function decodeFields(object: JsonObject, name: string): E.Either<RecipeProblem, Mutable<RecipeConfig>> {
  const config: Record<string, unknown> = { name };
  for (const field of FIELD_ORDER) {
    if (object[field] === undefined || !hasOwn(object, field)) continue;
    const decoded = decodeField(object, field);
    if (E.isLeft(decoded)) return decoded;
    if (decoded.right !== undefined) config[field] = decoded.right;
  }
  return E.right(config as unknown as Mutable<RecipeConfig>);
}

/** The config with its template envelope in place of the raw template, once that is usable. */
function withEnvelope(object: JsonObject, config: Mutable<RecipeConfig>): E.Either<RecipeProblem, RecipeConfig> {
  const template = templateEnvelope(object);
  const unusable = checkTemplate(object, template);
  if (unusable !== undefined) return E.left(unusable);
  config.template = template;
  config.raw = object;
  return E.right(config);
}

/**
 * Validates an object already in hand (a parsed file, a draft, a register_tool call) and shapes it
 * into a config named `name`; a `name` field in the object is ignored. `path` is the recipe's file,
 * which diagnostics add around the returned problem. Never throws.
 */
export function decodeRecipeObject(raw: unknown, path: string, name: string): E.Either<RecipeProblem, RecipeConfig> {
  void path;
  try {
    return decodeObject(raw, name);
  } catch (e) {
    // only reachable through hostile non-JSON input (throwing getters, proxies)
    return E.left({ kind: "failed", message: e instanceof Error && e.message !== "" ? e.message : "unexpected error" });
  }
}

/** A plain JSON object with a template, or the problem. */
function recipeObject(raw: unknown): E.Either<RecipeProblem, JsonObject> {
  if (!isPlainObject(raw)) return E.left(invalid(NOT_AN_OBJECT));
  const notJson = checkJson(raw);
  if (notJson !== undefined) return E.left(notJson);
  const object = raw as JsonObject;
  return hasOwn(object, "template") ? E.right(object) : E.left(invalid(NO_TEMPLATE, "template"));
}

const decodeObject = (raw: unknown, name: string): E.Either<RecipeProblem, RecipeConfig> =>
  pipe(
    recipeObject(raw),
    chain((object) => pipe(decodeFields(object, name), chain((config) => withEnvelope(object, config)))),
  );
