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
// `inspect` it answers from what the caches kept.
//
// When the output cannot be written, the rest of it is dropped and whoever waits on it
// (`whenGone`: `watch`) is told. A reader that has gone (EPIPE: `pi-recipes list | head -1`) is
// no error of ours and is said nowhere. Any other failure of stdout (a full disk: `pi-recipes
// list > /dev/full`, an I/O error) is said: one line on stderr naming it, and exit status 1, so
// that an answer cut short never looks like a whole one; never a stack trace. A failure of stderr
// has nowhere to be said and is dropped.
import { fstatSync, writeSync } from "node:fs";

export interface StdOutput {
  /** writes `chunk`; false when it was dropped (the output failed, or its reader has gone) */
  write(chunk: string | Uint8Array): boolean;
  /** bytes the stream still holds (0 while writes are made here) */
  readonly writableLength: number;
  readonly isTTY: boolean;
  /** true once the output failed or its reader went (what is written since is dropped) */
  readonly gone: boolean;
  /** calls `listener` once, when the output fails or its reader goes (at once if it has) */
  whenGone(listener: () => void): void;
  /** makes the stream now and handles its errors as a failed write here is handled: for code
   *  that writes to node's stream itself (the full command's verbs, the MCP server) */
  guardStream(): void;
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

/** node's stdout and stderr guarded (the full command writes to them directly): a gone reader is
 *  quiet, any other failure of stdout said once (see the top of this file). */
export function guardStdStreams(): void {
  stdout.guardStream();
  stderr.guardStream();
}

/** What a failure of an output other than a gone reader does. */
export type OutputFailure = (error: unknown) => void;

const failExit = (): void => {
  if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = 1;
};

/** stdout's failure: one line on stderr (written to the descriptor), and exit status 1 unless the
 *  command has a failing one of its own. Set now and again at exit: a stream reports a failed
 *  write a tick later, so the failure may come before or after the command sets its status. */
export const stdoutFailure: OutputFailure = (error) => {
  const reason = error instanceof Error ? error.message : String(error);
  try {
    writeSync(2, `pi-recipes: cannot write to standard output: ${reason}\n`);
  } catch {
    // stderr failed too: the exit status still says it
  }
  failExit();
  process.once("exit", failExit);
};

/** The output of descriptor `fd`, whose stream is `stream()` (made on first need), writing with
 *  `write` (`writeSync`; a test hands in its own); `failed` is told of a failure that is not a
 *  gone reader. */
export function output(
  fd: number,
  stream: () => Pick<NodeJS.WriteStream, "write" | "writableLength" | "isTTY" | "on">,
  write: (fd: number, bytes: Uint8Array, offset: number, length: number) => number = writeSync,
  failed: OutputFailure = () => undefined,
): StdOutput {
  let handedOver = false;
  let gone = false;
  let guarded = false;
  let terminal: boolean | undefined;
  const listeners: (() => void)[] = [];
  const streaming = (): boolean => handedOver || throughStreams;
  const stop = (e: unknown): void => {
    if (gone) return;
    gone = true;
    if (!brokenPipe(e)) failed(e);
    for (const listener of listeners.splice(0)) listener();
  };
  // a stream reports a failed write with an `error` event (a pipe, a terminal) or, writing to a
  // file, may throw it from `write` (node 20's stream for a file does)
  const take = (): ReturnType<typeof stream> => {
    const s = stream();
    if (!guarded) {
      guarded = true;
      s.on("error", stop);
    }
    return s;
  };
  const toStream = (chunk: string | Uint8Array): boolean => {
    try {
      return take().write(chunk);
    } catch (e) {
      stop(e);
      return false;
    }
  };
  return {
    write(chunk) {
      if (gone) return false;
      if (streaming()) return toStream(chunk);
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      let done = 0;
      try {
        while (done < bytes.length) done += write(fd, bytes, done, bytes.length - done);
        return true;
      } catch (e) {
        if ((e as { code?: unknown }).code !== "EAGAIN") {
          stop(e);
          return false;
        }
        handedOver = true;
        return toStream(bytes.subarray(done));
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
    get gone() {
      return gone;
    },
    whenGone(listener) {
      if (gone) listener();
      else listeners.push(listener);
    },
    guardStream() {
      take();
    },
  };
}

export const stdout: StdOutput = output(1, () => process.stdout, writeSync, stdoutFailure);
export const stderr: StdOutput = output(2, () => process.stderr);
