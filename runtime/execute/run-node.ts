// One node of the template graph, in the order docs/templates.md describes: context, delay, when,
// failure, repeat, group retry, then the node's own kind (child object, leaf, parallel, sequence).
import { resolveDelay, resolveFailure, resolveRetry, resolveTimeout, resolveWhen, type FailureScope } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import type { Scope } from "../../core/template/substitute.js";
import { contextOf, controlScope } from "../../core/template/context.js";
import { resolveRepeat } from "../../core/template/repeat.js";
import { attemptOf, repeatProgram, type ObjectNode, type ProgramNode } from "../../core/tool/program.js";
import { delay } from "./delay.js";
import { runGroupRetry } from "./group-retry.js";
import { appendLine, runLeaf, type LeafControls } from "./leaf.js";
import { fanoutMessage, runParallel } from "./parallel.js";
import { EMPTY_BYTES, skippedResult, synthetic, withStdout } from "./results.js";
import { runSequence } from "./sequence.js";
import type { NodeResult, Run } from "./run-state.js";
import { alsoEndedBy, must, TemplateError } from "./run-state.js";
import { renderCommands } from "../../core/template/report.js";

export const ABORTED = "command template run aborted";

export const outputUnknown = (label: string): string => `Command template output names no step that ran: ${label}`;

const NO_CONTROLS: LeafControls = Object.freeze({});

const aborted = (): NodeResult => synthetic(1, EMPTY_BYTES, ABORTED, { killed: true, scope: "root", critical: true });

const EMPTY_COMMAND = "Tool template produced an empty command.";

// Not async, so that a node adds no promise of its own to what it runs; like an async function it
// never throws: a TemplateError comes back as a rejection.
export function execNode(node: ProgramNode, parent: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean): Promise<NodeResult> {
  try {
    if (run.options.signal?.aborted === true) return Promise.resolve(aborted());
    if (node.kind === "leaf") return runLeaf(node.leaf, undefined, parent, NO_CONTROLS, stdin, run);
    if (node.kind === "sequence") return runSequence(node.steps, "continue", parent, stdin, run, isRoot, execNode);
    if (node.kind === "empty") throw new TemplateError(EMPTY_COMMAND);
    const result = execObject(node, parent, stdin, run, isRoot);
    // only a label or an `output` makes select do anything
    return node.label !== undefined || node.output !== undefined ? result.then((r) => select(node, r, run, isRoot)) : result;
  } catch (e) {
    return Promise.reject(e);
  }
}

// Runs on every call for every object node: a control that is absent (the usual case) is neither
// resolved nor given a scope, and its default (no delay, run, `continue`, no repeat) is used. Not
// async either: it hands back the promise of what it runs (execNode turns what it throws into a
// rejection).
function execObject(node: ObjectNode, parent: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean): Promise<NodeResult> {
  const context = contextOf(parent, node.args, node.defaults, run.runtime);
  const scope = node.delay === undefined && node.when === undefined && node.repeat === undefined && node.retry === undefined
    ? undefined
    : controlScope(context, run.runtime);
  if (scope !== undefined && node.delay !== undefined) {
    const wait = must(resolveDelay(node.delay, scope), node.step);
    if (wait !== undefined && wait > 0) return afterDelay(wait, node, parent, context, scope, stdin, run, isRoot);
  }
  return execControlled(node, parent, context, scope, stdin, run, isRoot);
}

async function afterDelay(
  wait: number, node: ObjectNode, parent: Context, context: Context, scope: Scope, stdin: Uint8Array | undefined, run: Run, isRoot: boolean,
): Promise<NodeResult> {
  if (!(await delay(wait, run.options.signal))) return aborted();
  return execControlled(node, parent, context, scope, stdin, run, isRoot);
}

// The node after its delay: when, failure, repeat, group retry, then its own kind.
function execControlled(
  node: ObjectNode, parent: Context, context: Context, scope: Scope | undefined, stdin: Uint8Array | undefined, run: Run, isRoot: boolean,
): Promise<NodeResult> {
  const step = node.step;
  if (scope !== undefined && node.when !== undefined && !must(resolveWhen(node.when, scope), step)) return Promise.resolve(skippedResult(stdin));
  const failure = node.failure === undefined ? "continue" : must(resolveFailure(node.failure), step);

  if (scope !== undefined && node.repeat !== undefined) {
    const count = must(resolveRepeat(node.repeat, scope), step);
    if (count !== undefined) {
      if (node.parallel && count > run.fanoutLimit) throw new TemplateError(fanoutMessage(count, run.fanoutLimit), step);
      return execNode(repeatProgram(node, count), parent, stdin, run, isRoot);
    }
  }

  const body = node.body;
  if (scope !== undefined && node.retry !== undefined && (body.kind === "sequence" || node.recover !== undefined)) {
    const attempts = must(resolveRetry(node.retry, scope), step);
    if (attempts !== undefined) return runGroupRetry(attemptOf(node), node.recover, attempts, failure, parent, context, stdin, run, execNode, isRoot);
  }
  // a leaf's timeout is its process's; a sequence's or a parallel node's bounds all of it
  if (node.timeout !== undefined && body.kind !== "leaf") {
    const ms = must(resolveTimeout(node.timeout, controlScope(context, run.runtime)), step);
    if (ms !== undefined && ms > 0) return withDeadline(ms, step ?? "template", failure, run, (bounded) => execBody(node, context, stdin, bounded, isRoot, failure));
  }
  return execBody(node, context, stdin, run, isRoot, failure);
}

/** The node's own kind, its controls handled. */
function execBody(node: ObjectNode, context: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean, failure: FailureScope): Promise<NodeResult> {
  const step = node.step;
  const body = node.body;
  // a node whose `output` names one of its steps answers with that step, not its last one: the
  // answer's rules (the root's last step fails the call) do not reach inside it
  const answer = isRoot && !(node.output !== undefined && node.output !== "" && node.labels.has(node.output));
  switch (body.kind) {
    case "leaf":
      return runLeaf(body.leaf, step === body.leaf.text ? undefined : step, context, node, stdin, run);
    case "sequence":
      if (node.parallel) return runParallel(node, body.steps, context, stdin, run, execNode, answer);
      return runSequence(body.steps, failure, context, stdin, run, answer, execNode);
    case "object":
      return execNode(body, context, stdin, run, answer);
    case "empty":
      throw new TemplateError(EMPTY_COMMAND, step);
  }
}

/** Runs `go` with a signal that also fires after `ms`: every process it started is ended (their
 *  groups killed), and the node fails with the timeout said, in its own failure scope (as a
 *  leaf that timed out does), not as a run that was aborted from outside. */
async function withDeadline(ms: number, step: string, failure: FailureScope, run: Run, go: (bounded: Run) => Promise<NodeResult>): Promise<NodeResult> {
  const deadline = AbortSignal.timeout(ms);
  const r = await go(alsoEndedBy(run, deadline));
  if (!deadline.aborted || run.options.signal?.aborted === true) return r;
  // a node that had finished with 0 as the deadline fired is reported with a 1 that no process gave
  const invented = r.code === 0 ? { code: 1, noExitCode: true } : {};
  return { ...r, ...invented, timeoutMs: ms, killed: true, stderr: appendLine(r.stderr, `${step}: timed out after ${ms} ms`), scope: failure, critical: failure === "root" };
}

/** Records a labelled node's output, and applies `output: "<label>"`: on success the node's
 * stdout becomes the latest stdout of the labelled step inside it. At the root, a chosen step
 * that failed (its sequence going on past it) leaves the call without an answer: the node fails
 * with that step's failure, as a root's failed last step fails the call. */
function select(node: ObjectNode, result: NodeResult, run: Run, isRoot: boolean): NodeResult {
  const { label, output: wanted } = node;
  let out = result;
  if (wanted !== undefined && wanted !== "" && result.code === 0 && !result.skipped) {
    const chosen = run.trace.labelled.get(wanted);
    // an `output` that names no step label at all (often the name of an output file argument)
    // is ignored, as the prior art does: stdout stays the result, and doctor warns about it
    if (chosen === undefined && node.labels.has(wanted)) throw new TemplateError(outputUnknown(wanted), node.step);
    const failed = isRoot ? run.trace.failedLabelled.get(wanted) : undefined;
    if (failed !== undefined && node.labels.has(wanted)) out = answerFailed(failed, result, run);
    else if (chosen !== undefined) out = withStdout(result, chosen);
  }
  if (label !== undefined) {
    // a skipped or failed step produced nothing a later `output` could select
    const ok = result.code === 0 && !result.skipped;
    run.trace.labelled.set(label, ok ? out.stdout : EMPTY_BYTES);
    // (a step whose own `failure: continue` says its failure may be gone past is no missing
    // answer, as on a root's last step)
    if (result.code !== 0 && node.failure === undefined) run.trace.failedLabelled.set(label, result);
    else run.trace.failedLabelled.delete(label);
  }
  return out;
}

/** The root's answer step failed: the call fails with it, and the step is no longer one the
 *  sequence merely went on past. */
function answerFailed(failed: NodeResult, node: NodeResult, run: Run): NodeResult {
  const rendered = renderCommands(failed.commands);
  const command = failed.failedCommand ?? rendered;
  const at = run.continued.findLastIndex((c) => c.command === command && c.code === failed.code);
  if (at >= 0) run.continued.splice(at, 1);
  const listed = run.trace.nonCritical.findLastIndex((c) => c.command === rendered && c.code === failed.code);
  if (listed >= 0) run.trace.nonCritical.splice(listed, 1);
  return { ...failed, commands: node.commands, scope: "root", critical: true };
}
