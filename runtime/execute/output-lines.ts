// A process runner that reports each line of every command's output as it is printed, for live
// display (`pi-recipes call`) and progress notifications (MCP). The result of each run is the
// base runner's, whole and unchanged: watching output never replaces capturing it.
import { makeProcessRunner, type Invocation, type ProcessRunner } from "../../adapters/process/ProcessRunner.js";

export interface OutputLine {
  /** the program, as invoked */
  readonly command: string;
  readonly stream: "stdout" | "stderr";
  /** one line without its line break (a last line without one is reported when the run ends) */
  readonly line: string;
}

/** Lines longer than this are cut: a progress message is not the place for a megabyte. */
export const MAX_LINE_CHARS = 1000;

export function withOutputLines(base: ProcessRunner, onLine: (line: OutputLine) => void): ProcessRunner {
  return makeProcessRunner(`${base.name}+lines`, async (invocation: Invocation) => {
    const pending = { stdout: "", stderr: "" };
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    const report = (stream: "stdout" | "stderr", line: string): void =>
      onLine({ command: invocation.command, stream, line: line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line });
    const onOutput = (stream: "stdout" | "stderr", chunk: Uint8Array): void => {
      invocation.onOutput?.(stream, chunk);
      const parts = (pending[stream] + decoders[stream].decode(chunk, { stream: true })).split("\n");
      pending[stream] = parts.pop() ?? "";
      for (const part of parts) report(stream, part.endsWith("\r") ? part.slice(0, -1) : part);
    };
    try {
      return await base.run({ ...invocation, onOutput });
    } finally {
      for (const stream of ["stdout", "stderr"] as const) {
        const rest = pending[stream] + decoders[stream].decode();
        if (rest !== "") report(stream, rest);
      }
    }
  });
}
