// register_tool parameters (registry-reference §5.1) decoded from what a host passed: wrong types
// and unknown keys are answered with a text naming the argument, never a crash. Beyond §5.1, the
// recipe fields of §2.1 may be given as co-located fields (their types are checked by the recipe
// decoder when the recipe is validated as a whole).
import { didYouMean } from "../suggest.js";
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { isPlainObject, jsonFault } from "../recipe/fields.js";

export const BASE_PARAMS = ["args", "async", "description", "draft", "name", "template", "update", "values"] as const;

/** Recipe fields that may be written through register_tool besides the §5.1 ones, in §2.1 order. */
export const COLOCATED_FIELDS = [
  "disabled", "imports", "defaults", "parallel", "concurrency", "min_successful", "timeout", "delay", "retry", "label",
  "when", "accept_output", "output", "failure", "recover", "repeat", "artifacts", "mailbox", "retire_when", "actor_context",
] as const;

export const REGISTER_PARAMS: readonly string[] = [...BASE_PARAMS, ...COLOCATED_FIELDS];

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

export function decodeParams(params: Params): E.Either<ParamError, RegisterInput> {
  const unknown = Object.keys(params).filter((k) => !REGISTER_PARAMS.includes(k));
  if (unknown.length > 0) {
    const near = unknown.length === 1 ? didYouMean(unknown[0]!, REGISTER_PARAMS) : "";
    return bad(`register_tool does not accept ${unknown.map((k) => `"${k}"`).join(", ")}; allowed: ${REGISTER_PARAMS.join(", ")}.${near}`, {
      unknown_arguments: unknown,
    });
  }
  const name = optString(params, "name");
  const draft = optString(params, "draft");
  const description = optString(params, "description");
  const async = optBool(params, "async");
  const update = optBool(params, "update");
  const args = optArgs(params);
  for (const r of [name, draft, description, async, update, args]) if (E.isLeft(r)) return r;
  const values = given(params, "values");
  if (values !== undefined && values !== null && !(isPlainObject(values) && jsonFault(values) === undefined)) {
    return bad(`argument "values" must be an object`);
  }
  const fields = new Map<string, Json | null>();
  for (const key of COLOCATED_FIELDS) {
    const v = given(params, key);
    if (v === undefined) continue;
    if (jsonFault(v) !== undefined) return bad(`argument "${key}" must be JSON data`);
    fields.set(key, v as Json | null);
  }
  const template: TemplateInput = Object.prototype.hasOwnProperty.call(params, "template") && params["template"] !== undefined
    ? { given: true, value: params["template"] }
    : { given: false };
  const right = <A>(e: E.Either<ParamError, A>): A => (e as E.Right<A>).right;
  const out: { -readonly [K in keyof RegisterInput]: RegisterInput[K] } = { update: right(update) === true, template, fields };
  const set = <K extends keyof RegisterInput>(k: K, v: RegisterInput[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  set("name", right(name));
  set("draft", right(draft));
  set("description", right(description));
  set("async", right(async));
  set("args", right(args));
  set("values", values === undefined || values === null ? undefined : (values as JsonObject));
  return E.right(out);
}
