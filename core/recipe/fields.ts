// One io-ts codec per recipe field (registry-reference §2.1). The reference silently drops a
// mistyped field, which turns a typo into a recipe that behaves differently from what was written;
// here a mistyped field makes the recipe invalid with a message naming the field and its location.
import * as t from "io-ts";
import type { Json, JsonObject } from "../model.js";

/** Deeper nesting than this is refused up front, so no later recursive walk can exhaust the stack. */
export const MAX_JSON_DEPTH = 512;

export const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

export function isPlainObject(u: unknown): u is Readonly<Record<string, unknown>> {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return false;
  const proto: unknown = Object.getPrototypeOf(u);
  return proto === Object.prototype || proto === null;
}

export interface JsonFault {
  /** path segments from the checked value down to the fault */
  readonly at: readonly (string | number)[];
  readonly reason: "not-json" | "too-deep";
  readonly value: unknown;
}

/** Where `u` stops being plain JSON data (or nests too deep; this also catches cycles), if anywhere. */
export function jsonFault(u: unknown, depth = 0): JsonFault | undefined {
  if (u === null || typeof u === "string" || typeof u === "boolean") return undefined;
  if (typeof u === "number") return Number.isFinite(u) ? undefined : { at: [], reason: "not-json", value: u };
  if (depth >= MAX_JSON_DEPTH) return { at: [], reason: "too-deep", value: u };
  if (Array.isArray(u)) {
    for (let i = 0; i < u.length; i++) {
      const inner = jsonFault(u[i], depth + 1);
      if (inner !== undefined) return { ...inner, at: [i, ...inner.at] };
    }
    return undefined;
  }
  if (!isPlainObject(u)) return { at: [], reason: "not-json", value: u };
  for (const key of Object.keys(u)) {
    const inner = jsonFault(u[key], depth + 1);
    if (inner !== undefined) return { ...inner, at: [key, ...inner.at] };
  }
  return undefined;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(root: string, segments: readonly (string | number)[]): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += IDENT.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** A short name for what was found, for "(got ...)" messages. */
export function kindOf(u: unknown): string {
  if (u === null) return "null";
  if (Array.isArray(u)) return "array";
  if (typeof u === "object") return isPlainObject(u) ? "object" : "non-JSON object";
  return typeof u;
}

const refine = <A>(name: string, is: (u: unknown) => u is A): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);

export const jsonValue = refine<Json>("Json", (u): u is Json => jsonFault(u) === undefined);
export const jsonObject = refine<JsonObject>("JsonObject", (u): u is JsonObject => isPlainObject(u) && jsonFault(u) === undefined);

const numberOrString = t.union([t.number, t.string]);
const mailboxEntries = t.readonlyArray(t.union([t.string, t.type({ type: t.string })]));

export interface FieldSpec<A> {
  readonly codec: t.Type<A, unknown, unknown>;
  /** completes `field "x" must be ...` */
  readonly expected: string;
  /** show a primitive offending value itself rather than its kind (enumerations) */
  readonly quoteGot?: boolean;
}

const spec = <A>(codec: t.Type<A, unknown, unknown>, expected: string, quoteGot = false): FieldSpec<A> =>
  quoteGot ? { codec, expected, quoteGot } : { codec, expected };

/** Every known field in the order of registry-reference §2.1; validation reports the first mistyped one. */
export const RECIPE_FIELDS = {
  template: spec(t.union([t.string, t.readonlyArray(jsonValue), jsonObject]), "a non-empty command string, sequence or object"),
  description: spec(t.string, "a string"),
  disabled: spec(t.boolean, "a boolean"),
  async: spec(t.boolean, "a boolean"),
  imports: spec(jsonObject, "an object"),
  args: spec(t.readonlyArray(t.string), "an array of strings"),
  // what each argument means, by name: becomes the argument's description in the tool schema
  arg_descriptions: spec(t.record(t.string, t.string), "an object of strings"),
  defaults: spec(jsonObject, "an object"),
  values: spec(jsonObject, "an object"),
  parallel: spec(t.boolean, "a boolean"),
  concurrency: spec(numberOrString, "a number or a string"),
  min_successful: spec(numberOrString, "a number or a string"),
  timeout: spec(numberOrString, "a number or a string"),
  delay: spec(numberOrString, "a number or a string"),
  retry: spec(numberOrString, "a number or a string"),
  label: spec(t.string, "a string"),
  when: spec(t.union([t.string, t.boolean]), "a string or a boolean"),
  accept_output: spec(t.literal("review_evidence"), `"review_evidence"`, true),
  output: spec(t.string, "a string"),
  failure: spec(t.keyof({ continue: null, branch: null, root: null }), `one of "continue", "branch", "root"`, true),
  recover: spec(jsonValue, "a command template"),
  repeat: spec(numberOrString, "a number or a string"),
  artifacts: spec(t.record(t.string, t.string), "an object of strings"),
  mailbox: spec(
    t.intersection([jsonObject, t.partial({ accepts: mailboxEntries, emits: mailboxEntries })]),
    "an object whose accepts/emits are arrays of strings or of objects with a string type",
  ),
  retire_when: spec(t.literal("children_terminal"), `"children_terminal"`, true),
  usage: spec(jsonObject, "an object"),
  actor_context: spec(t.union([t.literal(false), t.literal("off")]), `false or "off"`, true),
};

export type FieldName = keyof typeof RECIPE_FIELDS;
export type FieldValues = { -readonly [K in FieldName]?: (typeof RECIPE_FIELDS)[K] extends FieldSpec<infer A> ? A : never };
export const FIELD_ORDER = Object.keys(RECIPE_FIELDS) as FieldName[];

/** Tags of io-ts codecs whose context entries name a member rather than a location. */
const MEMBER_TAGS = new Set(["UnionType", "IntersectionType"]);
const INDEX_TAGS = new Set(["ArrayType", "ReadonlyArrayType"]);
const tagOf = (d: t.Decoder<unknown, unknown>): string | undefined => (d as { readonly _tag?: string })._tag;

/** The deepest failure of a decode, as a path below `field` and the value found there. */
export function locateFailure(field: string, errors: t.Errors): { path: string; value: unknown } {
  let best: t.ValidationError | undefined;
  for (const e of errors) if (best === undefined || e.context.length > best.context.length) best = e;
  if (best === undefined) return { path: field, value: undefined };
  const segments: (string | number)[] = [];
  for (let i = 1; i < best.context.length; i++) {
    const parent = best.context[i - 1];
    const entry = best.context[i];
    if (parent === undefined || entry === undefined) continue;
    const tag = tagOf(parent.type);
    if (tag !== undefined && MEMBER_TAGS.has(tag)) continue;
    segments.push(tag !== undefined && INDEX_TAGS.has(tag) ? Number(entry.key) : entry.key);
  }
  return { path: formatPath(field, segments), value: best.value };
}

const MAX_SHOWN = 40;

/** `(got string)`, `(got "stop")`, `(got number at mailbox.accepts[0])`. */
export function gotText(field: string, path: string, value: unknown, quote: boolean): string {
  let shown = kindOf(value);
  if (quote && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) {
    const text = JSON.stringify(value);
    shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  }
  return path === field ? `(got ${shown})` : `(got ${shown} at ${path})`;
}
