// What a call would stop at before its first process starts. A value the call leaves missing for
// a command the run is certain to reach is an argument error that can be found before anything is
// started, so it is refused before the launch is accounted: a call that starts no process is no
// launch. A call whose command started stays a launch, even when a later step then fails.
//
// A command's values come only from the call and the template (the call's values, `defaults`,
// `args` defaults), never from what an earlier step printed, so a command the run reaches builds
// the same words up front as it would then. What is walked is only what the run certainly reaches
// unless the call fails anyway (then refusing it earlier refuses no call that would succeed):
// - the root, and every step of a sequence in order: a step that fails either lets the sequence
//   go on or stops it with a failure that ends the call, and a missing value ends the call too;
// - an object node with none of `when`, `repeat`, `delay`, `retry` or `parallel`: such a node may
//   never reach its commands, or may stop early and still let the call succeed (a skipped branch,
//   a failed parallel branch within its quorum, a retried group that gives up), so nothing inside
//   it is said; the steps after it are still walked, since it either lets them run or ends the
//   call;
// - inside a node whose `timeout` bounds a sequence, only the first command: its deadline may end
//   the sequence before a later step and the node's `failure` may let the call go on.
// A placeholder with a fallback (`{x??y}`) or a default resolves as it does in the run, so it
// is never refused here. What is not walked is refused by the run itself, as before (and counted,
// since it may have started a command). The texts are the run's own.
import * as E from "fp-ts/lib/Either.js";
import { resolveTimeout } from "../../core/template/controls.js";
import { contextOf, controlScope, leafScope, rootContext, type Context, type ContextCache } from "../../core/template/context.js";
import type { TemplateFailure } from "../../core/template/failure.js";
import { invocationOf, type Place } from "../../core/template/invocation.js";
import type { Values } from "../../core/template/substitute.js";
import type { ProgramNode } from "../../core/tool/program.js";

const missing = (r: E.Either<TemplateFailure, unknown>): string | undefined =>
  E.isLeft(r) && r.left.kind === "missing-value" ? r.left.message : undefined;

// `all`: every step of a sequence is certain to be reached (else only the first one is)
function firstProblem(node: ProgramNode, context: Context, runtime: Values, place: Place, all: boolean): string | undefined {
  switch (node.kind) {
    case "leaf":
      return missing(invocationOf(node.leaf, leafScope(context, runtime), place));
    case "sequence": {
      const steps = all ? node.steps : node.steps.slice(0, 1);
      for (const step of steps) {
        const problem = firstProblem(step, context, runtime, place, all);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case "empty":
      return undefined;
    case "object": {
      if (node.when !== undefined || node.repeat !== undefined || node.delay !== undefined || node.retry !== undefined || node.parallel) return undefined;
      const inner = contextOf(context, node.args, node.defaults, runtime);
      if (node.timeout !== undefined) {
        const timeout = missing(resolveTimeout(node.timeout, controlScope(inner, runtime)));
        if (timeout !== undefined) return timeout;
      }
      // a deadline over a sequence may end it before its later steps
      return firstProblem(node.body, inner, runtime, place, all && (node.timeout === undefined || node.body.kind === "leaf"));
    }
  }
}

/** The missing-value error the run would stop at in a command it certainly reaches, or undefined
 *  (none, or not certain). Cheap for a call that gives every required argument: nothing is then
 *  walked. */
export function missingBeforeStart(
  program: ProgramNode,
  runtime: Values,
  required: readonly string[],
  place: Place,
  cache: ContextCache,
): string | undefined {
  if (required.every((name) => Object.hasOwn(runtime, name))) return undefined;
  return firstProblem(program, rootContext(cache), runtime, place, true);
}
