// The public argument surface of a recipe (registry-reference §4.1–§4.4, rulings 2, 3 and 7):
// which names a tool takes, their types, which are required, and the tool-level defaults.
import * as E from "fp-ts/lib/Either.js";
import type { ArgType, Json, JsonObject } from "../model.js";
import type { ArgSurface } from "../discovery/types.js";
import { isObject } from "../template/graph.js";
import { isIdentifier, isRepeatName, placeholdersOf } from "../template/placeholder.js";
import { parseArgType } from "./arg-type.js";
import { parseDeclaration, storedDefaults } from "./declarations.js";

export interface ArgInput {
  /** the recipe's explicit `args` declarations */
  readonly args?: readonly string[];
  /** the recipe's top-level `defaults` */
  readonly defaults?: JsonObject;
  /** the template graph (or the template envelope) */
  readonly template: Json;
}

const CONTROL_TEXT_FIELDS = ["timeout", "delay", "retry", "repeat"] as const;
const BARE_WHEN = /^!?\s*([A-Za-z_][A-Za-z0-9_-]*)$/;

const stringList = (v: Json | undefined): readonly string[] | undefined =>
  Array.isArray(v) && v.every((x: Json) => typeof x === "string") ? (v as readonly string[]) : undefined;

/** Explicit declarations: the recipe's `args`, else the ones written on the root node (§4.1). */
function explicitArgs(input: ArgInput): readonly string[] | undefined {
  if (input.args !== undefined) return input.args;
  return isObject(input.template) ? stringList(input.template["args"]) : undefined;
}

/** What the template graph says about arguments, in walk order (§4.2). */
interface GraphFacts {
  readonly names: string[];
  /** last non-string annotation per name */
  readonly types: Map<string, ArgType>;
  /** names with some default or fallback somewhere (ruling 3) */
  readonly optional: Set<string>;
  /** names with an array default somewhere in the graph */
  readonly arrayDefaults: Set<string>;
}

function scanText(text: string, facts: GraphFacts): void {
  for (const { placeholder: p } of placeholdersOf(text)) {
    switch (p.kind) {
      case "nullish":
        declare(facts, p.name, undefined, true);
        break;
      case "ternary":
        if (p.name !== undefined) declare(facts, p.name, { kind: "bool" }, true);
        break;
      case "simple":
        if (!isRepeatName(p.name)) declare(facts, p.name, p.typed ? p.type : undefined, p.default !== undefined);
        break;
      default:
        break;
    }
  }
}

function declare(facts: GraphFacts, name: string, type: ArgType | undefined, optional: boolean): void {
  if (!facts.names.includes(name)) facts.names.push(name);
  if (type !== undefined && type.kind !== "string") facts.types.set(name, type);
  if (optional) facts.optional.add(name);
}

function noteNodeDefaults(node: JsonObject, facts: GraphFacts): void {
  const defaults = node["defaults"];
  if (isObject(defaults)) {
    for (const [k, v] of Object.entries(defaults)) {
      facts.optional.add(k);
      if (Array.isArray(v)) facts.arrayDefaults.add(k);
    }
  }
  for (const token of stringList(node["args"]) ?? []) {
    const d = parseDeclaration(token);
    if (d.default !== undefined) facts.optional.add(d.name);
  }
}

function walk(node: Json | undefined, facts: GraphFacts): void {
  if (typeof node === "string") scanText(node, facts);
  else if (Array.isArray(node)) node.forEach((n: Json) => walk(n, facts));
  else if (isObject(node)) {
    noteNodeDefaults(node, facts);
    walk(node["template"], facts);
    walk(node["recover"], facts);
    for (const field of CONTROL_TEXT_FIELDS) {
      const v = node[field];
      if (typeof v === "string") scanText(v, facts);
    }
    const when = node["when"];
    if (typeof when === "string") {
      const bare = BARE_WHEN.exec(when.trim());
      if (bare !== null && bare[1] !== undefined) declare(facts, bare[1], { kind: "bool" }, true);
      else scanText(when, facts);
    }
  }
}

function graphFacts(template: Json): GraphFacts {
  const facts: GraphFacts = { names: [], types: new Map(), optional: new Set(), arrayDefaults: new Set() };
  walk(template, facts);
  return facts;
}

/** The argument surface (§4.2–§4.4 with rulings 2, 3, 7): explicit names first, then placeholder
 * names; explicit types beat inline ones; any default or fallback makes a name optional. */
export function analyzeArgs(input: ArgInput): ArgSurface {
  const facts = graphFacts(input.template);
  const names: string[] = [];
  const explicitTypes = new Map<string, ArgType | undefined>();
  const optional = new Set(facts.optional);
  for (const token of explicitArgs(input) ?? []) {
    const d = parseDeclaration(token);
    if (d.name === "" || names.includes(d.name)) continue;
    names.push(d.name);
    // an explicit type the registry cannot read does not override a readable inline one
    if (d.typeText !== undefined && parseArgType(d.typeText) !== undefined) explicitTypes.set(d.name, d.type);
    if (d.default !== undefined) optional.add(d.name);
  }
  for (const n of facts.names) if (!names.includes(n)) names.push(n);
  if (input.defaults !== undefined) for (const k of Object.keys(input.defaults)) optional.add(k);

  const types = new Map<string, ArgType>();
  for (const n of names) {
    const t = explicitTypes.has(n) ? explicitTypes.get(n) : facts.types.get(n);
    if (t !== undefined && t.kind !== "string") types.set(n, t);
  }
  return {
    names,
    required: names.filter((n) => !optional.has(n)),
    types,
    defaults: storedDefaults(input.defaults),
  };
}

const DIGITS = /^\d+$/;
const LENGTH_REF = /^(?:\{([A-Za-z_][A-Za-z0-9_-]*)\.length\}|([A-Za-z_][A-Za-z0-9_-]*)\.length)$/;

export const REPEAT_SAFETY_ERROR =
  "Command template repeat must be a positive integer or {array.length} with an array argument/default.";

function repeatTexts(node: Json | undefined, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n: Json) => repeatTexts(n, out));
  else if (isObject(node)) {
    const r = node["repeat"];
    if (typeof r === "string") out.push(r);
    repeatTexts(node["template"], out);
    repeatTexts(node["recover"], out);
  }
  return out;
}

/** Every string `repeat` must be digits or `{name.length}` over a name declared `:array` in the
 * explicit `args` or given an array default (§4.1); an inline `{name:array}` is not enough,
 * because nothing else guarantees the value reaches the repeat as an array. */
export function checkRepeatSafety(input: ArgInput): E.Either<string, void> {
  const texts = repeatTexts(input.template, []);
  if (texts.length === 0) return E.right(undefined);
  const arrays = new Set(graphFacts(input.template).arrayDefaults);
  for (const token of explicitArgs(input) ?? []) {
    const d = parseDeclaration(token);
    if (d.type.kind === "array") arrays.add(d.name);
  }
  for (const [k, v] of Object.entries(input.defaults ?? {})) if (Array.isArray(v)) arrays.add(k);
  for (const text of texts) {
    if (DIGITS.test(text)) continue;
    const m = LENGTH_REF.exec(text);
    const name = m?.[1] ?? m?.[2];
    if (name === undefined || !isIdentifier(name) || !arrays.has(name)) return E.left(REPEAT_SAFETY_ERROR);
  }
  return E.right(undefined);
}
