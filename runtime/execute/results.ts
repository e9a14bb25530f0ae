// Building node results: from a finished process, for a skipped node, and derived ones.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { ProcessResult } from "../../adapters/process/ProcessRunner.js";
import type { FailureScope } from "../../core/template/controls.js";
import type { NodeResult } from "./run-state.js";

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder("utf-8");

export const text = (bytes: Uint8Array): string => decoder.decode(bytes);
const encoder = new TextEncoder();
export const bytesOf = (value: string): Uint8Array => encoder.encode(value);

const RANK: Readonly<Record<FailureScope, number>> = { continue: 0, branch: 1, root: 2 };

/** The widest of several failure scopes (continue < branch < root). */
export function widest(...scopes: readonly (FailureScope | undefined)[]): FailureScope {
  let out: FailureScope = "continue";
  for (const s of scopes) if (s !== undefined && RANK[s] > RANK[out]) out = s;
  return out;
}

/** A finished process as a node result; an overflowed stdout is read back complete from its
 * spill file, because the next step, a join or `accept_output` needs all of it. */
export async function fromProcess(fs: FileSystem, r: ProcessResult, command: string): Promise<NodeResult> {
  let stdout = r.stdout;
  let unreadable: string | undefined;
  if (r.stdoutTruncated) {
    if (r.stdoutFile === undefined) unreadable = "(no capture file)";
    else {
      try {
        stdout = await fs.readFile(r.stdoutFile);
      } catch {
        unreadable = r.stdoutFile;
      }
    }
  }
  return nodeResultOf(r, command, stdout, unreadable);
}

/** fromProcess for a capture that did not overflow (nothing to read back): no promise. */
export const fromCapture = (r: ProcessResult, command: string): NodeResult => nodeResultOf(r, command, r.stdout, undefined);

function nodeResultOf(r: ProcessResult, command: string, stdout: Uint8Array, unreadable: string | undefined): NodeResult {
  // built by assignment, in the key order of NodeResult: spreads cost more on every call, and the
  // optional fields are present only when something was spilled or could not be read back
  const result: { -readonly [K in keyof NodeResult]: NodeResult[K] } = {
    code: r.code,
    killed: r.killed,
    stdout,
    stderr: r.stderr.length === 0 ? "" : text(r.stderr),
    stdoutBytes: r.stdoutBytes,
    stdoutCapturedBytes: r.stdout.length,
    stderrBytes: r.stderrBytes,
    stderrCapturedBytes: r.stderr.length,
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
  } as { -readonly [K in keyof NodeResult]: NodeResult[K] };
  if (r.stdoutFile !== undefined) result.stdoutFile = r.stdoutFile;
  if (r.stderrFile !== undefined) result.stderrFile = r.stderrFile;
  if (unreadable !== undefined) result.stdoutUnreadable = unreadable;
  // a signal ended it: the 1 it is reported with is no exit code of the process's own
  if (r.signal !== undefined) result.noExitCode = true;
  result.commands = [command];
  result.scope = "continue";
  result.critical = false;
  result.skipped = false;
  return result;
}

/** A result made by the interpreter itself (joins, skips, pipeline errors). */
export function synthetic(code: number, stdout: Uint8Array, stderr: string, extra: Partial<NodeResult> = {}): NodeResult {
  return {
    code,
    killed: false,
    stdout,
    stderr,
    stdoutBytes: stdout.length,
    stdoutCapturedBytes: stdout.length,
    stderrBytes: bytesOf(stderr).length,
    stderrCapturedBytes: bytesOf(stderr).length,
    stdoutTruncated: false,
    stderrTruncated: false,
    commands: [],
    scope: "continue",
    critical: false,
    skipped: false,
    ...extra,
  };
}

/** A node skipped by `when`: a success passing its stdin on. */
export const skippedResult = (stdin: Uint8Array | undefined): NodeResult => synthetic(0, stdin ?? EMPTY, "", { skipped: true });

/** The result with another stdout (a `continue` failure, `output` selection). */
export function withStdout(r: NodeResult, stdout: Uint8Array): NodeResult {
  const { stdoutFile: _file, stdoutUnreadable: _unreadable, ...rest } = r;
  return { ...rest, stdout, stdoutBytes: stdout.length, stdoutCapturedBytes: stdout.length, stdoutTruncated: false };
}

export const EMPTY_BYTES = EMPTY;
