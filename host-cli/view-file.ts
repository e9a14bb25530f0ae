// The view cache's file (runtime/view-cache.ts says what it keeps and when it may be used): the
// answer's `--json` object exactly as it was printed (nothing for the text form), then the header
// line, then a trailer of 16 bytes, the header's offset in 15 digits and a newline. The answer
// comes first so that it is written as it is printed, piece by piece, and copied out the same way,
// never held whole; the trailer lets a reader find the header without reading the answer.
//
// The file is written as a temp beside it and renamed over it, so a reader sees the old file or the
// new one; without an fsync a power cut may leave it short, and a file whose trailer, header and
// size do not agree is no file at all.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { beginReplaceFileSync, type Replacement } from "../adapters/fs/replace-file-sync.js";

const TRAILER = 16;
/** a header holds some 200 bytes a recipe: room for far more than 100,000 */
const MAX_HEADER = 1 << 28;
const CHUNK = 1 << 16;

export interface KeptFile {
  /** the header line */
  readonly header: Uint8Array;
  /** the answer's size in bytes */
  readonly body: number;
  /** copies the answer to `write`, chunk by chunk; false when the file ended early. `write` says
   *  whether it is done with the chunk (its bytes were handed on, not queued): the chunk's memory
   *  is then used for the next one */
  copyBody(write: (chunk: Uint8Array) => boolean): boolean;
  close(): void;
}

function readFully(fd: number, length: number, position: number, into?: Buffer): Uint8Array | undefined {
  const buf = into !== undefined && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let off = 0;
  while (off < length) {
    const n = readSync(fd, buf, off, length - off, position + off);
    if (n === 0) return undefined;
    off += n;
  }
  return buf;
}

/** The file at `path`, when its trailer, header and size agree; else undefined. */
export function openKept(path: string): KeptFile | undefined {
  let fd: number;
  try {
    // without blocking: a FIFO put where the file belongs must not hang the command (the fstat
    // below then turns it away)
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const close = (): void => {
    try {
      closeSync(fd);
    } catch {
      // nothing to do
    }
  };
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size < TRAILER) throw new Error("short");
    const trailer = readFully(fd, TRAILER, st.size - TRAILER);
    const text = trailer === undefined ? "" : Buffer.from(trailer).toString("latin1");
    if (!/^\d{15}\n$/.test(text)) throw new Error("no trailer");
    const body = Number(text.slice(0, 15));
    const headerLength = st.size - TRAILER - body;
    if (headerLength <= 0 || headerLength > MAX_HEADER) throw new Error("no header");
    const header = readFully(fd, headerLength, body);
    if (header === undefined) throw new Error("short");
    return {
      header,
      body,
      copyBody(write) {
        let spare: Buffer | undefined;
        for (let pos = 0; pos < body; ) {
          const buf = spare ?? Buffer.allocUnsafe(Math.min(CHUNK, body));
          const chunk = readFully(fd, Math.min(CHUNK, body - pos), pos, buf);
          if (chunk === undefined) return false;
          spare = write(chunk) ? buf : undefined;
          pos += chunk.length;
        }
        return true;
      },
      close,
    };
  } catch {
    close();
    return undefined;
  }
}

export interface KeptWriter {
  /** the bytes of the answer written so far */
  readonly bytes: number;
  /** appends a piece of the answer (ignored once a write failed) */
  write(piece: string): void;
  /** writes the header line and the trailer and puts the file in place; false when it could not */
  commit(header: string): boolean;
}

/** A writer of the file at `path` (a replace written piece by piece,
 *  adapters/fs/replace-file-sync.ts); every failure only costs the next command a computation. */
export function keptWriter(path: string): KeptWriter {
  let replacement: Replacement | undefined;
  try {
    replacement = beginReplaceFileSync(path, 0o600);
  } catch {
    replacement = undefined;
  }
  let bytes = 0;
  /** the writes after a failed one are dropped, and so is the temp */
  const put = (s: string): boolean => {
    if (replacement === undefined) return false;
    try {
      replacement.write(s);
      bytes += Buffer.byteLength(s);
      return true;
    } catch {
      replacement.abort();
      replacement = undefined;
      return false;
    }
  };
  return {
    get bytes() {
      return bytes;
    },
    write(piece) {
      put(piece);
    },
    commit(header) {
      const body = bytes;
      if (!put(header.endsWith("\n") ? header : `${header}\n`) || !put(`${String(body).padStart(15, "0")}\n`)) return false;
      const done = replacement!;
      replacement = undefined;
      try {
        done.commit();
        return true;
      } catch {
        done.abort();
        return false;
      }
    },
  };
}
