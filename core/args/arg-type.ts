// Argument types, described once. Every behaviour
// that depends on a type — runtime normalization, JSON schema property, usage-hint sample,
// default validity, declaration text — is read from the one table below, so adding or changing
// a type is a single edit and the interpreters can never disagree.
import * as E from "fp-ts/lib/Either.js";
import type { ArgType, Json, JsonObject } from "../model.js";
import { memoizeString } from "../memo.js";

export type ArgKind = ArgType["kind"];
type TypeOf<K extends ArgKind> = Extract<ArgType, { readonly kind: K }>;

/** Marks a value that does not belong to a type; a sentinel rather than a wrapper because
 * normalization runs on every tool call. */
export const MISMATCH: unique symbol = Symbol("mismatch");
/** the normalized value, or MISMATCH */
type Normalized = unknown;
type Normalizer<K extends ArgKind> = (value: unknown, type: TypeOf<K>) => Normalized;

interface ArgTypeDescription<K extends ArgKind> {
  readonly normalize: Normalizer<K>;
  /** tail of `Argument <n> must ...` */
  readonly mismatch: (type: TypeOf<K>) => string;
  /** word in the schema description, `<Title> argument: <n>`; undefined for plain strings */
  readonly title: string | undefined;
  readonly schema: (type: TypeOf<K>) => JsonObject;
  readonly sample: (name: string, type: TypeOf<K>) => Json;
  /** whether a textual default (register_tool shorthand) is acceptable */
  readonly acceptsDefault: (text: string, type: TypeOf<K>) => boolean;
  readonly text: (type: TypeOf<K>) => string;
}

const INT = /^-?\d+$/;
// An exponent is accepted on input (`1e3`), and rewritten in plain decimal notation before it
// reaches a command.
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(["true", "1", "yes"]);
const FALSE_WORDS = new Set(["false", "0", "no"]);

const textual = <K extends ArgKind>(kind: K, title: string | undefined, sample: (name: string) => string): ArgTypeDescription<K> => ({
  normalize: (v) => String(v),
  mismatch: () => "be a string.",
  title,
  schema: () => ({ type: "string" }),
  sample: (name) => sample(name),
  acceptsDefault: () => true,
  text: () => kind,
});

function normalizeInt(v: unknown): Normalized {
  // BigInt prints every digit (String(1e21) would be `1e+21`, which is not an integer text)
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v).toString() : MISMATCH;
  if (typeof v !== "string") return MISMATCH;
  const t = v.trim();
  return INT.test(t) ? t : MISMATCH;
}

/** Plain decimal notation (`1000`, `0.00000015`), as commands expect numbers: the shortest
 * text of the number with its decimal point moved instead of an exponent. JavaScript writes a
 * number with an exponent only from 1e21 up and below 1e-6, so the point always lands before
 * the first digit or after the last one. */
function plainDecimal(n: number): Normalized {
  if (!Number.isFinite(n)) return MISMATCH;
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (m === null) return text;
  const digits = m[2]! + (m[3] ?? "");
  const point = m[2]!.length + Number(m[4]);
  return m[1]! + (point < 0 ? `0.${"0".repeat(-point)}${digits}` : digits + "0".repeat(point - digits.length));
}

function normalizeNumber(v: unknown): Normalized {
  if (typeof v === "number") return plainDecimal(v);
  if (typeof v !== "string") return MISMATCH;
  const t = v.trim();
  if (!NUMBER.test(t)) return MISMATCH;
  return /e/i.test(t) ? plainDecimal(Number(t)) : t;
}

function normalizeBool(v: unknown): Normalized {
  if (typeof v === "boolean") return v ? "true" : "false";
  // numbers are rejected on purpose: only words and JSON booleans are accepted
  if (typeof v !== "string") return MISMATCH;
  const t = v.trim().toLowerCase();
  if (TRUE_WORDS.has(t)) return "true";
  if (FALSE_WORDS.has(t)) return "false";
  return MISMATCH;
}

function normalizeArray(v: unknown): Normalized {
  if (Array.isArray(v)) return v;
  if (typeof v !== "string") return MISMATCH;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : MISMATCH;
  } catch {
    return MISMATCH;
  }
}

/** A relative path that starts with `-` would be read as an option by most commands; `./-x` names
 *  the same file and cannot be. An empty path names no file, and an empty word leaves the command
 *  line altogether: `sort -o {out} {file}` with `out=""` would run `sort -o notes.txt` and empty
 *  the file it was to read. It is refused. */
function normalizePath(v: unknown): Normalized {
  const text = String(v);
  if (text === "") return MISMATCH;
  return text.startsWith("-") ? `./${text}` : text;
}

const TABLE: { readonly [K in ArgKind]: ArgTypeDescription<K> } = {
  string: textual("string", undefined, (name) => `<${name}>`),
  path: {
    ...textual("path", "Path", (name) => `./${name}`),
    normalize: normalizePath,
    mismatch: () => "be a non-empty path.",
    acceptsDefault: (text) => text !== "",
  },
  int: {
    normalize: normalizeInt,
    mismatch: () => "be an integer.",
    title: "Int",
    schema: () => ({ type: "integer" }),
    sample: () => 1,
    acceptsDefault: (text) => normalizeInt(text) !== MISMATCH,
    text: () => "int",
  },
  number: {
    normalize: normalizeNumber,
    mismatch: () => "be a number.",
    title: "Number",
    schema: () => ({ type: "number" }),
    sample: () => 1.5,
    acceptsDefault: (text) => normalizeNumber(text) !== MISMATCH,
    text: () => "number",
  },
  bool: {
    normalize: normalizeBool,
    mismatch: () => "be a boolean.",
    title: "Bool",
    schema: () => ({ type: "boolean" }),
    sample: () => true,
    acceptsDefault: (text) => normalizeBool(text) !== MISMATCH,
    text: () => "bool",
  },
  array: {
    normalize: normalizeArray,
    mismatch: () => "be an array.",
    title: "Array",
    schema: () => ({ items: {}, type: "array" }),
    sample: (name) => [`<${name}>`],
    // a default must be JSON array text (not any text): tool defaults are normalized like call values, so a
    // default that is not JSON array text would make every call without the argument fail
    acceptsDefault: (text) => normalizeArray(text) !== MISMATCH,
    text: () => "array",
  },
  enum: {
    normalize: (v, t) => (t.values.includes(String(v)) ? v : MISMATCH),
    mismatch: (t) => `be one of: ${t.values.join(", ")}.`,
    title: "Enum",
    schema: (t) => ({ enum: [...t.values], type: "string" }),
    sample: (_name, t) => t.values[0] ?? "",
    acceptsDefault: (text, t) => t.values.includes(text),
    text: (t) => `enum(${t.values.join(",")})`,
  },
};

// Looking a description up by a union-typed key loses the kind/type correlation; this is the one
// place that re-establishes it.
const describe = (type: ArgType): ArgTypeDescription<ArgKind> =>
  TABLE[type.kind] as unknown as ArgTypeDescription<ArgKind>;

export const STRING: ArgType = Object.freeze({ kind: "string" });

const PLAIN_TYPES: Readonly<Record<string, ArgType>> = Object.freeze({
  string: STRING,
  path: Object.freeze({ kind: "path" }),
  int: Object.freeze({ kind: "int" }),
  number: Object.freeze({ kind: "number" }),
  bool: Object.freeze({ kind: "bool" }),
  array: Object.freeze({ kind: "array" }),
});


/** `string|path|int|number|bool|array|enum(a,b)`; enum values are trimmed and empty ones
 * dropped. Unknown text or an enum without values gives undefined. */
export const parseArgType: (text: string) => ArgType | undefined = memoizeString(parseArgTypeUncached);

function parseArgTypeUncached(text: string): ArgType | undefined {
  const t = text.trim();
  // one frozen value per plain kind: discovery reads a type for every declaration it meets
  if (Object.hasOwn(PLAIN_TYPES, t)) return PLAIN_TYPES[t];
  const m = ENUM_TYPE.exec(t);
  if (m === null) return undefined;
  const values = m[1]!.split(",").map((v) => v.trim()).filter((v) => v !== "");
  return values.length === 0 ? undefined : { kind: "enum", values };
}

const ENUM_TYPE = /^enum\((.*)\)$/s;

/** What null/undefined become: `""` for every type but `path`, which refuses them as it refuses
 *  `""` (see normalizePath). */
const absent = (type: ArgType): unknown => (type.kind === "path" ? MISMATCH : "");

/** Runtime normalization of one value, or MISMATCH: null/undefined become `""` for every
 * type but `path`. The allocation-free form for the per-call path; see normalizeArgValue. */
export function normalizeRaw(type: ArgType, value: unknown): unknown {
  if (value === null || value === undefined) return absent(type);
  return describe(type).normalize(value, type);
}

/** normalizeRaw specialised to one type, for compiling a tool's normalizer once. */
export function valueNormalizer(type: ArgType): (value: unknown) => unknown {
  const normalize = describe(type).normalize;
  const none = absent(type);
  return (value) => (value === null || value === undefined ? none : normalize(value, type));
}

export const mismatchMessage = (name: string, type: ArgType): string => `Argument ${name} must ${describe(type).mismatch(type)}`;

/** A call value that does not fit its argument's type. */
export interface ArgMismatch {
  readonly _tag: "ArgMismatch";
  readonly name: string;
  readonly type: ArgType;
}

/** The text of a mismatch, as the agent reads it. */
export const argMismatchText = (e: ArgMismatch): string => mismatchMessage(e.name, e.type);

export function normalizeArgValue(name: string, type: ArgType, value: unknown): E.Either<ArgMismatch, unknown> {
  const r = normalizeRaw(type, value);
  return r === MISMATCH ? E.left({ _tag: "ArgMismatch", name, type }) : E.right(r);
}

/** The JSON schema property the agent sees; `undefined` type means an untyped (string) argument.
 * Kept by the type's text (`""` for an untyped argument), then by the argument's name: a lookup
 * builds no key string, since every discovery builds the schema of every tool. */
const schemaProperties = new Map<string, Map<string, JsonObject>>();
let schemaPropertyCount = 0;

/** The JSON schema property of one argument. Shared and frozen: tools with the same argument
 * reuse one object instead of building thousands of identical ones. */
export function argSchemaProperty(name: string, type: ArgType | undefined): JsonObject {
  const typeText = type === undefined ? "" : formatArgType(type);
  let byName = schemaProperties.get(typeText);
  let property = byName?.get(name);
  if (property === undefined) {
    // bounded: a process that meets very many argument names starts over rather than growing
    if (schemaPropertyCount >= 8192) {
      schemaProperties.clear();
      schemaPropertyCount = 0;
      byName = undefined;
    }
    if (byName === undefined) schemaProperties.set(typeText, (byName = new Map()));
    property = Object.freeze(buildSchemaProperty(name, type));
    byName.set(name, property);
    schemaPropertyCount++;
  }
  return property;
}

function buildSchemaProperty(name: string, type: ArgType | undefined): JsonObject {
  const t = type ?? STRING;
  const d = describe(t);
  const description = d.title === undefined ? `Argument: ${name}` : `${d.title} argument: ${name}`;
  return { description, ...d.schema(t) };
}

/** The example value shown in usage hints when the tool has no default for the argument. */
export const sampleArgValue = (name: string, type: ArgType | undefined): Json => describe(type ?? STRING).sample(name, type ?? STRING);

export const isValidDefault = (type: ArgType, text: string): boolean => describe(type).acceptsDefault(text, type);

/** `int`, `enum(a,b)`, ... — the text after the colon of a declaration. */
export const formatArgType = (type: ArgType): string => describe(type).text(type);

/** The kind named in `Invalid default for <name>:<kind>` (enums say just `enum`). */
export const argKindLabel = (type: ArgType): string => type.kind;

/** Canonical declaration text; plain strings are written bare unless the author wrote `:string`
 * (an explicit `:string` is kept as written). */
export function canonicalDeclaration(name: string, type: ArgType, explicitString = false): string {
  if (type.kind === "string") return explicitString ? `${name}:string` : name;
  return `${name}:${formatArgType(type)}`;
}

/** A default as the caller would write it: `60000` and `true` rather than `"60000"` and
 * `"true"`; undefined when the default does not fit the type (then it is not shown). */
export function typedArgValue(type: ArgType | undefined, value: string | readonly Json[]): Json | undefined {
  // array values stay arrays whatever the declared type, so `{items[0]}` and `{items.length}` work
  if (Array.isArray(value)) return value;
  const t = type ?? STRING;
  const normalized = normalizeRaw(t, value);
  if (normalized === MISMATCH) return undefined;
  if (t.kind === "int" || t.kind === "number") return Number(normalized);
  if (t.kind === "bool") return normalized === "true";
  return normalized as Json;
}
