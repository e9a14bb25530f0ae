// How many commands a template graph stands for as written, and how deep it nests: each string
// leaf is one command, an array the sum of its steps, an object node its `template` and its
// `recover`, times its `repeat` when that is a literal count. A `repeat` written as
// `{name.length}` counts once here; a call counts it with its values
// (core/tool/program-count.ts). `when` is not evaluated: a step that may be skipped still counts.
// The depth counts every array and object level, under any key.
//
// Imported recipes and delegation targets are placed into a template by reference
// (core/recipe/expand.ts), so one placed node may be reached along many paths: N recipes that
// each place the next twice stand for 2^N commands in a graph of N nodes, and recipes that each
// place the next under 500 levels nest 500 levels deeper each, though no file is deeper than the
// 512 levels a recipe file may have. So the measure remembers each node it has measured, walks
// with a stack of its own (never the call stack, which such a graph would overflow), and stops as
// soon as it passes either limit: one visit per node at most, whatever the graph stands for.
import type { Json } from "../model.js";
import { isObject } from "./graph.js";
import { literalRepeat } from "./repeat.js";
import { FIELD } from "../recipe/fields.js";

export type TemplateMeasure =
  /** `commands`: what it stands for, or `limit + 1` when more than `limit`; `depth`: its array and
   *  object levels */
  | { readonly kind: "measured"; readonly commands: number; readonly depth: number }
  | { readonly kind: "too-deep" };

interface Measured {
  readonly commands: number;
  readonly depth: number;
}

const LEAF: Measured = { commands: 1, depth: 0 };
const NOTHING: Measured = { commands: 0, depth: 0 };

/** What `template` stands for and how deep it nests, or that it nests deeper than `maxDepth`. */
export function measureTemplate(template: Json, limit: number, maxDepth: number): TemplateMeasure {
  const seen = new Map<object, Measured>();
  const of = (v: Json | undefined): Measured => (typeof v === "string" ? LEAF : v === null || typeof v !== "object" ? NOTHING : seen.get(v)!);
  const children = (node: object): readonly Json[] => (Array.isArray(node) ? (node as Json[]) : Object.values(node as Record<string, Json>));
  // frames: a node whose children are being measured (`open`), then measured itself
  const stack: { readonly node: object; open: boolean }[] = [];
  const push = (v: Json | undefined): void => {
    if (v !== null && typeof v === "object" && !seen.has(v)) stack.push({ node: v, open: false });
  };
  push(template);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (seen.has(frame.node)) {
      stack.pop();
      continue;
    }
    if (!frame.open) {
      frame.open = true;
      for (const child of children(frame.node)) push(child);
      continue;
    }
    stack.pop();
    let depth = 0;
    for (const child of children(frame.node)) depth = Math.max(depth, of(child).depth);
    let commands = 0;
    if (Array.isArray(frame.node)) {
      for (const step of frame.node as Json[]) commands = Math.min(commands + of(step).commands, limit + 1);
    } else if (isObject(frame.node)) {
      const inner = of(frame.node["template"]).commands + of(frame.node[FIELD.recover]).commands;
      // (a count of digits too long for a number is Infinity, and 0 times that is no number)
      commands = inner === 0 ? 0 : Math.min(inner * literalRepeat(frame.node[FIELD.repeat]), limit + 1);
    }
    const measured = { commands, depth: depth + 1 };
    seen.set(frame.node, measured);
    // no need to measure the rest
    if (measured.depth > maxDepth) return { kind: "too-deep" };
  }
  const whole = of(template);
  return { kind: "measured", commands: whole.commands, depth: whole.depth };
}
