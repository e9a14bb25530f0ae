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

/** What a line's start must hold to be reported: its first MAX_LINE_CHARS characters and one more,
 *  which tells a line that is cut from one that is not (or holds the carriage return of one
 *  exactly that long). */
const KEPT = MAX_LINE_CHARS + 1;

export function withOutputLines(base: ProcessRunner, onLine: (line: OutputLine) => void): ProcessRunner {
  return makeProcessRunner(`${base.name}+lines`, async (invocation: Invocation) => {
    // the start of each stream's line not yet ended, never more than KEPT characters: output
    // without line breaks (a binary or minified file printed whole) costs each chunk's own length
    // once, however long the line grows
    const pending = { stdout: "", stderr: "" };
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    const report = (stream: "stdout" | "stderr", line: string): void => {
      const text = line.endsWith("\r") ? line.slice(0, -1) : line;
      onLine({ command: invocation.command, stream, line: text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text });
    };
    /** `head` with as much of text[from, to) as a line start keeps */
    const kept = (head: string, text: string, from: number, to: number): string =>
      head.length >= KEPT ? head : head + text.slice(from, Math.min(to, from + KEPT - head.length));
    const onOutput = (stream: "stdout" | "stderr", chunk: Uint8Array): void => {
      invocation.onOutput?.(stream, chunk);
      const text = decoders[stream].decode(chunk, { stream: true });
      let from = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", from)) {
        report(stream, kept(pending[stream], text, from, end));
        pending[stream] = "";
        from = end + 1;
      }
      pending[stream] = kept(pending[stream], text, from, text.length);
    };
    try {
      return await base.run({ ...invocation, onOutput });
    } finally {
      for (const stream of ["stdout", "stderr"] as const) {
        const rest = decoders[stream].decode();
        const last = kept(pending[stream], rest, 0, rest.length);
        if (last !== "") report(stream, last);
      }
    }
  });
}
