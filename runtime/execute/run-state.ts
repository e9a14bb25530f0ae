// What the graph interpreter passes around: the outcome of one node, the branch evidence of
// parallel nodes, and the per-run environment.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import * as E from "fp-ts/lib/Either.js";
import type { ProcessRunner } from "../../adapters/process/ProcessRunner.js";
import type { TemplateFailure } from "../../core/template/failure.js";
import type { ContextCache } from "../../core/template/context.js";
import type { FailureScope } from "../../core/template/controls.js";
import type { Place } from "../../core/template/invocation.js";
import type { ContinuedFailure, NonCriticalFailure } from "../../core/template/report.js";
import type { Values } from "../../core/template/substitute.js";

/** The result of one node of the template graph. */
export interface NodeResult {
  readonly code: number;
  readonly killed: boolean;
  /** the complete stdout (read back from the spill file when the capture overflowed) */
  readonly stdout: Uint8Array;
  readonly stderr: string;
  readonly stdoutBytes: number;
  readonly stdoutCapturedBytes: number;
  readonly stderrBytes: number;
  readonly stderrCapturedBytes: number;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly stdoutFile?: string;
  readonly stderrFile?: string;
  /** the capture overflowed and its spill file could not be read: `stdout` is only the tail */
  readonly stdoutUnreadable?: string;
  /** rendered invocations this node ran, in order */
  readonly commands: readonly string[];
  /** how far a failure reaches (meaningful when code ≠ 0) */
  readonly scope: FailureScope;
  readonly critical: boolean;
  /** the node was skipped by `when` */
  readonly skipped: boolean;
  /** the label or leaf text of the step a failure came from */
  readonly failedStep?: string;
  /** the rendered command of the leaf a failure came from */
  readonly failedCommand?: string;
  /** the signal from elsewhere (not the run's own timeout or abort) that ended the failed leaf */
  readonly signal?: string;
  /** the failed process had no exit code of its own (a signal ended it): `code` is the 1 it is
   *  reported with */
  readonly noExitCode?: boolean;
  /** the failure is a timeout: the milliseconds after which the step or node was ended */
  readonly timeoutMs?: number;
}

export interface BranchReport {
  readonly code: number;
  readonly command: string;
  readonly failureReason?: "empty_output" | "timeout_or_killed" | "nonzero_exit" | "nonzero_exit_empty_stderr";
  readonly killed: boolean;
  readonly label: string;
  readonly status: "done" | "failed" | "timeout";
  readonly stderr?: string;
  readonly stderrBytes: number;
  readonly stderrCapturedBytes: number;
  readonly stderrFile?: string;
  readonly stderrTruncated?: boolean;
  readonly stdout?: string;
  readonly stdoutBytes: number;
  readonly stdoutCapturedBytes: number;
  readonly stdoutFile?: string;
  readonly stdoutTruncated?: boolean;
  /** internal: done with complete, non-empty output (not part of the reported object) */
  readonly usable: boolean;
}

export interface SoftQuorum {
  readonly coverage: number;
  readonly degraded: boolean;
  readonly done: number;
  readonly expected: number;
  readonly failed: number;
  readonly usable: boolean;
}

/** Evidence collected over a whole run. */
export interface Trace {
  readonly branches: BranchReport[];
  readonly nonCritical: NonCriticalFailure[];
  /** steps that failed while their sequence went on, and no retry recovered: the result names them */
  readonly continued: ContinuedFailure[];
  softQuorum: SoftQuorum | undefined;
  /** the latest stdout of every labelled node, for `output: "<label>"` */
  readonly labelled: Map<string, Uint8Array>;
  /** the labelled nodes whose latest run failed, with that failure: a root node whose `output`
   *  names one of them has no answer, and fails with it */
  readonly failedLabelled: Map<string, NodeResult>;
}

export interface ExecuteOptions {
  readonly runner: ProcessRunner;
  /** where an overflowed output is read back from (the host's file system) */
  readonly fs: FileSystem;
  readonly place: Place;
  /** the children's environment; absent: this process's */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** the widest parallel node allowed (default 64, or $PI_ACTORS_MAX_PARALLEL_BRANCHES) */
  readonly maxParallelBranches?: number;
  /** SIGTERM → SIGKILL grace of timed-out steps */
  readonly killGraceMs?: number;
  /** where overflowing output is spilled (one folder per command); absent: the OS temp dir */
  readonly capturesRoot?: string;
  /** parsed recipe defaults kept across calls; absent: a fresh cache for this execution */
  readonly contextCache?: ContextCache;
}

/** Everything a node needs besides its own JSON. */
export interface Run {
  readonly options: ExecuteOptions;
  readonly runtime: Values;
  readonly trace: Trace;
  readonly fanoutLimit: number;
  /** where a sequence records a step that failed while it went on: the trace's list, except
   * inside a group retry, whose attempts each get their own until one is final */
  readonly continued: ContinuedFailure[];
  /** the commands the run has started, one count shared by every view of the run */
  readonly commands: CommandTally;
}

/** How many processes a run has started: each attempt of a retried leaf counts, and so does a
 *  leaf run again by a group retry or by another copy of a repeat. Every branch of a parallel
 *  node counts into this one tally, checked before each process starts. */
export interface CommandTally {
  started: number;
}

/** The same run, also ended by `signal` (besides the run's own, if it has one): what a node's
 *  deadline and a parallel node's halt run their children under. Everything else is shared. */
export function alsoEndedBy(run: Run, signal: AbortSignal): Run {
  const outer = run.options.signal;
  const either = outer === undefined ? signal : AbortSignal.any([outer, signal]);
  return { options: { ...run.options, signal: either }, runtime: run.runtime, trace: run.trace, fanoutLimit: run.fanoutLimit, continued: run.continued, commands: run.commands };
}

/** A template error: the run stops and reports `message`; `step` names the node it came from;
 * `kind` says whether the call's values could fix it (`missing-value`). */
export class TemplateError extends Error {
  constructor(message: string, readonly step?: string, readonly kind: TemplateFailure["kind"] = "invalid") {
    super(message);
  }
}

/** Throws the failure of `r` as a TemplateError of `step`. */
export function must<A>(r: E.Either<TemplateFailure, A>, step: string | undefined): A {
  if (E.isLeft(r)) throw new TemplateError(r.left.message, step, r.left.kind);
  return r.right;
}
