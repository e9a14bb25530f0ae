// How many commands a template graph stands for as written: each string leaf is one command, an
// array the sum of its steps, an object node its `template` and its `recover`, times its
// `repeat` when that is a literal count. A `repeat` written as `{name.length}` counts once here;
// a call counts it with its values (core/tool/program-count.ts). `when` is not evaluated: a step that may be
// skipped still counts.
//
// Imported recipes and delegation targets are placed into a template by reference
// (core/recipe/expand.ts), so one placed node may be reached along many paths: N recipes that
// each place the next twice stand for 2^N commands in a graph of N nodes. The count therefore
// remembers each node it has counted, and stops as soon as it passes the limit, so it costs at
// most one visit per node whatever the graph stands for.
import type { Json } from "../model.js";
import { isObject } from "./graph.js";
import { literalRepeat } from "./repeat.js";
import { FIELD } from "../recipe/fields.js";

/** The commands `template` stands for, or `limit + 1` when that is more than `limit`. */
export function commandCount(template: Json, limit: number): number {
  const over = limit + 1;
  const seen = new Map<object, number>();
  const count = (node: Json | undefined): number => {
    if (typeof node === "string") return 1;
    if (node === null || typeof node !== "object") return 0;
    const known = seen.get(node);
    if (known !== undefined) return known;
    let n = 0;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && n <= limit; i++) n += count(node[i]);
    } else if (isObject(node)) {
      const inner = count(node["template"]) + count(node[FIELD.recover]);
      // (a count of digits too long for a number is Infinity, and 0 times that is no number)
      n = inner === 0 ? 0 : inner * literalRepeat(node[FIELD.repeat]);
    }
    const capped = Math.min(n, over);
    seen.set(node, capped);
    return capped;
  };
  return count(template);
}
