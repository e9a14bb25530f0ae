// One leaf command: argv from the template, then the process with its timeout, runner-level retry
// and stdin, then `accept_output` (docs/templates.md, "How a template runs").
import { captureDirIn } from "./captures.js";
import * as E from "fp-ts/lib/Either.js";
import type { Invocation as ProcessInvocation } from "../../adapters/process/ProcessRunner.js";
import type { Json } from "../../core/model.js";
import type { CompiledLeaf } from "../../core/template/compile.js";
import { resolveRetry, resolveTimeout } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import { controlScope, leafScope } from "../../core/template/context.js";
import { invocationOf } from "../../core/template/invocation.js";
import { boundedCommand, renderInvocation } from "../../core/template/report.js";
import { fromCapture, fromProcess, text } from "./results.js";
import type { NodeResult, Run } from "./run-state.js";
import { must, TemplateError } from "./run-state.js";
import { COMMAND_LIMIT, runStoppedText } from "../../core/template/repeat.js";
import type { TemplateFailure } from "../../core/template/failure.js";

export const REVIEW_MARKER = "ACTOR_REVIEW_RESULT";
export const REVIEW_REJECTED = "review evidence rejected: missing ACTOR_REVIEW_RESULT marker";

/** The controls a leaf reads from the node that holds it. */
export interface LeafControls {
  readonly timeout?: Json | undefined;
  readonly retry?: Json | undefined;
  readonly accept_output?: Json | undefined;
}

/** Accepted review evidence starts (first non-blank line) with exactly the marker. */
export function hasReviewMarker(stdout: string): boolean {
  const first = stdout.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && first.trim() === REVIEW_MARKER;
}

const unwrap = <A>(r: E.Either<TemplateFailure, A>, step: string): A => must(r, step);

export async function runLeaf(
  leaf: CompiledLeaf,
  label: string | undefined,
  context: Context,
  controls: LeafControls,
  stdin: Uint8Array | undefined,
  run: Run,
): Promise<NodeResult> {
  const step = label ?? leaf.text;
  // a run starts at most COMMAND_LIMIT commands, each attempt of a retried one counted; a template
  // checked when it is loaded can still start more through retries, a group retry or a `repeat`
  // of `{name.length}` nested in another
  // (each further attempt is counted as it starts, against the one tally every branch of a
  // parallel node shares: branches retrying at the same time cannot each take what is left)
  const starting = (): void => {
    if (++run.commands.started > COMMAND_LIMIT) throw new TemplateError(runStoppedText(COMMAND_LIMIT), step);
  };
  starting();
  const { options, runtime } = run;
  // absent controls (the usual case) need no scope and no resolution
  let timeout: number | undefined;
  let retry: number | undefined;
  if (controls.timeout !== undefined || controls.retry !== undefined) {
    const scope = controlScope(context, runtime);
    timeout = unwrap(resolveTimeout(controls.timeout, scope), step);
    retry = unwrap(resolveRetry(controls.retry, scope), step);
  }
  const invocation = unwrap(invocationOf(leaf, leafScope(context, runtime), options.place), step);
  const command = boundedCommand(renderInvocation(invocation));
  const request: { -readonly [K in keyof ProcessInvocation]: ProcessInvocation[K] } = {
    command: invocation.command,
    args: invocation.args,
    cwd: options.place.cwd,
  };
  if (options.env !== undefined) request.env = options.env;
  if (stdin !== undefined) request.stdin = stdin;
  if (timeout !== undefined && timeout !== 0) request.timeoutMs = timeout;
  if (options.signal !== undefined) request.signal = options.signal;
  if (options.killGraceMs !== undefined) request.killGraceMs = options.killGraceMs;
  if (options.capturesRoot !== undefined) request.spillDir = captureDirIn(options.capturesRoot);
  const { result } = await options.runner.runWithRetry(request, retry ?? 1, starting);
  let out = result.stdoutTruncated ? await fromProcess(options.fs, result, command) : fromCapture(result, command);
  if (result.timedOut) {
    // the process's own stderr rarely says it was killed; say which step and why
    out = { ...out, timeoutMs: timeout ?? 0, stderr: appendLine(out.stderr, `${step}: timed out after ${timeout ?? 0} ms`) };
  } else if (result.signal !== undefined && !result.killed) {
    // ended by a signal from elsewhere (the OOM killer, a kill -9): it has no exit code of its own
    // (the 1 it is reported with), so the signal is said
    out = { ...out, signal: result.signal, stderr: appendLine(out.stderr, `${step}: killed by signal ${result.signal} (no exit code of its own)`) };
  }
  if (out.code === 0 && controls.accept_output === "review_evidence" && !hasReviewMarker(text(out.stdout))) {
    out = { ...out, code: 65, stderr: appendLine(out.stderr, REVIEW_REJECTED) };
  }
  return out.code === 0 ? out : { ...out, failedStep: step, failedCommand: command };
}

export const appendLine = (stderr: string, line: string): string =>
  stderr === "" ? line : stderr.endsWith("\n") ? stderr + line : `${stderr}\n${line}`;
