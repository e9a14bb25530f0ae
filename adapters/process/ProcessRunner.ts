// The ProcessRunner port: run one argv (never through a shell) and report what happened as a
// value. A run never rejects: a missing executable, a bad working directory or an argument the
// OS refuses all come back as a result with code 1 and the reason on stderr, because one broken
// recipe must not take the registry down.
//
// Derived operations (retry) are written once here on top of `run`, not per adapter.
import { join } from "node:path";

export const DEFAULT_CAPTURE_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_KILL_GRACE_MS = 5000;

export interface Invocation {
  readonly command: string;
  /** passed to the program as is: no splitting, globbing or expansion of any kind */
  readonly args: readonly string[];
  readonly cwd: string;
  /** the complete environment of the child; absent means the parent's environment */
  readonly env?: Readonly<Record<string, string>>;
  /** open descriptors the child gets as its descriptors 3, 4, ... in this order (a sandbox's
   *  paths pinned by the runner that confines it: adapters/process/bwrap.ts) */
  readonly fds?: readonly number[];
  /** written to the child's stdin, which is then closed; absent means stdin is not connected */
  readonly stdin?: Uint8Array | string;
  /** 0 or absent: no timeout */
  readonly timeoutMs?: number;
  /** time between SIGTERM and SIGKILL to the process group (default 5000) */
  readonly killGraceMs?: number;
  readonly signal?: AbortSignal;
  /** bytes kept in memory per stream (default 1 MiB); the rest is only in the spill file */
  readonly captureLimitBytes?: number;
  /** where `stdout.log`/`stderr.log` go when a stream overflows; default: a fresh
   *  `pi-recipes-command-*` folder under the OS temp dir. Made private to this user (0700), and
   *  so is the folder it is made in when that did not exist */
  readonly spillDir?: string;
  /** sees each stdout chunk as the command prints it (an async run's live log); the capture is
   *  unchanged */
  readonly onStdout?: (chunk: Uint8Array) => void;
  /** sees each chunk of either stream as it arrives (progress, live display); the result still
   *  holds the whole output */
  readonly onOutput?: (stream: "stdout" | "stderr", chunk: Uint8Array) => void;
  /** a file the started process's group is noted in (a line: its leader's pid and start time),
   *  written before anything else happens after the spawn: an async run's supervisor ends the
   *  groups noted there when its worker dies (adapters/process/supervisor.mjs) */
  readonly groupLog?: string;
}

export interface ProcessResult {
  /** the exit code; 1 when the process had none (killed by a signal, failed to spawn) */
  readonly code: number;
  /** the process id, which is also its process group id; absent when it never started */
  readonly pid?: number;
  /** the signal that ended the process, if any */
  readonly signal?: string;
  /** the run was ended by its timeout or its abort signal */
  readonly killed: boolean;
  readonly timedOut: boolean;
  /** the last `captureLimitBytes` of stdout, starting on a UTF-8 boundary when truncated */
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  /** bytes the stream produced in total */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** the complete stream, present when it was truncated and the spill file could be written */
  readonly stdoutFile?: string;
  readonly stderrFile?: string;
  /** set when the process could not be started; the same text is on stderr */
  readonly spawnError?: string;
  readonly durationMs: number;
}

export interface RetriedResult {
  /** the last attempt's result (the first success, or the last failure) */
  readonly result: ProcessResult;
  /** how many times the process ran */
  readonly attempts: number;
}

export interface ProcessRunner {
  readonly name: string;
  run(invocation: Invocation): Promise<ProcessResult>;
  /** re-runs until exit 0, at most `attempts` times (at least once); `beforeRetry` is called
   *  before each attempt after the first, and what it throws ends the retries unstarted */
  runWithRetry(invocation: Invocation, attempts: number, beforeRetry?: () => void): Promise<RetriedResult>;
}

/** Builds a runner from its one primitive, deriving the rest. */
export function makeProcessRunner(name: string, run: (invocation: Invocation) => Promise<ProcessResult>): ProcessRunner {
  return { name, run, runWithRetry: (invocation, attempts, beforeRetry) => runWithRetry(run, invocation, attempts, beforeRetry) };
}

export async function runWithRetry(
  run: (invocation: Invocation) => Promise<ProcessResult>,
  invocation: Invocation,
  attempts: number,
  beforeRetry?: () => void,
): Promise<RetriedResult> {
  const max = Number.isFinite(attempts) ? Math.max(1, Math.floor(attempts)) : 1;
  let attempt = 0;
  for (;;) {
    attempt += 1;
    if (attempt > 1) beforeRetry?.();
    // Each attempt spills into its own folder so a later attempt never overwrites the
    // evidence of an earlier one.
    const spillDir = invocation.spillDir !== undefined && max > 1 ? join(invocation.spillDir, attemptDirName(attempt)) : invocation.spillDir;
    const result = await run(spillDir === undefined ? invocation : { ...invocation, spillDir });
    if (result.code === 0 || attempt >= max || invocation.signal?.aborted === true) return { result, attempts: attempt };
  }
}

export const attemptDirName = (attempt: number): string => `attempt-${String(attempt).padStart(3, "0")}`;
