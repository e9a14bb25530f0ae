// Group retry: the whole node again, up to N times, with `recover` between failed attempts
// (docs/templates.md, "How a template runs").
import * as E from "fp-ts/lib/Either.js";
import type { FailureScope } from "../../core/template/controls.js";
import { resolveFailure } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import type { ObjectNode, ProgramNode } from "../../core/tool/program.js";
import type { ExecNode } from "./parallel.js";
import { widest } from "./results.js";
import type { NodeResult, Run } from "./run-state.js";

/** `run` with a list of its own for the steps that fail while their sequence goes on. */
function scopedRun(run: Run): Run {
  return {
    options: run.options,
    runtime: run.runtime,
    trace: run.trace,
    get fanoutLimit() {
      return run.fanoutLimit;
    },
    continued: [],
    commands: run.commands,
  };
}

/** `attempt`: the node without its loop controls (core/tool/program.ts attemptOf); `recover`: what
 * runs between failed attempts. An attempt failed when it failed, or when a step of it failed
 * while its sequence went on (`failure: continue`): otherwise a retry around a sequence would
 * never retry, and adding one would make a failing one-step root sequence succeed. `isRoot`: the
 * node is the run's root, so each attempt is too (the one-step root rule applies to it). */
export async function runGroupRetry(
  attempt: ObjectNode,
  recover: ProgramNode | undefined,
  attempts: number,
  failure: FailureScope,
  parent: Context,
  context: Context,
  stdin: Uint8Array | undefined,
  run: Run,
  exec: ExecNode,
  isRoot: boolean,
): Promise<NodeResult> {
  let last: NodeResult | undefined;
  const commands: string[] = [];
  for (let i = 1; i <= attempts; i += 1) {
    // each attempt (and the recover after it) records the steps that failed while their sequence
    // went on in a list of its own: a later attempt supersedes them, so only the final one's are
    // named (other branches of a parallel node may be recording into the run's list meanwhile)
    const scoped = scopedRun(run);
    last = await exec(attempt, parent, stdin, scoped, isRoot);
    commands.push(...last.commands);
    if ((last.code === 0 && scoped.continued.length === 0) || i === attempts || run.options.signal?.aborted === true) {
      run.continued.push(...scoped.continued);
      break;
    }
    if (recover === undefined) continue;
    const healed = await exec(recover, context, last.stdout, scoped, false);
    commands.push(...healed.commands);
    if (healed.code !== 0) {
      run.continued.push(...scoped.continued);
      const own = resolveFailure(recover.kind === "object" ? recover.failure : undefined);
      const scope = widest(healed.scope, healed.critical ? "root" : undefined, E.isRight(own) ? own.right : undefined, failure);
      return { ...healed, commands, scope, critical: scope === "root" };
    }
  }
  return { ...(last as NodeResult), commands };
}
