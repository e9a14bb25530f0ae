// A read-only, synchronous scanning port for discovery. Scanning 10,000 small recipe files must
// cost about what `readFileSync` + `JSON.parse` costs, so one file = open + fstat + read + close
// (the same system calls as readFileSync), with no second stat and no promise round trips.
//
// Only regular files are read. The open does not block (O_NONBLOCK: opening a FIFO without a
// writer would wait forever) and the fstat comes before any read (reading a FIFO, a terminal
// behind /dev/stdin or a device would wait or never end): anything else is reported with
// `isFile: false` and no bytes.
import * as nodeFs from "node:fs";
import { constants } from "node:fs";
import type * as NodeFs from "node:fs";

export type EntryKind = "file" | "dir" | "symlink" | "other";

export interface ScanEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

export interface ScannedFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs: number;
  readonly mode: number;
  readonly isFile: boolean;
  /** absent when the file is larger than the limit */
  readonly bytes?: Uint8Array;
  /** the identity of the file opened (its descriptor's stat, so the very file whose bytes these
   *  are), when asked for */
  readonly identity?: FileIdentity;
}

export type ScanResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: string; readonly message: string };

/** What identifies one version of a file without reading it (times in nanoseconds). A write
 *  changes size, mtime or ctime; a rename onto the path changes the inode. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly birthtimeNs: bigint;
  readonly isFile: boolean;
}

export interface ScanPort {
  /** one stat (following symlinks); a port without it gets no compile cache */
  identity?(path: string): ScanResult<FileIdentity>;
  listDir(path: string): ScanResult<readonly ScanEntry[]>;
  statPath(path: string): ScanResult<{ readonly mode: number; readonly isDirectory: boolean }>;
  /** read a regular file whole unless its size exceeds `limit` bytes; anything but a regular file
   * gives `isFile: false` and no bytes, without blocking. Without `stat`, small files report zero
   * timestamps and mode. With `identity`, the result holds the open file's identity (the same
   * one stat of the descriptor, taken before the read). */
  readBounded(path: string, limit: number, options?: { readonly stat?: boolean; readonly identity?: boolean }): ScanResult<ScannedFile>;
}

type SyncFs = Pick<typeof NodeFs, "readdirSync" | "statSync" | "openSync" | "fstatSync" | "readSync" | "closeSync">;

const failure = (e: unknown): { ok: false; code: string; message: string } => {
  const err = e as { code?: unknown; message?: unknown };
  return { ok: false, code: typeof err.code === "string" ? err.code : "UNKNOWN", message: typeof err.message === "string" ? err.message : String(e) };
};

const kindOf = (d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind =>
  d.isFile() ? "file" : d.isDirectory() ? "dir" : d.isSymbolicLink() ? "symlink" : "other";

// memfs ignores the flag bits it does not know
const READ_NONBLOCK = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const identityOf = (st: NodeFs.BigIntStats): FileIdentity => ({
  dev: st.dev,
  ino: st.ino,
  size: Number(st.size),
  mtimeNs: st.mtimeNs,
  ctimeNs: st.ctimeNs,
  birthtimeNs: st.birthtimeNs,
  isFile: st.isFile(),
});

/** Works for `node:fs` and for memfs' fs object, which share the synchronous API. */
export function makeScanPort(fs: SyncFs): ScanPort {
  const scratch = new Uint8Array(64 * 1024);
  return {
    listDir(path) {
      try {
        const dirents = fs.readdirSync(path, { withFileTypes: true }) as unknown as { name: string | Uint8Array; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }[];
        return { ok: true, value: dirents.map((d) => ({ name: String(d.name), kind: kindOf(d) })) };
      } catch (e) {
        return failure(e);
      }
    },
    identity(path) {
      try {
        return { ok: true, value: identityOf(fs.statSync(path, { bigint: true })) };
      } catch (e) {
        return failure(e);
      }
    },
    statPath(path) {
      try {
        const st = fs.statSync(path);
        return { ok: true, value: { mode: Number(st.mode), isDirectory: st.isDirectory() } };
      } catch (e) {
        return failure(e);
      }
    },
    readBounded(path, limit, options) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(path, READ_NONBLOCK);
        // one stat of the descriptor either way: with nanosecond times when the identity is asked for
        const big = options?.identity === true ? fs.fstatSync(fd, { bigint: true }) : undefined;
        const st = big ?? fs.fstatSync(fd);
        const id = big === undefined ? {} : { identity: identityOf(big) };
        const size = Number(st.size);
        const isFile = st.isFile();
        if (isFile && options?.stat !== true && size < scratch.length) {
          // Fast path: most recipes are small; one read into a scratch buffer sees the whole file.
          const n = fs.readSync(fd, scratch, 0, scratch.length, null);
          if (n < scratch.length) {
            return { ok: true, value: { size: n, mtimeMs: 0, birthtimeMs: 0, mode: 0, isFile: true, bytes: scratch.slice(0, n), ...id } };
          }
        }
        const base = { size, mtimeMs: Number(st.mtimeMs), birthtimeMs: Number(st.birthtimeMs), mode: Number(st.mode), isFile, ...id };
        if (!isFile || size > limit) return { ok: true, value: base };
        // Read until EOF: the size may have changed since fstat; never read past limit + 1.
        let buf = new Uint8Array(size + 1);
        let used = 0;
        for (;;) {
          if (used === buf.length) {
            if (buf.length > limit) break;
            const bigger = new Uint8Array(Math.min(buf.length * 2, limit + 1));
            bigger.set(buf);
            buf = bigger;
          }
          const n = fs.readSync(fd, buf, used, buf.length - used, used);
          if (n === 0) break;
          used += n;
        }
        if (used > limit) return { ok: true, value: { ...base, size: used } };
        return { ok: true, value: { ...base, size: used, bytes: buf.subarray(0, used) } };
      } catch (e) {
        return failure(e);
      } finally {
        if (fd !== undefined) {
          try {
            fs.closeSync(fd);
          } catch {
            // closing a read-only descriptor cannot lose data
          }
        }
      }
    },
  };
}

/** The scanning port over the real file system: what a host or session builds and passes down. */
export const makeNodeScanPort = (): ScanPort => makeScanPort(nodeFs);

/** The kind of what is at a path without following a final symlink (lstat); undefined when
 *  nothing is. The live registry's default (runtime/live-files.ts). */
export const nodeEntryKind = (path: string): EntryKind | undefined => {
  try {
    const st = nodeFs.lstatSync(path);
    return st.isFile() ? "file" : st.isDirectory() ? "dir" : st.isSymbolicLink() ? "symlink" : "other";
  } catch {
    return undefined;
  }
};
