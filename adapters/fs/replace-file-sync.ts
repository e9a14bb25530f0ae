// A synchronous whole-file replace for a file that only saves work (the compile cache): a temp
// beside the target, written whole, then renamed over it, so a reader sees the old file or the
// new one. No fsync: after a power cut the file may be short or empty, and its reader treats a
// file that does not end where it should as no file at all (runtime/compile-cache-file.ts).
// Synchronous, because it runs at the end of a synchronous discovery: an asynchronous write
// would outlive the discovery and race whoever removes or rewrites the folder next. A temp that
// a killed writer left is removed by the next write of the same file (adapters/fs/dead-temps.ts).
import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import { atomicTempName, nextTempId, TEMP_ATTEMPTS } from "./FileSystem.js";
import { removeDeadTemps } from "./dead-temps.js";
import { mkdirLikeParentSync } from "./folder-modes.js";

export interface ReplaceFileSync {
  /** replaces `path` with `data` (its folder made if missing); throws on failure, leaving the
   *  target as it was and no temp behind */
  replaceFileSync(path: string, data: Uint8Array | string, mode: number): void;
  /** the same replace written piece by piece (beginReplaceFileSync) */
  begin(path: string, mode: number): Replacement;
}

/** A replace written piece by piece (a file too large to hold whole before it is written). */
export interface Replacement {
  /** appends to the new version (a string as UTF-8); throws on failure (call `abort` then) */
  write(data: Uint8Array | string): void;
  /** puts the new version in place of the file; throws on failure (call `abort` then) */
  commit(): void;
  /** drops the new version (its temp), leaving the file as it was; never throws */
  abort(): void;
}

/** A new temp of `base` in `dir`, opened exclusively. A name already taken (a temp this process
 *  left earlier, or one a process of the same pid left before it: pids are reused, and such a
 *  temp's writer counts as alive) moves on to the next name instead of failing the write, as the
 *  asynchronous atomic write does (adapters/fs/FileSystem.ts). */
function openTemp(dir: string, base: string, mode: number, fs: typeof nodeFs): { temp: string; fd: number } {
  for (let attempt = 1; ; attempt++) {
    const temp = join(dir, atomicTempName(base, nextTempId()));
    try {
      return { temp, fd: fs.openSync(temp, "wx", mode) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= TEMP_ATTEMPTS) throw e;
    }
  }
}

/** Starts replacing `path`: a temp beside it (its folder made if missing, a killed writer's temp
 *  of the same file removed first), renamed over it on `commit`. Throws when the temp cannot be
 *  made. */
export function beginReplaceFileSync(path: string, mode: number, fs: typeof nodeFs = nodeFs): Replacement {
  const dir = dirname(path);
  // a folder it makes is shared as the one it is made in is (a cache folder in a group's
  // recipe folder): each user may then put their own version in place
  mkdirLikeParentSync(dir, fs);
  // a killed writer's temp of this file (as large as the file) goes now
  removeDeadTemps(dir, basename(path), fs);
  const opened = openTemp(dir, basename(path), mode, fs);
  const temp = opened.temp;
  let fd: number | undefined = opened.fd;
  const close = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    fs.closeSync(open);
  };
  const writeBytes = (open: number, data: Uint8Array): void => {
    for (let off = 0; off < data.length; ) off += fs.writeSync(open, data, off, data.length - off);
  };
  return {
    write(data) {
      if (fd === undefined) throw new Error(`${temp} is closed`);
      if (typeof data !== "string") return writeBytes(fd, data);
      // a string goes to the descriptor as it is: node encodes it on the way, about ten times
      // faster than making its bytes first (docs/performance.md, "Writing the caches as text");
      // what a short write left is written from its bytes
      const written = fs.writeSync(fd, data);
      if (written < Buffer.byteLength(data)) writeBytes(fd, Buffer.from(data).subarray(written));
    },
    commit() {
      close();
      fs.renameSync(temp, path);
    },
    abort() {
      try {
        close();
      } catch {
        // closed
      }
      try {
        fs.unlinkSync(temp);
      } catch {
        // already gone
      }
    },
  };
}

export function makeNodeReplaceFileSync(fs: typeof nodeFs = nodeFs): ReplaceFileSync {
  return {
    begin: (path, mode) => beginReplaceFileSync(path, mode, fs),
    replaceFileSync(path, data, mode) {
      const replacement = beginReplaceFileSync(path, mode, fs);
      try {
        replacement.write(data);
        replacement.commit();
      } catch (e) {
        replacement.abort();
        throw e;
      }
    },
  };
}
