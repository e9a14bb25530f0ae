// One leaf command: argv from the template, then the process with its timeout, runner-level retry
// and stdin, then `accept_output` (docs/templates.md, "How a template runs").
import { captureDirIn } from "./captures.js";
import * as E from "fp-ts/lib/Either.js";
import type { Json } from "../../core/model.js";
import { compileLeaf } from "../../core/template/compile.js";
import { resolveRetry, resolveTimeout } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import { controlScope, leafScope } from "../../core/template/context.js";
import { invocationOf } from "../../core/template/invocation.js";
import { renderInvocation } from "../../core/template/report.js";
import { fromProcess, text } from "./results.js";
import type { NodeResult, Run } from "./types.js";
import { must } from "./types.js";
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
  template: string,
  label: string | undefined,
  context: Context,
  controls: LeafControls,
  stdin: Uint8Array | undefined,
  run: Run,
): Promise<NodeResult> {
  const step = label ?? template;
  const { options, runtime } = run;
  const scope = controlScope(context, runtime);
  const timeout = unwrap(resolveTimeout(controls.timeout, scope), step);
  const retry = unwrap(resolveRetry(controls.retry, scope), step);
  const invocation = unwrap(invocationOf(compileLeaf(template), leafScope(context, runtime), options.place), step);
  const command = renderInvocation(invocation);
  const { result } = await options.runner.runWithRetry(
    {
      command: invocation.command,
      args: invocation.args,
      cwd: options.place.cwd,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(stdin === undefined ? {} : { stdin }),
      ...(timeout === undefined || timeout === 0 ? {} : { timeoutMs: timeout }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(options.capturesRoot === undefined ? {} : { spillDir: captureDirIn(options.capturesRoot) }),
    },
    retry ?? 1,
  );
  let out = await fromProcess(result, command);
  if (result.timedOut) {
    // the process's own stderr rarely says it was killed; say which step and why
    out = { ...out, stderr: appendLine(out.stderr, `${step}: timed out after ${timeout ?? 0} ms`) };
  }
  if (out.code === 0 && controls.accept_output === "review_evidence" && !hasReviewMarker(text(out.stdout))) {
    out = { ...out, code: 65, stderr: appendLine(out.stderr, REVIEW_REJECTED) };
  }
  return out.code === 0 ? out : { ...out, failedStep: step };
}

export const appendLine = (stderr: string, line: string): string =>
  stderr === "" ? line : stderr.endsWith("\n") ? stderr + line : `${stderr}\n${line}`;
