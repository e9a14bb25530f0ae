// The public argument surface of a recipe:
// which names a tool takes, their types, which are required, and the tool-level defaults.
import { addNew } from "../unique-list.js";
import * as E from "fp-ts/lib/Either.js";
import type { ArgType, Json, JsonObject } from "../model.js";
import type { ArgSurface } from "../tool/tool-spec.js";
import { isObject } from "../template/graph.js";
import { eachPlaceholder, isIdentifier, isRepeatName, parsePlaceholder } from "../template/placeholder.js";
import { parseArgType } from "./arg-type.js";
import { setOwn } from "../recipe/own.js";
import { compact } from "../compact.js";
import { parseDeclaration, storedDefaults } from "./declarations.js";
import { FIELD } from "../recipe/fields.js";
import { whenLiteral } from "../template/controls.js";

export interface ArgInput {
  /** the recipe's explicit `args` declarations */
  readonly args?: readonly string[];
  /** the recipe's top-level `defaults` */
  readonly defaults?: JsonObject;
  /** the template graph (or the template envelope) */
  readonly template: Json;
}

const CONTROL_TEXT_FIELDS = [FIELD.timeout, FIELD.delay, FIELD.retry, FIELD.repeat] as const;
const BARE_WHEN = /^!?\s*([A-Za-z_][A-Za-z0-9_-]*)$/;

const stringList = (v: Json | undefined): readonly string[] | undefined =>
  Array.isArray(v) && v.every((x: Json) => typeof x === "string") ? (v as readonly string[]) : undefined;

/** Explicit declarations: the recipe's `args`, else the ones written on the root node. */
function explicitArgs(input: ArgInput): readonly string[] | undefined {
  if (input.args !== undefined) return input.args;
  return isObject(input.template) ? stringList(input.template["args"]) : undefined;
}

/** What the template graph says about arguments, in walk order. Built by one walk, here
 * or in the recipe survey (core/recipe/survey.ts), which shares these steps. */
export interface GraphFacts {
  readonly names: string[];
  /** last non-string annotation per name (created on first need: most graphs have none) */
  types: Map<string, ArgType> | undefined;
  /** names with some default or fallback somewhere */
  optional: Set<string> | undefined;
  /** names with an array default somewhere in the graph */
  arrayDefaults: Set<string> | undefined;
  /** the first inline default of each name (`{count:int=5}`), shown in the schema and usage hint */
  inlineDefaults: Map<string, string> | undefined;
  /** the first type other than `string` an object node's `args` declares for each name: a node
   * placed from an imported component (`{"name": "alias"}`) carries the component's `args` */
  nodeTypes: Map<string, ArgType> | undefined;
  /** the first default an object node gives each name (its `defaults`, then its `args` tokens),
   * shown in the schema and usage hint; a default that is itself a placeholder is not */
  nodeDefaults: Map<string, string> | undefined;
}

export const emptyGraphFacts = (): GraphFacts =>
  ({ names: [], types: undefined, optional: undefined, arrayDefaults: undefined, inlineDefaults: undefined, nodeTypes: undefined, nodeDefaults: undefined });

function noteNodeDefault(facts: GraphFacts, name: string, value: Json | undefined): void {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return;
  const text = String(value);
  if (text.includes("{") || facts.nodeDefaults?.has(name) === true) return;
  (facts.nodeDefaults ??= new Map()).set(name, text);
}

/** The arguments one text of the graph (a leaf, a control value) mentions. */
export function scanText(text: string, facts: GraphFacts): void {
  eachPlaceholder(text, notePlaceholder, facts);
}

function notePlaceholder(content: string, facts: GraphFacts): undefined {
  const p = parsePlaceholder(content);
  switch (p.kind) {
    case "nullish":
      declare(facts, p.name, undefined, true);
      break;
    case "ternary":
      if (p.name !== undefined) declare(facts, p.name, BOOL, true);
      break;
    case "simple":
      if (isRepeatName(p.name)) break;
      declare(facts, p.name, p.typed ? p.type : undefined, p.default !== undefined);
      if (p.default !== undefined && facts.inlineDefaults?.has(p.name) !== true) (facts.inlineDefaults ??= new Map()).set(p.name, p.default);
      break;
    // the other forms (index, length, expressions) name no argument
  }
  return undefined;
}

const BOOL: ArgType = { kind: "bool" };

function declare(facts: GraphFacts, name: string, type: ArgType | undefined, optional: boolean): void {
  addNew(facts.names, name);
  if (type !== undefined && type.kind !== "string") (facts.types ??= new Map()).set(name, type);
  if (optional) (facts.optional ??= new Set()).add(name);
}

/** An object node's own `defaults` and `args` defaults (before its children are walked). */
export function noteNodeDefaults(node: JsonObject, facts: GraphFacts): void {
  const defaults = node["defaults"];
  if (isObject(defaults)) {
    for (const k of Object.keys(defaults)) {
      (facts.optional ??= new Set()).add(k);
      if (Array.isArray(defaults[k])) (facts.arrayDefaults ??= new Set()).add(k);
      noteNodeDefault(facts, k, defaults[k]);
    }
  }
  const args = stringList(node["args"]);
  if (args === undefined) return;
  for (const token of args) {
    const d = parseDeclaration(token);
    if (d.name === "") continue;
    if (d.default !== undefined) {
      (facts.optional ??= new Set()).add(d.name);
      noteNodeDefault(facts, d.name, d.default);
    }
    if (d.type.kind !== "string" && facts.nodeTypes?.has(d.name) !== true) (facts.nodeTypes ??= new Map()).set(d.name, d.type);
  }
}

/** An object node's control texts and `when` (after its children are walked). */
export function noteNodeControls(node: JsonObject, facts: GraphFacts): void {
  for (const field of CONTROL_TEXT_FIELDS) {
    const v = node[field];
    if (typeof v === "string") scanText(v, facts);
  }
  const when = node[FIELD.when];
  if (typeof when === "string" && whenLiteral(when.trim()) === undefined) {
    const bare = BARE_WHEN.exec(when.trim());
    if (bare !== null && bare[1] !== undefined) declare(facts, bare[1], BOOL, true);
    else scanText(when, facts);
  }
}

/** The names of the argument surface (surfaceOf(input, facts).names), without the rest of it. */
export function surfaceNames(input: ArgInput, facts: GraphFacts): string[] {
  const explicit = explicitArgs(input);
  if (explicit === undefined) return facts.names;
  const names: string[] = [];
  for (const token of explicit) {
    const name = parseDeclaration(token).name;
    if (name !== "") addNew(names, name);
  }
  for (const n of facts.names) addNew(names, n);
  return names;
}

/** The argument surface: explicit names first, then placeholder names in walk order; explicit
 * types beat those an inner node's `args` declare, which beat inline ones; any default or
 * fallback anywhere makes a name optional. `facts`: what the template survey
 * (core/compile/template-survey.ts) gathered from `input.template`. */
export function surfaceOf(input: ArgInput, facts: GraphFacts, descriptions?: Readonly<Record<string, string>>): ArgSurface {
  // every recipe of a discovery gets one and keeps it: nothing is built that stays empty (the
  // empty parts are shared, frozen), and nothing is built only to be thrown away
  let names: string[] = facts.names;
  // names with an explicit type, and those types (a recipe declares a handful: arrays, not a Map)
  let explicitTyped: string[] | undefined;
  let explicitTypes: ArgType[] | undefined;
  let explicitOptional: string[] | undefined;
  let declaredDefaults: Record<string, string> | undefined;
  let types: Record<string, ArgType> | undefined;
  const explicit = explicitArgs(input);
  if (explicit !== undefined) {
    names = [];
    for (let i = 0; i < explicit.length; i++) {
      const d = parseDeclaration(explicit[i]!);
      if (d.name === "" || names.includes(d.name)) continue;
      names.push(d.name);
      // an explicit type the registry cannot read does not override a readable inline one
      if (d.typeText !== undefined && parseArgType(d.typeText) !== undefined) {
        (explicitTyped ??= []).push(d.name);
        (explicitTypes ??= []).push(d.type);
      }
      if (d.default !== undefined) {
        (explicitOptional ??= []).push(d.name);
        setOwn((declaredDefaults ??= {}), d.name, d.default);
      }
    }
    for (let i = 0; i < facts.names.length; i++) addNew(names, facts.names[i]!);
  }
  // a node's default applies before an inline one wherever the node reaches
  for (const shown of [facts.nodeDefaults, facts.inlineDefaults]) {
    if (shown === undefined) continue;
    for (const [name, value] of shown) {
      if (declaredDefaults === undefined || !hasOwn(declaredDefaults, name)) setOwn((declaredDefaults ??= {}), name, value);
    }
  }
  const defaults = input.defaults;
  let required: string[] | undefined;
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    const at = explicitTyped === undefined ? -1 : explicitTyped.indexOf(n);
    const t = at >= 0 ? explicitTypes![at] : facts.nodeTypes?.get(n) ?? facts.types?.get(n);
    if (t !== undefined && t.kind !== "string") setOwn((types ??= {}), n, t);
    const optional = facts.optional?.has(n) === true || explicitOptional?.includes(n) === true || (defaults !== undefined && hasOwn(defaults, n));
    if (!optional) (required ??= []).push(n);
  }
  // the key order is the published one: names, required, types, defaults, declaredDefaults, descriptions
  const surface: { -readonly [K in keyof ArgSurface]: ArgSurface[K] } = {
    names: compact(names),
    required: required === undefined ? NO_NAMES : compact(required),
    types: types ?? NO_TYPES,
    defaults: defaults === undefined ? NO_DEFAULTS : storedDefaults(defaults),
  };
  if (declaredDefaults !== undefined) surface.declaredDefaults = declaredDefaults;
  if (descriptions !== undefined) surface.descriptions = descriptions;
  return surface;
}

const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_TYPES: Readonly<Record<string, ArgType>> = Object.freeze({});
const NO_DEFAULTS: ArgSurface["defaults"] = Object.freeze({});

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

const DIGITS = /^\d+$/;
const LENGTH_REF = /^(?:\{([A-Za-z_][A-Za-z0-9_-]*)\.length\}|([A-Za-z_][A-Za-z0-9_-]*)\.length)$/;

export const REPEAT_SAFETY_ERROR =
  "Command template repeat must be a positive integer or {array.length} with an array argument/default.";

/** A string `repeat` that cannot be trusted to be a count: `repeat` is the text as written. */
export interface UnsafeRepeat {
  readonly _tag: "UnsafeRepeat";
  readonly repeat: string;
}

/** The text of an unsafe repeat (fixed: recipes and agents match on it). */
export const unsafeRepeatText = (_e: UnsafeRepeat): string => REPEAT_SAFETY_ERROR;

/** Every string `repeat` must be digits or `{name.length}` over a name declared `:array` in the
 * explicit `args` or given an array default; an inline `{name:array}` is not enough, because
 * nothing else guarantees the value reaches the repeat as an array. `texts` and `facts` come from
 * the template survey. */
export function repeatSafetyOf(input: ArgInput, texts: readonly string[], facts: GraphFacts): E.Either<UnsafeRepeat, void> {
  if (texts.length === 0) return E.right(undefined);
  const arrays = new Set(facts.arrayDefaults);
  for (const token of explicitArgs(input) ?? []) {
    const d = parseDeclaration(token);
    if (d.type.kind === "array") arrays.add(d.name);
  }
  for (const [k, v] of Object.entries(input.defaults ?? {})) if (Array.isArray(v)) arrays.add(k);
  for (const text of texts) {
    if (DIGITS.test(text)) continue;
    const m = LENGTH_REF.exec(text);
    const name = m?.[1] ?? m?.[2];
    if (name === undefined || !isIdentifier(name) || !arrays.has(name)) return E.left({ _tag: "UnsafeRepeat", repeat: text });
  }
  return E.right(undefined);
}
