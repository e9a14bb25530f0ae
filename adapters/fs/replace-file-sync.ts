// A synchronous whole-file replace for a file that only saves work (the compile cache): a temp
// beside the target, written whole, then renamed over it, so a reader sees the old file or the
// new one. No fsync: after a power cut the file may be short or empty, and its reader treats a
// file that does not end where it should as no file at all (runtime/compile-cache-file.ts).
// Synchronous, because it runs at the end of a synchronous discovery: an asynchronous write
// would outlive the discovery and race whoever removes or rewrites the folder next. A temp that
// a killed writer left is removed by the next write of the same file (adapters/fs/dead-temps.ts).
import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import { atomicTempName } from "./FileSystem.js";
import { removeDeadTemps } from "./dead-temps.js";

export interface ReplaceFileSync {
  /** replaces `path` with `data` (its folder made if missing); throws on failure, leaving the
   *  target as it was and no temp behind */
  replaceFileSync(path: string, data: Uint8Array, mode: number): void;
}

let counter = 0;

export function makeNodeReplaceFileSync(fs: typeof nodeFs = nodeFs): ReplaceFileSync {
  return {
    replaceFileSync(path, data, mode) {
      const dir = dirname(path);
      fs.mkdirSync(dir, { recursive: true });
      // a killed writer's temp of this file (as large as the file) goes now
      removeDeadTemps(dir, basename(path), fs);
      const temp = join(dir, atomicTempName(basename(path), `${process.pid}-${++counter}`));
      const fd = fs.openSync(temp, "wx", mode);
      try {
        try {
          for (let off = 0; off < data.length; ) off += fs.writeSync(fd, data, off, data.length - off);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(temp, path);
      } catch (e) {
        try {
          fs.unlinkSync(temp);
        } catch {
          // already gone
        }
        throw e;
      }
    },
  };
}
