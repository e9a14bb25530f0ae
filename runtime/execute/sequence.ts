// A sequence: each step's complete stdout is the next step's stdin; a failed step stops the run,
// the sequence, or nothing, by its scope (docs/templates.md, "How a template runs").
import * as E from "fp-ts/lib/Either.js";
import type { ProgramNode } from "../../core/tool/program.js";
import type { FailureScope } from "../../core/template/controls.js";
import { resolveFailure } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import { NO_STEPS } from "../../core/template/validate.js";
import { firstLine, renderCommands } from "../../core/template/report.js";
import type { ExecNode } from "./parallel.js";
import { EMPTY_BYTES, synthetic, widest, withStdout } from "./results.js";
import type { NodeResult, Run } from "./run-state.js";
import { TemplateError } from "./run-state.js";

export const incompleteStdin = (file: string): string =>
  `incomplete pipeline stdin: complete stdout unavailable; capture path unreadable: ${file}`;

const stepFailure = (step: ProgramNode): FailureScope | undefined => {
  if (step.kind !== "object") return undefined;
  const r = resolveFailure(step.failure);
  return E.isRight(r) ? r.right : undefined;
};

export async function runSequence(
  steps: readonly ProgramNode[],
  own: FailureScope,
  context: Context,
  stdin: Uint8Array | undefined,
  run: Run,
  isRoot: boolean,
  exec: ExecNode,
): Promise<NodeResult> {
  // an empty sequence has nothing to run: an error, never an empty success
  if (steps.length === 0) throw new TemplateError(NO_STEPS);
  const commands: string[] = [];
  let input = stdin;
  let last: NodeResult | undefined;
  for (let i = 0; i < steps.length; i += 1) {
    const step = steps[i]!;
    // the root's last step gives the call its answer: when it fails with no `failure` of its
    // own, there is no answer, and the call fails (a one-step root is the same rule); an
    // explicit `failure: continue` on it still lets the call succeed, as asked. The step is the
    // answer's place in turn: a sequence there has its own last step in it, a parallel node
    // there fails on a missed quorum, a group retry's attempts are judged so.
    const explicit = step.kind === "object" && step.failure !== undefined;
    const answer = isRoot && i === steps.length - 1 && !explicit;
    const r = await exec(step, context, input, run, answer);
    commands.push(...r.commands);
    if (r.code !== 0) {
      // the run was ended around it (a node's deadline, an interrupt): the sequence does not go
      // on, whatever the step's scope; the node that ended it says why
      if (run.options.signal?.aborted === true) return { ...r, commands };
      const scope = widest(r.scope, r.critical ? "root" : undefined, stepFailure(step), own, answer ? "root" : undefined);
      if (scope === "root") return { ...r, commands, scope: "root", critical: true };
      run.trace.nonCritical.push({ code: r.code, command: renderCommands(r.commands), killed: r.killed });
      if (scope === "branch") return { ...r, commands, scope: "branch" };
      // the sequence goes on as if the step had printed nothing: the result still names it
      run.continued.push({ command: r.failedCommand ?? renderCommands(r.commands), code: r.code, killed: r.killed, stderr: firstLine(r.stderr), ...(r.signal === undefined ? {} : { signal: r.signal }) });
      last = withStdout({ ...r, code: 0 }, EMPTY_BYTES);
      input = EMPTY_BYTES;
      continue;
    }
    if (r.stdoutUnreadable !== undefined && i < steps.length - 1) {
      return synthetic(74, EMPTY_BYTES, incompleteStdin(r.stdoutUnreadable), { commands, scope: "root", critical: true, failedStep: "pipeline" });
    }
    last = r;
    input = r.stdout;
  }
  // the sequence itself ran: a last step that `when` skipped does not make the sequence skipped
  // (a parallel branch or the call would otherwise read it as a node that never ran)
  return { ...(last as NodeResult), commands, skipped: false };
}
