// `repeat`: how many copies of a node run, and what each copy sees (`index`, `prev`, `next`,
// `repeat` and their zero-padded forms). See docs/templates.md.
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import type { Json, JsonObject } from "../model.js";
import { isObject } from "./graph.js";
import type { Scope } from "./substitute.js";
import { valueOf } from "./substitute.js";
import { padNumber } from "./expression.js";
import { type TemplateFailure, invalidTemplate } from "./failure.js";
import { FIELD } from "../recipe/fields.js";


const REPEAT_LENGTH = /^\{?([A-Za-z_][A-Za-z0-9_-]*)\.length\}?$/;
export const REPEAT_POSITIVE = "Command template repeat must be a positive integer.";
export const REPEAT_FORM = "Command template repeat must be a positive integer or {array.length}.";
export const REPEAT_UNRESOLVED = "Command template repeat could not be resolved.";

/** The most commands one template may stand for. A `repeat` above it is refused when the recipe
 * is loaded (a literal count) or when the call runs (`{name.length}` of a long array), before any
 * copy is made: a count of 100,000,000 would otherwise build that many nodes and end the process
 * out of memory. register_tool refuses a template whose leaves, repeats expanded, exceed it. */
export const COMMAND_LIMIT = 10_000;
export const tooManyCommandsText = (limit: number): string => `Command template expands to more than ${limit} commands.`;
/** A run stopped by the limit while it ran (core/template/command-count.ts counts before). */
export const runStoppedText = (limit: number): string =>
  `Command template run stopped: it had started ${limit} commands, the most one run may start (each attempt of a retried step counts, and a group retry runs its steps again).`;

/** A `repeat` written as digits (white space around them allowed): a count known without values. */
export const writtenAsDigits = (value: unknown): boolean => typeof value === "string" && /^\s*\d+\s*$/.test(value);

/** The copy count of a `repeat` written as a number or as digits; 1 for none, for one written as
 *  `{name.length}` (known only at the call) and for one that is no count (an error of its own). */
export function literalRepeat(value: unknown): number {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 ? value : 1;
  if (writtenAsDigits(value)) return Math.max(Number(value), 1);
  return 1;
}

/** The copy count, `unresolved` when `{name.length}` names no value, undefined without repeat. */
export function repeatCount(value: unknown, scope: Scope): E.Either<TemplateFailure, number | "unresolved" | undefined> {
  if (value === undefined) return E.right(undefined);
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 ? E.right(value) : E.left(invalidTemplate(REPEAT_POSITIVE));
  if (typeof value !== "string") return E.left(invalidTemplate(REPEAT_FORM));
  // a digit string is taken as written: `"0"` gives no copies
  if (writtenAsDigits(value)) return E.right(Number(value));
  const t = value.trim();
  const m = REPEAT_LENGTH.exec(t);
  if (m !== null) {
    const source = valueOf(scope, m[1] ?? "");
    if (Array.isArray(source)) return E.right(source.length);
    if (source === undefined) return E.right("unresolved");
  }
  return E.left(invalidTemplate(REPEAT_FORM));
}

/** The copy count at execution time, where an unresolvable `{name.length}` is an error, and so
 * is a count above COMMAND_LIMIT. */
export const resolveRepeat = (value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> =>
  chain((n: number | "unresolved" | undefined) =>
    n === "unresolved" ? E.left(invalidTemplate(REPEAT_UNRESOLVED))
    : n !== undefined && n > COMMAND_LIMIT ? E.left(invalidTemplate(tooManyCommandsText(COMMAND_LIMIT)))
    : E.right(n))(repeatCount(value, scope));

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
  if (node[FIELD.parallel] !== true) return { template };
  const carried: Record<string, Json> = {};
  for (const key of [FIELD.concurrency, FIELD.min_successful, FIELD.failure] as const) {
    const v = node[key];
    if (v !== undefined) carried[key] = v;
  }
  return { parallel: true, ...carried, template };
}
