// Argument declarations `name[:type][=default]`:
// one declaration, the register_tool shorthand string, and stored `args` lists.
import * as E from "fp-ts/lib/Either.js";
import { memoizeString } from "../memo.js";
import { setOwn } from "../recipe/own.js";
import type { ArgType, Json, JsonObject } from "../model.js";
import { STRING, argKindLabel, canonicalDeclaration, isValidDefault, parseArgType } from "./arg-type.js";

/** A default value as the registry keeps it: text, except that arrays stay arrays. */
export type ArgDefault = string | readonly Json[];

export interface Declaration {
  readonly name: string;
  /** the effective type; unknown type text falls back to string */
  readonly type: ArgType;
  /** the type text as written after `:`, when there was one */
  readonly typeText?: string;
  readonly default?: string;
  /** the canonical stored form, without the default */
  readonly canonical: string;
}

const hasSpace = (s: string): boolean => /\s/.test(s);


/** Parses one declaration. The default starts after the first `=` (so it may hold `=` and `:`).
 * A name with inner whitespace before the colon (`a : path`) makes the whole name part the
 * name (existing recipes rely on this reading), rather than guessing at what was meant. */
export const parseDeclaration: (text: string) => Declaration = memoizeString(parseDeclarationUncached);

function parseDeclarationUncached(text: string): Declaration {
  const eq = text.indexOf("=");
  const namePart = (eq < 0 ? text : text.slice(0, eq)).trim();
  const dflt = eq < 0 ? undefined : text.slice(eq + 1).trim();
  const colon = namePart.indexOf(":");
  const literal = colon < 0 || hasSpace(namePart.slice(0, colon));
  const name = literal ? namePart : namePart.slice(0, colon);
  const typeText = literal ? undefined : namePart.slice(colon + 1);
  const type = typeText === undefined ? STRING : parseArgType(typeText) ?? STRING;
  const writtenString = typeText !== undefined && typeText.trim() === "string";
  return {
    name,
    type,
    ...(typeText === undefined ? {} : { typeText }),
    ...(dflt === undefined ? {} : { default: dflt }),
    canonical: canonicalDeclaration(name, type, writtenString),
  };
}

/** Whether a declaration names a type the registry does not know (it is treated as string). */
export const hasUnknownType = (d: Declaration): boolean =>
  d.typeText !== undefined && parseArgType(d.typeText) === undefined;

/** The one message for a declaration of an unknown type, whether a recipe file or a
 * register_tool call wrote it: the type as written and the valid ones. */
export const unknownTypeMessage = (d: Declaration): string =>
  `field "args" declares unknown type "${d.typeText ?? ""}" for ${d.name}; use string, path, int, number, bool, array or enum(a,b)`;

/** Splits on commas outside parentheses and brackets, so `mode:enum(a,b)` and
 * `items:array=["a","b"]` each stay one item. */
export function splitDeclarationList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let item = "";
  for (const c of text) {
    if (c === "(" || c === "[") depth += 1;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    if (c === "," && depth === 0) {
      items.push(item);
      item = "";
    } else item += c;
  }
  items.push(item);
  return items.map((i) => i.trim()).filter((i) => i !== "");
}

export interface ParsedArgs {
  /** canonical declarations, in order, as register_tool persists them */
  readonly declarations: readonly string[];
  readonly names: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
  /** types written explicitly (including a written `:string`) */
  readonly types: ReadonlyMap<string, ArgType>;
}

/** Why an `args` shorthand cannot be stored. */
export type ShorthandError =
  | { readonly _tag: "NoName"; readonly item: string }
  | { readonly _tag: "InvalidDefault"; readonly name: string; readonly type: ArgType }
  | { readonly _tag: "UnknownType"; readonly declaration: Declaration }
  | { readonly _tag: "Duplicates"; readonly names: readonly string[] };

/** The text of a shorthand error, as register_tool answers it. */
export function shorthandErrorText(e: ShorthandError): string {
  switch (e._tag) {
    case "NoName":
      return `Invalid argument declaration: ${e.item}`;
    case "InvalidDefault":
      return `Invalid default for ${e.name}:${argKindLabel(e.type)}`;
    case "UnknownType":
      return unknownTypeMessage(e.declaration);
    case "Duplicates":
      return `Duplicate argument name(s): ${e.names.join(", ")}`;
  }
}

/** The register_tool `args` shorthand, e.g. `file:path, lang=ru, mode:enum(a,b)=a`.
 * `""` is an explicit empty list. Errors: the first unknown type or invalid default, else all
 * duplicates. */
export function parseArgsShorthand(text: string): E.Either<ShorthandError, ParsedArgs> {
  const declarations: string[] = [];
  const names: string[] = [];
  const defaults: Record<string, string> = {};
  const types = new Map<string, ArgType>();
  const duplicates: string[] = [];
  for (const item of splitDeclarationList(text)) {
    const d = parseDeclaration(item);
    if (d.name === "") return E.left({ _tag: "NoName", item });
    if (d.default !== undefined && !isValidDefault(d.type, d.default)) return E.left({ _tag: "InvalidDefault", name: d.name, type: d.type });
    // an unknown type would be stored as a string argument without a word: refuse it as a
    // recipe file declaring it is refused
    if (hasUnknownType(d)) return E.left({ _tag: "UnknownType", declaration: d });
    if (names.includes(d.name)) {
      if (!duplicates.includes(d.name)) duplicates.push(d.name);
      continue;
    }
    names.push(d.name);
    declarations.push(d.canonical);
    if (d.default !== undefined) setOwn(defaults, d.name, d.default);
    if (d.typeText !== undefined) types.set(d.name, d.type);
  }
  if (duplicates.length > 0) return E.left({ _tag: "Duplicates", names: duplicates });
  return E.right({ declarations, names, defaults, types });
}

/** A default as stored and used at runtime: arrays stay arrays, everything else becomes text
 * (`null` → `""`, objects → `[object Object]`, as `String()` does). */
export function storedDefault(value: Json): ArgDefault {
  if (Array.isArray(value)) return value;
  if (value === null) return "";
  return String(value);
}

export function storedDefaults(defaults: JsonObject | undefined): Record<string, ArgDefault> {
  const out: Record<string, ArgDefault> = {};
  if (defaults === undefined) return out;
  for (const [k, v] of Object.entries(defaults)) setOwn(out, k, storedDefault(v));
  return out;
}

export interface StoredArgs {
  readonly args: readonly string[];
  readonly defaults: Readonly<Record<string, ArgDefault>>;
}

/** Normalizes a stored `args` list with its `defaults`: canonical declarations, the first
 * declaration of a name wins, later duplicates are dropped silently, and a stored default beats a
 * default written in a declaration. */
export function normalizeStoredArgs(args: readonly string[], defaults?: JsonObject): StoredArgs {
  const out: string[] = [];
  const seen = new Set<string>();
  const merged = storedDefaults(defaults);
  for (const token of args) {
    const d = parseDeclaration(token);
    if (d.name === "" || seen.has(d.name)) continue;
    seen.add(d.name);
    out.push(d.canonical);
    if (d.default !== undefined && !Object.hasOwn(merged, d.name)) setOwn(merged, d.name, d.default);
  }
  return { args: out, defaults: merged };
}
