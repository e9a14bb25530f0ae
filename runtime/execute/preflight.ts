// What a call would stop at before its first process starts. A value the call leaves missing for
// the first command a template runs is an argument error found before anything is started, so
// it is refused before the launch is accounted: a call that starts no process is no launch.
//
// Only the path that is certain is followed: the root, the first step of a sequence, and an
// object node whose controls cannot skip, repeat, delay or retry it (a node with `when`, `repeat`,
// `delay`, `retry` or `parallel` may never reach its first command, so nothing is said there; such
// a call is refused by the run itself, as before). The texts are the run's own.
import * as E from "fp-ts/lib/Either.js";
import { resolveTimeout } from "../../core/template/controls.js";
import { contextOf, controlScope, leafScope, rootContext, type Context, type ContextCache } from "../../core/template/context.js";
import type { TemplateFailure } from "../../core/template/failure.js";
import { invocationOf, type Place } from "../../core/template/invocation.js";
import type { Values } from "../../core/template/substitute.js";
import type { ProgramNode } from "../../core/tool/program.js";

const missing = (r: E.Either<TemplateFailure, unknown>): string | undefined =>
  E.isLeft(r) && r.left.kind === "missing-value" ? r.left.message : undefined;

function firstProblem(node: ProgramNode, context: Context, runtime: Values, place: Place): string | undefined {
  switch (node.kind) {
    case "leaf":
      return missing(invocationOf(node.leaf, leafScope(context, runtime), place));
    case "sequence":
      return node.steps[0] === undefined ? undefined : firstProblem(node.steps[0], context, runtime, place);
    case "empty":
      return undefined;
    case "object": {
      if (node.when !== undefined || node.repeat !== undefined || node.delay !== undefined || node.retry !== undefined || node.parallel) return undefined;
      const inner = contextOf(context, node.args, node.defaults, runtime);
      if (node.timeout !== undefined) {
        const timeout = missing(resolveTimeout(node.timeout, controlScope(inner, runtime)));
        if (timeout !== undefined) return timeout;
      }
      return firstProblem(node.body, inner, runtime, place);
    }
  }
}

/** The missing-value error the call's first command would stop at, or undefined (none, or not
 *  certain). Cheap for a call that gives every required argument: nothing is then walked. */
export function missingBeforeStart(
  program: ProgramNode,
  runtime: Values,
  required: readonly string[],
  place: Place,
  cache: ContextCache,
): string | undefined {
  if (required.every((name) => Object.hasOwn(runtime, name))) return undefined;
  return firstProblem(program, rootContext(cache), runtime, place);
}
