// How many commands a program stands for with one call's values, counted before any of it runs:
// a `repeat` written as `{name.length}` is known only then. A template is checked against the
// command limit when it is loaded (core/template/command-count.ts), where such a repeat counts
// once; two of them nested, each as long as the limit allows, would otherwise start the limit
// squared. Counted as the template would expand: `when` is not evaluated (a step that may be
// skipped counts) and a group retry counts one attempt (the run counts the others as they start,
// runtime/execute/leaf.ts).
import * as E from "fp-ts/lib/Either.js";
import { contextOf, controlScope, type Context } from "../template/context.js";
import { resolveRepeat, writtenAsDigits } from "../template/repeat.js";
import type { Values } from "../template/substitute.js";
import type { ProgramNode } from "./program.js";

const withCallRepeat = new WeakMap<ProgramNode, boolean>();

/** Whether some node of `program` repeats by a count only a call knows (remembered per program,
 *  which is made once per tool revision). */
export function hasCallRepeat(program: ProgramNode): boolean {
  const known = withCallRepeat.get(program);
  if (known !== undefined) return known;
  const find = (node: ProgramNode): boolean => {
    if (node.kind === "sequence") return node.steps.some(find);
    if (node.kind !== "object") return false;
    if (typeof node.repeat === "string" && !writtenAsDigits(node.repeat)) return true;
    return find(node.body) || (node.recover !== undefined && find(node.recover));
  };
  const found = find(program);
  withCallRepeat.set(program, found);
  return found;
}

/** The commands `program` stands for with `runtime`, or `limit + 1` when that is more than
 *  `limit`. A `repeat` that does not resolve counts once: running it reports why. */
export function commandsFor(program: ProgramNode, runtime: Values, root: Context, limit: number): number {
  const over = limit + 1;
  const count = (node: ProgramNode, parent: Context): number => {
    switch (node.kind) {
      case "leaf":
        return 1;
      case "empty":
        return 0;
      case "sequence": {
        let n = 0;
        for (let i = 0; i < node.steps.length && n <= limit; i++) n += count(node.steps[i]!, parent);
        return Math.min(n, over);
      }
      case "object": {
        const context = contextOf(parent, node.args, node.defaults, runtime);
        let copies = 1;
        if (node.repeat !== undefined) {
          const r = resolveRepeat(node.repeat, controlScope(context, runtime));
          if (E.isRight(r) && r.right !== undefined) copies = r.right;
        }
        const inner = count(node.body, context) + (node.recover === undefined ? 0 : count(node.recover, context));
        return inner === 0 || copies === 0 ? 0 : Math.min(inner * copies, over);
      }
    }
  };
  return count(program, root);
}
