// register_tool parameters decoded from what a host passed: wrong types and unknown keys are
// answered with a text naming the argument, never a crash. Besides its own parameters, the
// recipe fields the field table (core/recipe/fields.ts) marks co-located may be given; their types
// are checked by the recipe decoder when the recipe is validated as a whole.
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import { didYouMean } from "../suggest.js";
import type { Json, JsonObject } from "../model.js";
import { COLOCATED_FIELDS, OFFERED_FIELDS, isPlainObject, jsonFault } from "../recipe/fields.js";

/** register_tool's own parameters that are not recipe fields. */
export const VERB_PARAMS = ["name", "draft", "update"] as const;

/** Every parameter register_tool offers agents: its own, then the offered recipe fields. */
export const REGISTER_PARAMS: readonly string[] = [...VERB_PARAMS, ...OFFERED_FIELDS.map(([name]) => name)];

// co-located fields not offered (nothing here acts on them) are still accepted, so that an
// update can keep or remove what a stored recipe holds
const ACCEPTED: ReadonlySet<string> = new Set([...REGISTER_PARAMS, ...COLOCATED_FIELDS]);

export type TemplateInput = { readonly given: false } | { readonly given: true; readonly value: unknown };

export interface RegisterInput {
  /** absent or empty: list the tools */
  readonly name?: string;
  readonly draft?: string;
  readonly description?: string;
  readonly async?: boolean;
  readonly update: boolean;
  /** the args shorthand; an array of declarations is joined with commas */
  readonly args?: string;
  readonly template: TemplateInput;
  readonly values?: JsonObject;
  /** co-located fields given; `null` removes the field on update */
  readonly fields: ReadonlyMap<string, Json | null>;
}

export interface ParamError {
  readonly text: string;
  readonly details: Readonly<Record<string, unknown>>;
}

const bad = (text: string, details: Record<string, unknown> = {}): E.Either<ParamError, never> => E.left({ text, details });

type Params = Readonly<Record<string, unknown>>;

const given = (params: Params, key: string): unknown => (Object.prototype.hasOwnProperty.call(params, key) ? params[key] : undefined);

function optString(params: Params, key: string): E.Either<ParamError, string | undefined> {
  const v = given(params, key);
  if (v === undefined || v === null) return E.right(undefined);
  return typeof v === "string" ? E.right(v) : bad(`argument "${key}" must be a string`);
}

function optBool(params: Params, key: string): E.Either<ParamError, boolean | undefined> {
  const v = given(params, key);
  if (v === undefined || v === null) return E.right(undefined);
  if (typeof v === "boolean") return E.right(v);
  if (v === "true" || v === "false") return E.right(v === "true");
  return bad(`argument "${key}" must be true or false`);
}

function optArgs(params: Params): E.Either<ParamError, string | undefined> {
  const v = given(params, "args");
  if (v === undefined || v === null) return E.right(undefined);
  if (typeof v === "string") return E.right(v);
  // pi-actors concatenates array elements into one declaration; a list of declarations is meant
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return E.right((v as string[]).join(","));
  return bad(`argument "args" must be a string (or an array of strings)`);
}

function optValues(params: Params): E.Either<ParamError, JsonObject | undefined> {
  const values = given(params, "values");
  if (values === undefined || values === null) return E.right(undefined);
  return isPlainObject(values) && jsonFault(values) === undefined ? E.right(values as JsonObject) : bad(`argument "values" must be an object`);
}

function colocatedFields(params: Params): E.Either<ParamError, Map<string, Json | null>> {
  const fields = new Map<string, Json | null>();
  for (const key of COLOCATED_FIELDS) {
    const v = given(params, key);
    if (v === undefined) continue;
    if (jsonFault(v) !== undefined) return bad(`argument "${key}" must be JSON data`);
    fields.set(key, v as Json | null);
  }
  return E.right(fields);
}

export function decodeParams(params: Params): E.Either<ParamError, RegisterInput> {
  const unknown = Object.keys(params).filter((k) => !ACCEPTED.has(k));
  if (unknown.length > 0) {
    const near = unknown.length === 1 ? didYouMean(unknown[0]!, REGISTER_PARAMS) : "";
    return bad(`register_tool does not accept ${unknown.map((k) => `"${k}"`).join(", ")}; allowed: ${REGISTER_PARAMS.join(", ")}${near === "" ? "" : `.${near}`}`, {
      unknown_arguments: unknown,
    });
  }
  return pipe(
    E.Do,
    E.apS("name", optString(params, "name")),
    E.apS("draft", optString(params, "draft")),
    E.apS("description", optString(params, "description")),
    E.apS("async", optBool(params, "async")),
    E.apS("update", optBool(params, "update")),
    E.apS("args", optArgs(params)),
    E.apS("values", optValues(params)),
    E.apS("fields", colocatedFields(params)),
    E.map((p) => {
      const template: TemplateInput = Object.prototype.hasOwnProperty.call(params, "template") && params["template"] !== undefined
        ? { given: true, value: params["template"] }
        : { given: false };
      const out: { -readonly [K in keyof RegisterInput]: RegisterInput[K] } = { update: p.update === true, template, fields: p.fields };
      const set = <K extends keyof RegisterInput>(k: K, v: RegisterInput[K] | undefined): void => {
        if (v !== undefined) out[k] = v;
      };
      set("name", p.name);
      set("draft", p.draft);
      set("description", p.description);
      set("async", p.async);
      set("args", p.args);
      set("values", p.values);
      return out;
    }),
  );
}
