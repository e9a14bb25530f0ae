// The ProcessRunner on node:child_process.
//
// Each child leads its own process group, so a timeout or an abort can end everything it
// started (a shell's background jobs included) with one signal to -pid. A run lasts as long as
// its leader: when the leader exits, members it left behind are terminated too, so no stray can
// hold the output pipes open (and the run with them) or outlive the result.
import { spawn, type ChildProcess } from "node:child_process";
import { setMaxListeners } from "node:events";
import { appendFileSync, existsSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { captureStream, type Captured } from "./capture.js";
import { childEnvironment } from "./child-env.js";
import { groupAlive, killGroup } from "./group.js";
import { identityOf } from "./identity.js";
import { boundedCommand } from "../../core/template/report.js";
import {
  DEFAULT_CAPTURE_LIMIT_BYTES,
  DEFAULT_KILL_GRACE_MS,
  makeProcessRunner,
  type Invocation,
  type ProcessResult,
  type ProcessRunner,
} from "./ProcessRunner.js";

const OWN_GROUP = process.platform !== "win32";
export const SPILL_DIR_PREFIX = "pi-recipes-command-";
const DRAIN_AFTER_KILL_MS = 200;
const MAX_TIMER_MS = 2 ** 31 - 1;

export const nodeProcessRunner: ProcessRunner = makeProcessRunner("node", runProcess);

export async function runProcess(invocation: Invocation): Promise<ProcessResult> {
  // process.hrtime rather than performance.now(): node:perf_hooks is ten modules node compiles
  // when first asked for, some 2 ms of every call's start-up
  const started = process.hrtime.bigint();
  const elapsed = (): number => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  if (invocation.signal?.aborted === true) return abortedBeforeStart(elapsed());

  let child: ChildProcess;
  try {
    child = spawn(invocation.command, [...invocation.args], {
      cwd: invocation.cwd,
      env: childEnvironment(invocation.env),
      shell: false,
      detached: OWN_GROUP,
      stdio: [invocation.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", ...(invocation.fds ?? [])],
      windowsHide: true,
    });
  } catch (e) {
    // Node refuses some arguments synchronously (a NUL byte, a non-string): the command never
    // started, and the text says so (not an exit code it never had)
    return spawnFailure(`Could not start ${commandNamed(invocation.command)}: ${refusedWhy(invocation, e)}`, elapsed());
  }

  // The group is noted the moment the process exists, before anything is awaited: a worker
  // killed right after the start then still leaves the supervisor the group to end.
  noteGroup(child.pid, invocation.groupLog);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const startError = await spawned(child);
  if (startError !== undefined) {
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    return spawnFailure(describeSpawnError(startError, invocation), elapsed());
  }
  child.on("error", () => undefined);
  const pid = child.pid ?? 0;

  const spillDir = once(() => prepareSpillDir(invocation.spillDir));
  const limitBytes = nonNegative(invocation.captureLimitBytes) ?? DEFAULT_CAPTURE_LIMIT_BYTES;
  const stdoutDone = capture(child.stdout, limitBytes, async () => join(await spillDir(), "stdout.log"), invocation.onStdout);
  const stderrDone = capture(child.stderr, limitBytes, async () => join(await spillDir(), "stderr.log"));
  // attached after the captures, which must see every byte from the first
  const onOutput = invocation.onOutput;
  if (onOutput !== undefined) {
    // an observer that throws must not break the capture of the command's output
    const tap = (stream: "stdout" | "stderr") => (chunk: Uint8Array): void => {
      try {
        onOutput(stream, chunk);
      } catch {
        // ignored: the output is still captured in full
      }
    };
    child.stdout?.on("data", tap("stdout"));
    child.stderr?.on("data", tap("stderr"));
  }

  if (invocation.stdin !== undefined && child.stdin !== null) {
    // A child that exits without reading its stdin makes the write fail with EPIPE; that is
    // the child's business, not a crash of ours.
    child.stdin.on("error", () => undefined);
    child.stdin.end(typeof invocation.stdin === "string" ? Buffer.from(invocation.stdin) : invocation.stdin);
  }

  const graceMs = nonNegative(invocation.killGraceMs) ?? DEFAULT_KILL_GRACE_MS;
  let timedOut = false;
  let aborted = false;
  let ending: Promise<boolean> | undefined;
  const endGroup = (): Promise<boolean> => (ending ??= terminate(child, pid, graceMs));
  let settled = false;
  // A process that left our group (setsid, a daemon) can hold the pipes open forever. Once all
  // we can kill is dead, give the last output a moment to drain, then stop reading.
  const kill = (): void => {
    void endGroup().then(() => {
      if (!settled) setTimeout(() => [child.stdout, child.stderr].forEach((s) => s?.destroy()), DRAIN_AFTER_KILL_MS).unref();
    });
  };
  // setTimeout turns delays beyond 2^31-1 ms into 1 ms; those are "no timeout" in practice.
  const timeoutMs = nonNegative(invocation.timeoutMs) ?? 0;
  const timer =
    timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          kill();
        }, timeoutMs)
      : undefined;
  const onAbort = (): void => {
    aborted = true;
    kill();
  };
  if (invocation.signal !== undefined) {
    // one listener per running command: a parallel node runs up to 64 branches on one signal, past
    // node's default of 10, which would print a "possible memory leak" warning to stderr; each
    // listener goes when its command ends
    setMaxListeners(0, invocation.signal);
    invocation.signal.addEventListener("abort", onAbort, { once: true });
  }
  // an abort that came while the child was starting found no listener yet
  if (!aborted && abortedNow(invocation.signal)) onAbort();

  const exit = await exited;
  if (ending === undefined && OWN_GROUP && groupAlive(pid)) void endGroup();
  const [stdout, stderr] = await Promise.all([stdoutDone, stderrDone]);
  settled = true;
  if (timer !== undefined) clearTimeout(timer);
  invocation.signal?.removeEventListener("abort", onAbort);
  if (ending !== undefined) await ending;

  const killed = timedOut || aborted;
  // A run we had to kill is a failure even if the process chose to exit 0 on SIGTERM.
  const code = exit.code === null || (killed && exit.code === 0) ? 1 : exit.code;
  return {
    code,
    pid,
    ...(exit.signal !== null ? { signal: exit.signal } : {}),
    killed,
    timedOut,
    stdout: stdout.tail,
    stderr: stderr.tail,
    stdoutBytes: stdout.totalBytes,
    stderrBytes: stderr.totalBytes,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    ...(stdout.file !== undefined ? { stdoutFile: stdout.file } : {}),
    ...(stderr.file !== undefined ? { stderrFile: stderr.file } : {}),
    durationMs: elapsed(),
  };
}

// a function, so that the check is not narrowed away by the one made before the spawn
const abortedNow = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** Resolves with the spawn error, or undefined once the child is running. */
export function spawned(child: ChildProcess): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const onSpawn = (): void => {
      child.off("error", onError);
      resolve(undefined);
    };
    const onError = (e: Error): void => {
      child.off("spawn", onSpawn);
      resolve(e);
    };
    child.once("spawn", onSpawn);
    child.once("error", onError);
  });
}

function terminate(child: ChildProcess, pid: number, graceMs: number): Promise<boolean> {
  if (OWN_GROUP) return killGroup(pid, graceMs);
  child.kill("SIGTERM");
  const late = setTimeout(() => child.kill("SIGKILL"), graceMs);
  return new Promise((resolve) =>
    child.once("exit", () => {
      clearTimeout(late);
      resolve(true);
    }),
  );
}

const EMPTY = new Uint8Array(0);
const EMPTY_CAPTURE: Captured = { tail: EMPTY, totalBytes: 0, truncated: false, peakRetainedBytes: 0 };

function capture(stream: ChildProcess["stdout"], limitBytes: number, spillPath: () => Promise<string>, onChunk?: (chunk: Uint8Array) => void): Promise<Captured> {
  return stream === null ? Promise.resolve(EMPTY_CAPTURE) : captureStream(stream, { limitBytes, spillPath, ...(onChunk === undefined ? {} : { onChunk }) });
}

// A spill holds whatever the command printed, secrets included: its folder is this user's alone
// (as mkdtemp makes it), whatever the umask, and so is the folder it is made in when that is
// made for it (the runtime's `captures/`); its files are 0600 (capture.ts). The folders above
// those keep the umask's mode: they may hold more than spills.
async function prepareSpillDir(spillDir: string | undefined): Promise<string> {
  if (spillDir === undefined) return mkdtemp(join(tmpdir(), SPILL_DIR_PREFIX));
  const parent = dirname(spillDir);
  if ((await mkdir(parent, { recursive: true })) !== undefined) await chmod(parent, 0o700);
  await mkdir(spillDir, { recursive: true, mode: 0o700 });
  return spillDir;
}

/** The result of a process that never started: `message` is its stderr and its spawn error. */
export function spawnFailure(message: string, durationMs: number): ProcessResult {
  const stderr = Buffer.from(message);
  return {
    code: 1,
    killed: false,
    timedOut: false,
    stdout: EMPTY,
    stderr,
    stdoutBytes: 0,
    stderrBytes: stderr.length,
    stdoutTruncated: false,
    stderrTruncated: false,
    spawnError: message,
    durationMs,
  };
}

function abortedBeforeStart(durationMs: number): ProcessResult {
  return {
    code: 1,
    killed: true,
    timedOut: false,
    stdout: EMPTY,
    stderr: EMPTY,
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs,
  };
}

// Node reports a missing working directory as `spawn <command> ENOENT`, which blames the
// command; say which one is missing.
// A missing command says so in words, naming where it was looked for; the `Could not start`
// prefix lets the report leave out an exit code that never happened (core/template/report.ts).
function describeSpawnError(e: Error, invocation: Invocation): string {
  const code = (e as NodeJS.ErrnoException).code;
  const message = nodeMessage(e, invocation.command);
  if (code === "ENOENT" && !isDirectory(invocation.cwd)) return `${message} (working directory not found: ${invocation.cwd})`;
  const command = commandNamed(invocation.command);
  if (code === "ENOENT") {
    return invocation.command.includes("/") ? `Could not start ${command}: no such file (${message})` : `Could not start ${command}: not found on PATH (${message})`;
  }
  if (code === "EACCES") return `Could not start ${command}: permission denied, not an executable file (${message})`;
  if (code === "E2BIG") return `Could not start ${command}: ${tooBig(invocation)}`;
  return message;
}

/** The command as a failure to start names it, quoted. A placeholder can make it megabytes (a
 *  template whose executable word is `{x}`), and the result would carry all of it back: past
 *  MAX_COMMAND_CHARS it is cut as a result's command text is (its start, what was left out, its
 *  end), and its length said. */
function commandNamed(command: string): string {
  const bounded = boundedCommand(command);
  return bounded === command ? JSON.stringify(command) : `${JSON.stringify(bounded)} (${command.length} characters)`;
}

/** node's own message, which repeats the command (`spawn <command> ENOENT`): with the command cut
 *  the same way. */
function nodeMessage(e: unknown, command: string): string {
  const message = errorMessage(e);
  const bounded = boundedCommand(command);
  return bounded === command ? message : message.split(command).join(bounded);
}

/** Linux's bound on one argument, its NUL counted: 32 pages of 4 KiB. */
const MAX_ARG_STRLEN = 128 * 1024;

/** The system takes only so much on one command line: in all (ARG_MAX, the environment counted
 *  in) and, on Linux, 128 KiB for any one argument. Either is said with the sizes that broke it,
 *  each word counted in UTF-8 bytes with the NUL that ends it, as the system counts them, and
 *  with the bound that was passed: one argument of 131072 bytes of text is already over the
 *  one-argument bound, its NUL making 128 KiB and one byte. The longest argument is named among
 *  several, and alone when it is what broke the bound for one. */
function tooBig(invocation: Invocation): string {
  const words = [invocation.command, ...invocation.args];
  const sizes = words.map((w) => Buffer.byteLength(w) + 1);
  const total = sizes.reduce((a, b) => a + b, 0);
  const longestSize = Math.max(...sizes.slice(1), 0);
  const longest = longestSize - 1;
  const overOne = process.platform === "linux" && longestSize > MAX_ARG_STRLEN;
  const named = (words.length > 2 && longest > 0) || overOne;
  const parts = named ? `${total} bytes in all, the longest argument ${longest} bytes` : `${total} bytes`;
  const bound = overOne
    ? `one argument may hold at most ${MAX_ARG_STRLEN - 1} bytes, 128 KiB with the NUL that ends it`
    : "over the bound on a whole command line, ARG_MAX, the environment counted in";
  return `the arguments are too long for one command line (${parts}: ${bound}); pass large input on stdin or in a file instead`;
}

/** Why node refused to start `invocation` before any process existed. */
function refusedWhy(invocation: Invocation, e: unknown): string {
  const at = [invocation.command, ...invocation.args].findIndex((a) => typeof a === "string" && a.includes("\0"));
  if (at === 0) return "the command name holds a NUL byte";
  if (at > 0) return `argument ${at} holds a NUL byte, which no command line can carry`;
  if ((e as NodeJS.ErrnoException | undefined)?.code === "E2BIG") return tooBig(invocation);
  return nodeMessage(e, invocation.command);
}

function isDirectory(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A usable count of bytes or milliseconds; NaN, Infinity and negatives fall back to defaults. */
const nonNegative = (n: number | undefined): number | undefined => (n !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined);

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** Appends a started command's process group (its pid and start time) to the run's group log. */
function noteGroup(pid: number | undefined, groupLog: string | undefined): void {
  if (pid === undefined || pid === 0 || groupLog === undefined) return;
  try {
    appendFileSync(groupLog, `${pid} ${identityOf(pid).start_time ?? ""}\n`, { mode: 0o600 });
  } catch {
    // then the supervisor cannot end this group if its worker is killed: the command still runs
  }
}
