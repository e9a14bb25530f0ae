// A raw recipe object -> a validated RecipeConfig.
// Imports and delegation are resolved by a later stage; here the object is checked and shaped.
import * as E from "fp-ts/lib/Either.js";
import type { Errors } from "io-ts";
import type { Json, JsonObject, RecipeConfig, RecipeProblem } from "../model.js";
import { setOwn } from "./own.js";
import {
  ENVELOPE_KEYS,
  FIELD_ORDER,
  type FieldName,
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

function decodeField<K extends FieldName>(raw: JsonObject, field: K, into: FieldValues): RecipeProblem | undefined {
  const spec = RECIPE_FIELDS[field];
  const value = raw[field];
  // the guard is the codec's own (or its shortcut for JSON data, which the whole recipe is by now:
  // decodeObject checked it first); decode runs only to locate what is wrong
  if (spec.checked === undefined ? spec.codec.is(value) : spec.checked(value)) {
    into[field] = value as FieldValues[K];
    return undefined;
  }
  const result = spec.codec.decode(value) as E.Either<Errors, FieldValues[K]>;
  if (E.isRight(result)) {
    into[field] = result.right;
    return undefined;
  }
  const { path, value: found } = locateFailure(field, result.left);
  const got = gotText(field, path, found, spec.quoteGot === true);
  const message = field === "template" ? `${UNUSABLE_TEMPLATE} ${got}` : `field "${field}" must be ${spec.expected} ${got}`;
  return invalid(message, field);
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
  | { readonly kind: "repeat"; readonly at: readonly (string | number)[] };

const isImportNode = (node: JsonObject): boolean => typeof node["name"] === "string" && !hasOwn(node, "template");

const badRepeat = (node: JsonObject): boolean => {
  const repeat = node["repeat"];
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
    if (badRepeat(object)) return { kind: "repeat", at: HERE };
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
    ? badRepeat(envelope as JsonObject) ? ({ kind: "repeat", at: [] } as const) : findUnusable(template)
    : findUnusable(envelope);
  if (found === undefined) return undefined;
  if (found.kind === "repeat") {
    const fromTopLevel = found.at.length === 0 && !(isPlainObject(template) && hasOwn(template, "repeat"));
    return { kind: "failed", message: BAD_REPEAT, field: fromTopLevel ? "repeat" : "template" };
  }
  const where = found.at.length === 0 ? "" : ` at ${formatPath("template", found.at)}`;
  return invalid(`${UNUSABLE_TEMPLATE} (got ${found.what}${where})`, "template");
}

const isFieldName = (key: string): key is FieldName => hasOwn(RECIPE_FIELDS, key);

const nonEmpty = (o: JsonObject | undefined): o is JsonObject => o !== undefined && Object.keys(o).length > 0;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The config in its key order; only present fields, each already of its accepted type. */
function shape(name: string, raw: JsonObject, v: FieldValues, template: Json): RecipeConfig {
  // filled in order rather than spread: insertion order is the listed key order, and it is cheaper
  const c: Partial<Mutable<RecipeConfig>> = { name };
  const description = v.description?.trim();
  if (description) c.description = description;
  if (v.disabled !== undefined) c.disabled = v.disabled;
  if (v.async !== undefined) c.async = v.async;
  if (nonEmpty(v.imports)) c.imports = v.imports;
  c.template = template;
  if (v.args !== undefined) c.args = v.args;
  if (v.arg_descriptions !== undefined) c.arg_descriptions = v.arg_descriptions;
  if (nonEmpty(v.defaults)) c.defaults = v.defaults;
  if (v.parallel !== undefined) c.parallel = v.parallel;
  if (v.concurrency !== undefined) c.concurrency = v.concurrency;
  if (v.min_successful !== undefined) c.min_successful = v.min_successful;
  if (v.label !== undefined) c.label = v.label;
  if (v.when !== undefined) c.when = v.when;
  if (v.timeout !== undefined) c.timeout = v.timeout;
  if (v.delay !== undefined) c.delay = v.delay;
  if (v.accept_output !== undefined) c.accept_output = v.accept_output;
  if (v.output !== undefined) c.output = v.output;
  if (v.artifacts !== undefined) c.artifacts = v.artifacts;
  if (v.mailbox !== undefined) c.mailbox = v.mailbox;
  if (v.retire_when !== undefined) c.retire_when = v.retire_when;
  if (v.retry !== undefined) c.retry = v.retry;
  if (v.failure !== undefined) c.failure = v.failure;
  if (v.recover !== undefined) c.recover = v.recover;
  if (v.repeat !== undefined) c.repeat = v.repeat;
  if (v.values !== undefined) c.values = v.values;
  if (v.usage !== undefined) c.usage = v.usage;
  if (v.actor_context !== undefined) c.actor_context = v.actor_context;
  if (v.sandbox !== undefined) c.sandbox = v.sandbox;
  c.raw = raw;
  return c as RecipeConfig;
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

function decodeObject(raw: unknown, name: string): E.Either<RecipeProblem, RecipeConfig> {
  if (!isPlainObject(raw)) return E.left(invalid(NOT_AN_OBJECT));
  const notJson = checkJson(raw);
  if (notJson !== undefined) return E.left(notJson);
  const object = raw as JsonObject;
  if (!hasOwn(object, "template")) return E.left(invalid(NO_TEMPLATE, "template"));
  const values: FieldValues = {};
  // a recipe has a few of the many known fields: visit its own keys; should one be mistyped,
  // the listed order decides which is reported
  for (const key of Object.getOwnPropertyNames(object)) {
    if (!isFieldName(key)) continue;
    if (decodeField(object, key, values) === undefined) continue;
    for (const field of FIELD_ORDER) {
      if (object[field] === undefined || !hasOwn(object, field)) continue;
      const problem = decodeField(object, field, values);
      if (problem !== undefined) return E.left(problem);
    }
  }
  const template = templateEnvelope(object);
  const unusable = checkTemplate(object, template);
  if (unusable !== undefined) return E.left(unusable);
  return E.right(shape(name, object, values, template));
}
