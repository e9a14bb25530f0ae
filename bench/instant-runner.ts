// A process runner that answers at once with `ok`, so a bench row measures the registry's own
// work around a launch and none of a child process's.
import { makeProcessRunner, type ProcessResult } from "../adapters/process/ProcessRunner.js";

const OUT = new TextEncoder().encode("ok\n");

export const instantRunner = makeProcessRunner("instant", async (): Promise<ProcessResult> => ({
  code: 0,
  pid: 1,
  killed: false,
  timedOut: false,
  stdout: OUT,
  stderr: new Uint8Array(0),
  stdoutBytes: OUT.length,
  stderrBytes: 0,
  stdoutTruncated: false,
  stderrTruncated: false,
  durationMs: 0,
}));
