// The command's standard output and error, written without node's stream objects where that is
// safe. `process.stdout` is made on first use, and making it loads node's stream modules (and for
// a pipe `net`): some 6 ms of a fresh process here, a tenth of a `--version` or of a `list` the
// front door answers (docs/performance.md, "start-up"). A write here is a `writeSync` to the file
// descriptor instead, which on Linux is what node itself does for a file, a pipe or a terminal
// (those writes are synchronous there), in the same order.
//
// Where that is not so, the stream takes over, for good (so that nothing written later overtakes
// what it still holds): a descriptor that is non-blocking and full (EAGAIN: a reader that is slower
// than us, on a pipe some other process made non-blocking), Windows (its console wants node's
// UTF-16 conversion), and the full command (host-cli/main.ts), whose verbs use the streams too.
// What gains is the front door (host-cli/front-door.ts): `--version`, help, and the `list` and
// `inspect` it answers from what the caches kept. A reader that has gone (EPIPE: `pi-recipes list
// | head -1`) is no error of ours: what is left is dropped, here and by the streams (quietBrokenPipes).
import { fstatSync, writeSync } from "node:fs";

export interface StdOutput {
  write(chunk: string | Uint8Array): boolean;
  /** bytes the stream still holds (0 while writes are made here) */
  readonly writableLength: number;
  readonly isTTY: boolean;
}

/** Set by the full command (host-cli/main.ts), whose verbs also write to node's streams themselves
 *  (a call's live lines, `watch`, the MCP server): there every write goes to the stream, so that
 *  none overtakes what a stream still holds. */
let throughStreams = process.platform === "win32";

/** From now on every write goes to node's streams (see throughStreams). */
export function writeThroughStreams(): void {
  throughStreams = true;
}

const brokenPipe = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED";
};

/** A stream whose reader has gone says so with an `error` event: no error of ours, no stack trace
 *  (what is left is dropped); any other error of the stream is thrown. */
const quietOnBrokenPipe = (s: Pick<NodeJS.WriteStream, "on">): void =>
  void s.on("error", (e: Error) => {
    if (!brokenPipe(e)) throw e;
  });

/** quietOnBrokenPipe for node's stdout and stderr (the full command writes to them directly). */
export function quietBrokenPipes(): void {
  for (const out of [process.stdout, process.stderr]) quietOnBrokenPipe(out);
}

/** The output of descriptor `fd`, whose stream is `stream()` (made on first need), writing with
 *  `write` (`writeSync`; a test hands in its own). */
export function output(
  fd: number,
  stream: () => Pick<NodeJS.WriteStream, "write" | "writableLength" | "isTTY" | "on" | "listenerCount">,
  write: (fd: number, bytes: Uint8Array, offset: number, length: number) => number = writeSync,
): StdOutput {
  let handedOver = false;
  let gone = false;
  let terminal: boolean | undefined;
  const streaming = (): boolean => handedOver || throughStreams;
  const take = (): ReturnType<typeof stream> => {
    const s = stream();
    if (s.listenerCount("error") === 0) quietOnBrokenPipe(s);
    return s;
  };
  return {
    write(chunk) {
      if (gone) return false;
      if (streaming()) return take().write(chunk);
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      let done = 0;
      try {
        while (done < bytes.length) done += write(fd, bytes, done, bytes.length - done);
        return true;
      } catch (e) {
        if (brokenPipe(e)) {
          gone = true;
          return false;
        }
        if ((e as { code?: unknown }).code !== "EAGAIN") throw e;
        handedOver = true;
        return take().write(bytes.subarray(done));
      }
    },
    get writableLength() {
      return streaming() ? stream().writableLength : 0;
    },
    // only a character device can be a terminal: a file, a pipe or a socket is answered without
    // making the stream (which asks the terminal itself)
    get isTTY() {
      if (terminal === undefined) {
        let device = true;
        try {
          device = fstatSync(fd).isCharacterDevice();
        } catch {
          // a closed descriptor: the stream says what it is
        }
        terminal = device && stream().isTTY === true;
      }
      return terminal;
    },
  };
}

export const stdout: StdOutput = output(1, () => process.stdout);
export const stderr: StdOutput = output(2, () => process.stderr);
