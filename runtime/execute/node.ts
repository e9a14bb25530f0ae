// One node of the template graph, in the order docs/templates.md describes: context, delay, when,
// failure, repeat, group retry, then the node's own kind (child object, leaf, parallel, sequence).
import { labelsIn } from "../../core/recipe/lint.js";
import type { Json, JsonObject } from "../../core/model.js";
import { resolveDelay, resolveFailure, resolveRetry, resolveWhen } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import type { Scope } from "../../core/template/substitute.js";
import { controlScope, nodeContext } from "../../core/template/context.js";
import { expandRepeat, resolveRepeat } from "../../core/template/repeat.js";
import { isObject } from "../../core/template/graph.js";
import { delay } from "./delay.js";
import { runGroupRetry } from "./group-retry.js";
import { runLeaf, type LeafControls } from "./leaf.js";
import { fanoutMessage, runParallel } from "./parallel.js";
import { EMPTY_BYTES, skippedResult, synthetic, withStdout } from "./results.js";
import { runSequence } from "./sequence.js";
import type { NodeResult, Run } from "./types.js";
import { must, TemplateError } from "./types.js";

export const ABORTED = "command template run aborted";

export const outputUnknown = (label: string): string => `Command template output names no step that ran: ${label}`;

/** A human name for a node in errors: its label, or its command when it is a leaf. */
export const stepName = (node: Json): string | undefined =>
  typeof node === "string" ? node : isObject(node) ? (typeof node["label"] === "string" ? node["label"] : typeof node["template"] === "string" ? node["template"] : undefined) : undefined;

const NO_CONTROLS: LeafControls = Object.freeze({});

const aborted = (): NodeResult => synthetic(1, EMPTY_BYTES, ABORTED, { killed: true, scope: "root", critical: true });

// Not async, so that a node adds no promise of its own to what it runs; like an async function it
// never throws: a TemplateError comes back as a rejection.
export function execNode(node: Json, parent: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean): Promise<NodeResult> {
  try {
    if (run.options.signal?.aborted === true) return Promise.resolve(aborted());
    if (typeof node === "string") return runLeaf(node, undefined, parent, NO_CONTROLS, stdin, run);
    if (Array.isArray(node)) return runSequence(node, "continue", parent, stdin, run, isRoot, execNode);
    if (!isObject(node)) throw new TemplateError("Tool template produced an empty command.");
    const result = execObject(node, parent, stdin, run, isRoot);
    // only a label or an `output` makes select do anything
    return typeof node["label"] === "string" || typeof node["output"] === "string" ? result.then((r) => select(node, r, run)) : result;
  } catch (e) {
    return Promise.reject(e);
  }
}

// Runs on every call for every object node: a control that is absent (the usual case) is neither
// resolved nor given a scope, and its default (no delay, run, `continue`, no repeat) is used. Not
// async either: it hands back the promise of what it runs (execNode turns what it throws into a
// rejection).
function execObject(node: JsonObject, parent: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean): Promise<NodeResult> {
  const step = stepName(node);
  const context = nodeContext(parent, node, run.runtime);
  const delayField = node["delay"];
  const scope = delayField === undefined && node["when"] === undefined && node["repeat"] === undefined && node["retry"] === undefined
    ? undefined
    : controlScope(context, run.runtime);
  if (scope !== undefined && delayField !== undefined) {
    const wait = must(resolveDelay(delayField, scope), step);
    if (wait !== undefined && wait > 0) return afterDelay(wait, node, step, parent, context, scope, stdin, run, isRoot);
  }
  return execControlled(node, step, parent, context, scope, stdin, run, isRoot);
}

async function afterDelay(
  wait: number, node: JsonObject, step: string | undefined, parent: Context, context: Context, scope: Scope,
  stdin: Uint8Array | undefined, run: Run, isRoot: boolean,
): Promise<NodeResult> {
  if (!(await delay(wait, run.options.signal))) return aborted();
  return execControlled(node, step, parent, context, scope, stdin, run, isRoot);
}

// The node after its delay: when, failure, repeat, group retry, then its own kind.
function execControlled(
  node: JsonObject, step: string | undefined, parent: Context, context: Context, scope: Scope | undefined,
  stdin: Uint8Array | undefined, run: Run, isRoot: boolean,
): Promise<NodeResult> {
  const whenField = node["when"];
  if (scope !== undefined && whenField !== undefined && !must(resolveWhen(whenField, scope), step)) return Promise.resolve(skippedResult(stdin));
  const failureField = node["failure"];
  const failure = failureField === undefined ? "continue" : must(resolveFailure(failureField), step);

  const repeatField = node["repeat"];
  if (scope !== undefined && repeatField !== undefined) {
    const count = must(resolveRepeat(repeatField, scope), step);
    if (count !== undefined) {
      if (node["parallel"] === true && count > run.fanoutLimit) throw new TemplateError(fanoutMessage(count, run.fanoutLimit), step);
      return execNode(expandRepeat(node, count), parent, stdin, run, isRoot);
    }
  }

  const template = node["template"];
  if (scope !== undefined && node["retry"] !== undefined && (Array.isArray(template) || node["recover"] !== undefined)) {
    const attempts = must(resolveRetry(node["retry"], scope), step);
    if (attempts !== undefined) return runGroupRetry(node, attempts, failure, parent, context, stdin, run, execNode);
  }
  if (typeof template === "string") {
    return runLeaf(template, step === template ? undefined : step, context, node, stdin, run);
  }
  if (Array.isArray(template)) {
    if (node["parallel"] === true) return runParallel(node, template, context, stdin, run, execNode);
    return runSequence(template, failure, context, stdin, run, isRoot, execNode);
  }
  if (isObject(template)) return execNode(template, context, stdin, run, isRoot);
  throw new TemplateError("Tool template produced an empty command.", step);
}

/** Records a labelled node's output, and applies `output: "<label>"`: on success the node's
 * stdout becomes the latest stdout of the labelled step inside it. */
function select(node: JsonObject, result: NodeResult, run: Run): NodeResult {
  const label = node["label"];
  const wanted = node["output"];
  let out = result;
  if (typeof wanted === "string" && wanted !== "" && result.code === 0 && !result.skipped) {
    const chosen = run.trace.labelled.get(wanted);
    // an `output` that names no step label at all (often the name of an output file argument)
    // is ignored, as the prior art does: stdout stays the result, and doctor warns about it
    if (chosen === undefined && labelsIn(node["template"]).has(wanted)) throw new TemplateError(outputUnknown(wanted), stepName(node));
    if (chosen !== undefined) out = withStdout(result, chosen);
  }
  // a skipped or failed step produced nothing a later `output` could select
  if (typeof label === "string") run.trace.labelled.set(label, result.code === 0 && !result.skipped ? out.stdout : EMPTY_BYTES);
  return out;
}
