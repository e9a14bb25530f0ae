// Import references `{alias.name}`, `{alias.file}`, `{alias.defaults.k}`, `{alias.values.k}` with
// `=fallback` and `?yes:no` forms, substituted through a whole raw recipe.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import type { RecipeError } from "./recipe-error.js";
import { hasOwn, isPlainObject } from "./fields.js";
import { setOwn } from "./own.js";

/** What a recipe may read of one of its imports. */
export interface ImportRecord {
  readonly name: string;
  readonly file: string;
  readonly defaults: JsonObject;
  readonly values: JsonObject;
}

type Lookup = { readonly known: false } | { readonly known: true; readonly value: Json | undefined };

const UNKNOWN: Lookup = { known: false };
const TOKEN = /\{([^{}]*)\}/g;
const WHOLE_TOKEN = /^\{([^{}]*)\}$/;

function lookup(ref: string, imports: ReadonlyMap<string, ImportRecord>): Lookup {
  const dot = ref.indexOf(".");
  if (dot < 0) return UNKNOWN;
  const record = imports.get(ref.slice(0, dot));
  if (record === undefined) return UNKNOWN;
  const [section, ...path] = ref.slice(dot + 1).split(".");
  if (section === "name" || section === "file") return path.length === 0 ? { known: true, value: record[section] } : UNKNOWN;
  if (section !== "defaults" && section !== "values") return UNKNOWN;
  let value: Json | undefined = record[section];
  for (const key of path) {
    // own keys only: `constructor` or `__proto__` must not reach into the prototype chain
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (isPlainObject(value) && hasOwn(value, key)) value = (value as JsonObject)[key];
    else value = undefined;
    if (value === undefined) break;
  }
  return { known: true, value };
}

/** A fallback or branch text: quotes stripped, or a reference resolved (missing allowed), or itself. */
function literal(text: string, imports: ReadonlyMap<string, ImportRecord>): Json | undefined {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'") && text.endsWith(first)) return text.slice(1, -1);
  const found = lookup(text, imports);
  return found.known ? found.value : text;
}

const truthy = (v: Json | undefined): boolean => !(v === undefined || v === null || v === false || v === 0 || v === "");

/** Index of the first `:` outside quotes, so that a quoted branch may contain one. */
function branchColon(text: string): number {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ":") return i;
  }
  return -1;
}

type Evaluated = { readonly untouched: true } | { readonly untouched: false; readonly value: Json | undefined };

const UNTOUCHED: Evaluated = { untouched: true };

function evaluate(expr: string, imports: ReadonlyMap<string, ImportRecord>): E.Either<RecipeError, Evaluated> {
  const opAt = expr.search(/[=?]/);
  const ref = opAt < 0 ? expr : expr.slice(0, opAt);
  const found = lookup(ref, imports);
  if (!found.known) return E.right(UNTOUCHED);
  if (opAt < 0) {
    if (found.value === undefined) return E.left({ _tag: "UnknownImportReference", reference: ref });
    return E.right({ untouched: false, value: found.value });
  }
  const rest = expr.slice(opAt + 1);
  if (expr[opAt] === "=") {
    const value = found.value === undefined || found.value === null ? literal(rest, imports) : found.value;
    return E.right({ untouched: false, value });
  }
  const colon = branchColon(rest);
  const yes = colon < 0 ? rest : rest.slice(0, colon);
  const no = colon < 0 ? "" : rest.slice(colon + 1);
  return E.right({ untouched: false, value: literal(truthy(found.value) ? yes : no, imports) });
}

const stringify = (v: Json | undefined): string =>
  v === undefined || v === null ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);

function substituteString(text: string, imports: ReadonlyMap<string, ImportRecord>): E.Either<RecipeError, Json> {
  if (!text.includes("{")) return E.right(text);
  const whole = WHOLE_TOKEN.exec(text);
  if (whole !== null) {
    // a string that is one token takes the value's own JSON type
    const result = evaluate(whole[1] ?? "", imports);
    if (E.isLeft(result)) return result;
    if (result.right.untouched) return E.right(text);
    return E.right(result.right.value === undefined ? "" : result.right.value);
  }
  let problem: RecipeError | undefined;
  const out = text.replace(TOKEN, (token, expr: string) => {
    if (problem !== undefined) return token;
    const result = evaluate(expr, imports);
    if (E.isLeft(result)) {
      problem = result.left;
      return token;
    }
    return result.right.untouched ? token : stringify(result.right.value);
  });
  return problem === undefined ? E.right(out) : E.left(problem);
}

/** `value` with every import reference in every string substituted; unchanged parts keep their identity. */
export function substituteReferences(value: Json, imports: ReadonlyMap<string, ImportRecord>): E.Either<RecipeError, Json> {
  if (imports.size === 0) return E.right(value);
  if (typeof value === "string") return substituteString(value, imports);
  if (Array.isArray(value)) {
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = substituteReferences(value[i] as Json, imports);
      if (E.isLeft(item)) return item;
      if (item.right !== value[i]) (out ??= value.slice())[i] = item.right;
    }
    return E.right(out ?? value);
  }
  if (isPlainObject(value)) {
    const object = value as JsonObject;
    let changed = false;
    const out: Record<string, Json> = {};
    for (const key of Object.keys(object)) {
      const item = substituteReferences(object[key] as Json, imports);
      if (E.isLeft(item)) return item;
      if (item.right !== object[key]) changed = true;
      setOwn(out, key, item.right);
    }
    return E.right(changed ? out : object);
  }
  return E.right(value);
}
