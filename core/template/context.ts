// What a node of a command template inherits from its parent during a call: the `args`
// declarations (replaced by a child that declares its own) and the `defaults` (merged, the
// child's win), and the value scopes a leaf and a node's controls see. See docs/templates.md.
import type { Json, JsonObject } from "../model.js";
import { MISMATCH, normalizeRaw } from "../args/arg-type.js";
import { parseDeclaration, storedDefault } from "../args/declarations.js";
import { setOwn } from "../recipe/own.js";
import { isObject } from "./graph.js";
import type { IndexRef } from "./placeholder.js";
import { parsePlaceholder } from "./placeholder.js";
import type { Scope, Values } from "./substitute.js";
import { EMPTY_VALUES, Origin, scopeOf, verbatim } from "./substitute.js";

/** What a node passes to its children: `args` (replaced by a child that declares its own) and
 * `defaults` (merged, the child's win). */
export interface Context {
  readonly args: readonly string[] | undefined;
  readonly defaults: Values;
  /** the caller's cache, shared by every context of the run */
  readonly cache: ContextCache;
}

/** Parsed defaults, keyed by the JSON objects of the recipe, which live as long as its revision:
 * parsing and normalizing them happens once, not on every call. The caller owns it (one per
 * execution, or one kept across calls), so two registries never share one. */
export interface ContextCache {
  readonly ownDefaults: WeakMap<JsonObject, OwnDefaults>;
  readonly argDefaults: WeakMap<readonly string[], Values>;
  readonly merges: WeakMap<Values, WeakMap<Values, Values>>;
  /** defaults objects that live as long as the recipe; merges are cached only under these, so a
   * context rebuilt for one call (after pre-resolution) does not grow the cache */
  readonly stable: WeakSet<Values>;
}

export const createContextCache = (): ContextCache =>
  ({ ownDefaults: new WeakMap(), argDefaults: new WeakMap(), merges: new WeakMap(), stable: new WeakSet([EMPTY_VALUES]) });

/** The context of a template's root node. */
export const rootContext = (cache: ContextCache = createContextCache()): Context => ({ args: undefined, defaults: EMPTY_VALUES, cache });

// runs for every object node of every call: a loop, not a closure per check
function stringList(v: Json | undefined): readonly string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  for (const x of v) if (typeof x !== "string") return undefined;
  return v as readonly string[];
}

/** A child default written as exactly `{name}` or `{name[idx]}`. */
interface Reference {
  readonly key: string;
  readonly name: string;
  readonly index: IndexRef | undefined;
}

interface OwnDefaults {
  readonly values: Values;
  readonly references: readonly Reference[];
}

const EXACT = /^\{([^{}]*)\}$/;

/** What a default written as `raw` refers to: exactly `{name}` (untyped, without a
 *  default) or `{name[idx]}` reads as the value of `name` where the node is entered. */
function referenceOf(key: string, raw: Json | undefined): Reference | undefined {
  const m = typeof raw === "string" ? EXACT.exec(raw) : null;
  if (m === null) return undefined;
  const p = parsePlaceholder(m[1] ?? "");
  if (p.kind === "simple" && !p.typed && p.default === undefined) return { key, name: p.name, index: undefined };
  if (p.kind === "index") return { key, name: p.name, index: p.index };
  return undefined;
}

/** Whether a default written as `raw` is a reference to another value rather than itself. */
export const isDefaultReference = (raw: Json | undefined): boolean => referenceOf("", raw) !== undefined;

function ownDefaultsOf(defaults: JsonObject, cache: ContextCache): OwnDefaults {
  let hit = cache.ownDefaults.get(defaults);
  if (hit !== undefined) return hit;
  const values: Record<string, unknown> = {};
  const references: Reference[] = [];
  for (const [key, raw] of Object.entries(defaults)) {
    setOwn(values, key, storedDefault(raw));
    const reference = referenceOf(key, raw);
    if (reference !== undefined) references.push(reference);
  }
  cache.stable.add(values);
  hit = { values, references };
  cache.ownDefaults.set(defaults, hit);
  return hit;
}

/** Defaults written in `args` tokens (`lang=ru`); an `:array` default that is JSON array text
 * stays an array. */
export function argDefaultsOf(args: readonly string[] | undefined, cache: ContextCache): Values {
  if (args === undefined) return EMPTY_VALUES;
  let hit = cache.argDefaults.get(args);
  if (hit !== undefined) return hit;
  const out: Record<string, unknown> = {};
  for (const token of args) {
    const d = parseDeclaration(token);
    if (d.name === "" || d.default === undefined) continue;
    const parsed = d.type.kind === "array" ? normalizeRaw(d.type, d.default) : MISMATCH;
    setOwn(out, d.name, parsed === MISMATCH ? d.default : parsed);
  }
  cache.argDefaults.set(args, out);
  return out;
}

function merged(parent: Values, own: Values, cache: ContextCache): Values {
  if (!cache.stable.has(parent)) return { ...parent, ...own };
  let inner = cache.merges.get(parent);
  if (inner === undefined) {
    inner = new WeakMap();
    cache.merges.set(parent, inner);
  }
  let hit = inner.get(own);
  if (hit === undefined) {
    hit = { ...parent, ...own };
    inner.set(own, hit);
    cache.stable.add(hit);
  }
  return hit;
}

const NOT_FOUND: unique symbol = Symbol("not found");

// Pre-resolution against (parent defaults + runtime values). What comes from the runtime layer is
// marked verbatim, so it is never expanded later from inside the defaults.
function preResolve(ref: Reference, parent: Values, runtime: Values): unknown {
  const fromRuntime = Object.hasOwn(runtime, ref.name);
  if (!fromRuntime && !Object.hasOwn(parent, ref.name)) return NOT_FOUND;
  const slot = fromRuntime ? runtime[ref.name] : parent[ref.name];
  if (ref.index === undefined) return fromRuntime && !(slot instanceof Origin) ? verbatim(slot) : slot;
  const source = slot instanceof Origin ? slot.value : slot;
  if (!Array.isArray(source)) return NOT_FOUND;
  let i: number;
  if (ref.index.kind === "position") i = ref.index.position;
  else {
    const n = ref.index.name;
    const v = Object.hasOwn(runtime, n) ? runtime[n] : Object.hasOwn(parent, n) ? parent[n] : undefined;
    i = Number(v instanceof Origin ? v.value : v);
  }
  if (!Number.isInteger(i) || i < 0 || i >= source.length) return NOT_FOUND;
  const item: unknown = source[i];
  const isAuthored = slot instanceof Origin ? slot.authored : !fromRuntime;
  return isAuthored ? item : verbatim(item);
}

/** The context of `node` under `parent` for one call (`runtime` = the call's values). */
export const nodeContext = (parent: Context, node: JsonObject, runtime: Values): Context =>
  contextOf(parent, stringList(node["args"]), isObject(node["defaults"]) ? node["defaults"] : undefined, runtime);

/** The context of a node declaring `ownArgs` (a list of strings) and `rawDefaults` (an object)
 * under `parent`, for one call. */
export function contextOf(parent: Context, ownArgs: readonly string[] | undefined, rawDefaults: JsonObject | undefined, runtime: Values): Context {
  const args = ownArgs ?? parent.args;
  const cache = parent.cache;
  if (rawDefaults === undefined) return args === parent.args ? parent : { args, defaults: parent.defaults, cache };
  const own = ownDefaultsOf(rawDefaults, cache);
  let values: Record<string, unknown> | undefined;
  for (const ref of own.references) {
    const v = preResolve(ref, parent.defaults, runtime);
    if (v === NOT_FOUND) continue;
    values ??= { ...own.values };
    setOwn(values, ref.key, v);
  }
  return { args, defaults: values === undefined ? merged(parent.defaults, own.values, cache) : { ...parent.defaults, ...values }, cache };
}

/** Values of a leaf: runtime → context defaults → `args` token defaults. */
export const leafScope = (context: Context, runtime: Values): Scope => scopeOf(runtime, context.defaults, argDefaultsOf(context.args, context.cache));

/** Control values of a node (delay, when, timeout, ...): runtime → context defaults. */
export const controlScope = (context: Context, runtime: Values): Scope => scopeOf(runtime, context.defaults);
