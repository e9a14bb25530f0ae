// Composition (registry-reference §3.6, §3.7): what a node inherits from its parent, the repeat
// expansion, a static walk to every leaf, and the structural check run before a template is
// accepted (registration, discovery) so that a bad template fails early with a precise text.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { MISMATCH, normalizeRaw } from "../args/arg-type.js";
import { parseDeclaration, storedDefault } from "../args/declarations.js";
import { setOwn } from "../recipe/own.js";
import { isObject } from "./graph.js";
import type { IndexRef } from "./placeholder.js";
import { hasPlaceholder, parsePlaceholder } from "./placeholder.js";
import { compileLeaf, placeholderParts, wordProblem } from "./compile.js";
import type { SplitResult } from "./split.js";
import type { Scope, Values } from "./substitute.js";
import { EMPTY_VALUES, Origin, scopeOf, valueOf, verbatim } from "./substitute.js";
import { padNumber } from "./expression.js";
import { EMPTY_COMMAND, unterminatedQuoteMessage } from "./invocation.js";
import {
  resolveConcurrency, resolveFailure, resolveMinSuccessful, resolveNumericControl, resolveRetry,
} from "./controls.js";

/** What a node passes to its children: `args` (replaced by a child that declares its own) and
 * `defaults` (merged, the child's win). */
export interface Context {
  readonly args: readonly string[] | undefined;
  readonly defaults: Values;
}

export const ROOT_CONTEXT: Context = { args: undefined, defaults: EMPTY_VALUES };

export const NO_STEPS = "Tool template produced no command steps.";

const stringList = (v: Json | undefined): readonly string[] | undefined =>
  Array.isArray(v) && v.every((x: Json) => typeof x === "string") ? (v as readonly string[]) : undefined;

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

// Keyed by the JSON objects of the recipe, which live as long as its revision: parsing and
// normalizing them happens once, not on every call.
const ownDefaultsCache = new WeakMap<JsonObject, OwnDefaults>();
const argDefaultsCache = new WeakMap<readonly string[], Values>();
const mergeCache = new WeakMap<Values, WeakMap<Values, Values>>();
// Defaults objects that live as long as the recipe; merges are cached only under these, so a
// context rebuilt for one call (after pre-resolution) does not grow the cache.
const stable = new WeakSet<Values>([EMPTY_VALUES]);

function ownDefaultsOf(defaults: JsonObject): OwnDefaults {
  let hit = ownDefaultsCache.get(defaults);
  if (hit !== undefined) return hit;
  const values: Record<string, unknown> = {};
  const references: Reference[] = [];
  for (const [key, raw] of Object.entries(defaults)) {
    setOwn(values, key, storedDefault(raw));
    const m = typeof raw === "string" ? EXACT.exec(raw) : null;
    if (m === null) continue;
    const p = parsePlaceholder(m[1] ?? "");
    if (p.kind === "simple" && !p.typed && p.default === undefined) references.push({ key, name: p.name, index: undefined });
    else if (p.kind === "index") references.push({ key, name: p.name, index: p.index });
  }
  stable.add(values);
  hit = { values, references };
  ownDefaultsCache.set(defaults, hit);
  return hit;
}

/** Defaults written in `args` tokens (`lang=ru`); an `:array` default that is JSON array text
 * stays an array (ruling 7). */
export function argDefaultsOf(args: readonly string[] | undefined): Values {
  if (args === undefined) return EMPTY_VALUES;
  let hit = argDefaultsCache.get(args);
  if (hit !== undefined) return hit;
  const out: Record<string, unknown> = {};
  for (const token of args) {
    const d = parseDeclaration(token);
    if (d.name === "" || d.default === undefined) continue;
    const parsed = d.type.kind === "array" ? normalizeRaw(d.type, d.default) : MISMATCH;
    setOwn(out, d.name, parsed === MISMATCH ? d.default : parsed);
  }
  argDefaultsCache.set(args, out);
  return out;
}

function merged(parent: Values, own: Values): Values {
  if (!stable.has(parent)) return { ...parent, ...own };
  let inner = mergeCache.get(parent);
  if (inner === undefined) {
    inner = new WeakMap();
    mergeCache.set(parent, inner);
  }
  let hit = inner.get(own);
  if (hit === undefined) {
    hit = { ...parent, ...own };
    inner.set(own, hit);
    stable.add(hit);
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
export function nodeContext(parent: Context, node: JsonObject, runtime: Values): Context {
  const args = stringList(node["args"]) ?? parent.args;
  const rawDefaults = node["defaults"];
  if (!isObject(rawDefaults)) return args === parent.args ? parent : { args, defaults: parent.defaults };
  const own = ownDefaultsOf(rawDefaults);
  let values: Record<string, unknown> | undefined;
  for (const ref of own.references) {
    const v = preResolve(ref, parent.defaults, runtime);
    if (v === NOT_FOUND) continue;
    values ??= { ...own.values };
    setOwn(values, ref.key, v);
  }
  return { args, defaults: values === undefined ? merged(parent.defaults, own.values) : { ...parent.defaults, ...values } };
}

/** Values of a leaf: runtime → context defaults → `args` token defaults. */
export const leafScope = (context: Context, runtime: Values): Scope => scopeOf(runtime, context.defaults, argDefaultsOf(context.args));

/** Control values of a node (delay, when, timeout, ...): runtime → context defaults. */
export const controlScope = (context: Context, runtime: Values): Scope => scopeOf(runtime, context.defaults);

// ---- repeat (§3.7) ----

const REPEAT_LENGTH = /^\{?([A-Za-z_][A-Za-z0-9_-]*)\.length\}?$/;
export const REPEAT_POSITIVE = "Command template repeat must be a positive integer.";
export const REPEAT_FORM = "Command template repeat must be a positive integer or {array.length}.";
export const REPEAT_UNRESOLVED = "Command template repeat could not be resolved.";

/** The copy count, `unresolved` when `{name.length}` names no value, undefined without repeat. */
export function repeatCount(value: unknown, scope: Scope): E.Either<string, number | "unresolved" | undefined> {
  if (value === undefined) return E.right(undefined);
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 ? E.right(value) : E.left(REPEAT_POSITIVE);
  if (typeof value !== "string") return E.left(REPEAT_FORM);
  const t = value.trim();
  // a digit string is taken as written: `"0"` gives no copies
  if (/^\d+$/.test(t)) return E.right(Number(t));
  const m = REPEAT_LENGTH.exec(t);
  if (m !== null) {
    const source = valueOf(scope, m[1] ?? "");
    if (Array.isArray(source)) return E.right(source.length);
    if (source === undefined) return E.right("unresolved");
  }
  return E.left(REPEAT_FORM);
}

/** The copy count at execution time, where an unresolvable `{name.length}` is an error. */
export const resolveRepeat = (value: unknown, scope: Scope): E.Either<string, number | undefined> =>
  E.chain((n: number | "unresolved" | undefined) => (n === "unresolved" ? E.left(REPEAT_UNRESOLVED) : E.right(n)))(repeatCount(value, scope));

const REPEAT_NAMES = ["index", "prev", "next", "repeat"] as const;

/** `index`, `prev`, `next`, `repeat` of copy `index` of `count`, plus `_index` … `______index`
 * (zero-padded to 2 … 7 digits) and the same for the others. */
export function repeatDefaults(index: number, count: number): Record<string, string> {
  const numbers = { index, prev: (index - 1 + count) % count, next: (index + 1) % count, repeat: count };
  const out: Record<string, string> = {};
  for (const name of REPEAT_NAMES) {
    out[name] = String(numbers[name]);
    for (let u = 1; u <= 6; u += 1) out[`${"_".repeat(u)}${name}`] = padNumber(numbers[name], u + 1);
  }
  return out;
}

/** Copy `index` of a repeated node: the node without `repeat`, its defaults extended. */
export function repeatCopy(node: JsonObject, index: number, count: number): JsonObject {
  const { repeat: _repeat, ...rest } = node;
  const own = isObject(node["defaults"]) ? node["defaults"] : {};
  return { ...rest, defaults: { ...own, ...repeatDefaults(index, count) } };
}

/** The node a repeat stands for: its copies in sequence, or in parallel (carrying
 * `concurrency`, `min_successful` and `failure`) when the node is parallel. */
export function expandRepeat(node: JsonObject, count: number): JsonObject {
  const template = Array.from({ length: count }, (_u, i) => repeatCopy(node, i, count));
  if (node["parallel"] !== true) return { template };
  const carried: Record<string, Json> = {};
  for (const key of ["concurrency", "min_successful", "failure"] as const) {
    const v = node[key];
    if (v !== undefined) carried[key] = v;
  }
  return { parallel: true, ...carried, template };
}

// ---- static walk ----

export interface ExpandedLeaf {
  readonly text: string;
  /** the label of the object node whose template is this text */
  readonly label: string | undefined;
  readonly context: Context;
}

export const DEFAULT_LEAF_LIMIT = 10_000;

/** Every leaf (including `recover` leaves) with its context, repeats expanded; `when` and
 * `delay` are not evaluated. A `{name.length}` repeat without a value counts as no repeat. */
export function expandLeaves(template: Json, runtime: Values = EMPTY_VALUES, limit: number = DEFAULT_LEAF_LIMIT): E.Either<string, readonly ExpandedLeaf[]> {
  const out: ExpandedLeaf[] = [];
  const tooMany = `Command template expands to more than ${limit} commands.`;
  const walk = (node: Json | undefined, context: Context): string | undefined => {
    if (typeof node === "string") {
      if (out.length >= limit) return tooMany;
      out.push({ text: node, label: undefined, context });
      return undefined;
    }
    if (Array.isArray(node)) {
      for (const step of node) {
        const err = walk(step, context);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    const ctx = nodeContext(context, node, runtime);
    const count = repeatCount(node["repeat"], controlScope(ctx, runtime));
    if (E.isLeft(count)) return count.left;
    if (typeof count.right === "number") {
      if (count.right > limit) return tooMany;
      return walk(expandRepeat(node, count.right), ctx);
    }
    const t = node["template"];
    if (typeof t === "string") {
      if (out.length >= limit) return tooMany;
      out.push({ text: t, label: typeof node["label"] === "string" ? node["label"] : undefined, context: ctx });
    } else {
      const err = walk(t, ctx);
      if (err !== undefined) return err;
    }
    return walk(node["recover"], ctx);
  };
  const err = walk(template, ROOT_CONTEXT);
  return err === undefined ? E.right(out) : E.left(err);
}

// ---- structural validation ----

const EMPTY_SCOPE = scopeOf(EMPTY_VALUES);

// A control written with placeholders can only be checked per call; a literal one is checked now.
const literal = (v: Json | undefined): boolean => !(typeof v === "string" && hasPlaceholder(v));

function checkLeaf(text: string): string | undefined {
  const leaf = compileLeaf(text);
  if (leaf.unterminatedQuote !== undefined) return unterminatedQuoteMessage(leaf.unterminatedQuote, text);
  if (leaf.words.length === 0) return EMPTY_COMMAND;
  for (const word of leaf.words) {
    for (const p of placeholderParts(word)) {
      if (p.placeholder.kind === "unknown") return `Invalid command template placeholder: {${p.content}}`;
      if (p.expression !== undefined && !p.expression.ok) return `Invalid command template expression: ${p.expression.text}`;
    }
  }
  return undefined;
}

/** The structural error of a leaf already split into words, as validateTemplate reports it; for
 * a walk that splits each leaf once for several purposes (core/recipe/survey.ts). */
export function leafProblem(text: string, split: SplitResult): string | undefined {
  if (split.unterminatedQuote !== undefined) return unterminatedQuoteMessage(split.unterminatedQuote, text);
  if (split.words.length === 0) return EMPTY_COMMAND;
  for (const word of split.words) {
    const problem = wordProblem(word);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

const leftOf = (r: E.Either<string, unknown>): string | undefined => (E.isLeft(r) ? r.left : undefined);

/** The first control value of an object node that can never be valid, checked without values;
 * a placeholder-valued control is left to the call, except `repeat`, whose forms are closed. */
export function controlProblem(node: JsonObject): string | undefined {
  const failure = node["failure"];
  if (failure !== undefined) {
    const r = leftOf(resolveFailure(failure));
    if (r !== undefined) return r;
  }
  const delay = node["delay"];
  if (delay !== undefined && literal(delay)) {
    const r = leftOf(resolveNumericControl("delay", delay, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const timeout = node["timeout"];
  if (timeout !== undefined && literal(timeout)) {
    const r = leftOf(resolveNumericControl("timeout", timeout, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const retry = node["retry"];
  if (retry !== undefined && literal(retry)) {
    const r = leftOf(resolveRetry(retry, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const concurrency = node["concurrency"];
  if (concurrency !== undefined && literal(concurrency)) {
    const r = leftOf(resolveConcurrency(concurrency, EMPTY_SCOPE, Number.POSITIVE_INFINITY));
    if (r !== undefined) return r;
  }
  const minSuccessful = node["min_successful"];
  if (minSuccessful !== undefined && literal(minSuccessful)) {
    const t = node["template"];
    const branches = Array.isArray(t) && node["repeat"] === undefined ? t.length : Number.POSITIVE_INFINITY;
    const r = leftOf(resolveMinSuccessful(minSuccessful, EMPTY_SCOPE, branches));
    if (r !== undefined) return r;
  }
  const repeat = node["repeat"];
  return repeat === undefined ? undefined : leftOf(repeatCount(repeat, EMPTY_SCOPE));
}

/** The first structural error of a template graph, checked without values: an unterminated
 * quote, a blank command, an empty sequence, an unknown placeholder form or expression, a
 * control value that can never be valid. Placeholder-valued controls are left to the call. */
export function validateTemplate(template: Json): E.Either<string, void> {
  const walk = (node: Json | undefined): string | undefined => {
    if (typeof node === "string") return checkLeaf(node);
    if (Array.isArray(node)) {
      if (node.length === 0) return NO_STEPS;
      for (const step of node) {
        const err = walk(step);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isObject(node)) return EMPTY_COMMAND;
    return controlProblem(node) ?? walk(node["template"]) ?? (node["recover"] === undefined ? undefined : walk(node["recover"]));
  };
  const err = walk(template);
  return err === undefined ? E.right(undefined) : E.left(err);
}
