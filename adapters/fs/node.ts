// The FileSystem port over node:fs. Every call goes through `guardFs`, so errors arrive as the
// port's FsError whatever Node reported.
//
// Calls that are one short system call on a small amount of data (a stat, a folder's listing, a
// small file's read, a small append) are made synchronously behind the port's promise: through
// node:fs/promises each is a round trip through libuv's thread pool (a worker woken, the event
// loop woken again), some tens to hundreds of microseconds against a few for the call itself,
// and on a loaded machine each wake-up may wait for a core. A `pi-recipes call` makes about a
// dozen of them to account one launch. What may take long stays asynchronous: fsync, the read of
// a file that is large, grew while it was read or has no size (a /proc or sysfs file may never
// end), large writes, recursive removal, and opening and writing anything but a regular file (a
// FIFO's open waits for its other end, its writes for a reader; every open here is first tried
// without blocking, and only a regular file is kept from that try). A long-lived server pays for
// this with its event loop:
// these calls take microseconds on a local disk, but one on a hung network file system stalls it.
// node:fs/promises through `promises` of node:fs, a getter that loads it on first use: the front
// door builds this port for every command, and most of its answers (--version, help, a `list` from
// its index) never make an asynchronous call; loading it costs a fresh process about 2 ms
// (docs/performance.md, "Page faults")
import { closeSync, constants, fstatSync, fsync, lstatSync, openSync, promises as nfs, readdirSync, readSync, statSync, write as writeFd, writeSync, type Dirent, type Stats } from "node:fs";
import type { FileHandle as NodeFileHandle } from "node:fs/promises";
import { guardFs, type DirEntry, type FileHandle, type FileKind, type FileStat, type FileSystem, type FsCapabilities, type OpenFlag } from "./FileSystem.js";

const kindOf = (s: Pick<Stats | Dirent, "isFile" | "isDirectory" | "isSymbolicLink">): FileKind =>
  s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";

const toStat = (s: Stats): FileStat => ({
  kind: kindOf(s),
  size: s.size,
  mtimeMs: s.mtimeMs,
  birthtimeMs: s.birthtimeMs,
  mode: s.mode,
  nlink: s.nlink,
  ino: s.ino,
  dev: s.dev,
});

const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === "string" ? Buffer.from(data, "utf8") : data);

/** Reads and writes up to this size are made synchronously (see the top of this file). */
export const SMALL_IO_BYTES = 256 * 1024;

/** A handle node's open made on the thread pool: what is no regular file (a FIFO, a device), whose
 *  writes may wait for a reader, so they are made on the pool too. A write may take less than it
 *  is given; the rest is written after it. */
function wrapHandle(path: string, h: NodeFileHandle): FileHandle {
  return {
    write: (data) =>
      guardFs("handle.write", path, async () => {
        const bytes = bytesOf(data);
        for (let done = 0; done < bytes.length; ) {
          const { bytesWritten } = await h.write(bytes, done, bytes.length - done);
          done += bytesWritten;
        }
      }),
    sync: () => guardFs("handle.sync", path, () => h.sync()),
    close: () => guardFs("handle.close", path, () => h.close()),
  };
}

/** The open flags of the port's `open` (node's "r", "w", "wx" and "a"). */
const OPEN_FLAGS: Readonly<Record<OpenFlag, number>> = {
  r: constants.O_RDONLY,
  w: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
  wx: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  a: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND,
};

/**
 * Opens `path` synchronously when it is a regular file or is missing (to be created); undefined for
 * anything else (a FIFO, socket, device or folder), which node's own open then opens on the thread
 * pool as before, waiting there for a FIFO's other end. The stat comes first so that such a file is
 * never opened twice (a FIFO's reader would see the first open's close as the end of its input).
 * The open itself does not block either (O_NONBLOCK, which changes nothing on a regular file): a
 * FIFO put in the path's place after the stat fails it at once with ENXIO, or is opened and closed
 * again at once, and goes to the pool.
 */
function openRegularSync(path: string, flag: OpenFlag, mode: number | undefined): number | undefined {
  const before = statSync(path, { throwIfNoEntry: false });
  if (before !== undefined && !before.isFile()) return undefined;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS[flag] | (constants.O_NONBLOCK ?? 0), mode ?? 0o666);
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENXIO") return undefined;
    throw e;
  }
  try {
    if (fstatSync(fd).isFile()) return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  closeSync(fd);
  return undefined;
}

/** A handle over the descriptor `fd` of a regular file (openRegularSync): small writes and the close
 *  are made synchronously, large writes and fsync on the thread pool. The descriptor is closed only
 *  after the operations on the pool have ended (a number closed under them could be reused by the
 *  next open, and they would reach that file); a closed handle refuses with EBADF, and closing it
 *  again does nothing, as node's FileHandle. */
function regularFileHandle(path: string, fd: number): FileHandle {
  let open = true;
  let running = 0;
  let drained: (() => void) | undefined;
  const ebadf = (syscall: string): Error => Object.assign(new Error(`EBADF: bad file descriptor, ${syscall}`), { code: "EBADF" });
  const onPool = <T>(syscall: string, start: (done: (e: Error | null, v?: T) => void) => void): Promise<T> => {
    if (!open) return Promise.reject(ebadf(syscall));
    running++;
    return new Promise<T>((resolve, reject) =>
      start((e, v) => {
        if (--running === 0) drained?.();
        if (e === null) resolve(v as T);
        else reject(e);
      }),
    );
  };
  return {
    write: (data) =>
      guardFs("handle.write", path, async () => {
        if (!open) throw ebadf("write");
        const bytes = bytesOf(data);
        // a regular file takes everything in one write in practice, but the call allows less
        if (bytes.length <= SMALL_IO_BYTES) {
          for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
          return;
        }
        for (let done = 0; done < bytes.length; ) done += await onPool<number>("write", (cb) => writeFd(fd, bytes, done, bytes.length - done, null, cb));
      }),
    sync: () => guardFs("handle.sync", path, () => onPool<void>("fsync", (cb) => fsync(fd, cb))),
    close: () =>
      guardFs("handle.close", path, async () => {
        if (!open) return;
        open = false;
        if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
        closeSync(fd);
      }),
  };
}

// Windows cannot open a folder for fsync, and NTFS needs no folder fsync for a rename to last.
const folderSyncUnsupported = (e: unknown): boolean =>
  process.platform === "win32" && typeof e === "object" && e !== null && ["EISDIR", "EPERM", "EACCES"].includes(String((e as { code?: unknown }).code));

/** readRegularFile's synchronous half: the file's bytes when it is a regular file of 1 to
 *  SMALL_IO_BYTES bytes that holds what its fstat said, undefined otherwise (read asynchronously
 *  then). The same checks, in the same order: a non-blocking open, the fstat, then the read. */
function readSmallRegularFile(path: string): Uint8Array | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error(`illegal operation on a directory, read '${path}'`), { code: "EISDIR" });
    if (!st.isFile()) throw Object.assign(new Error(`not a regular file (a FIFO, socket or device): '${path}'`), { code: "EINVAL" });
    // a size of 0 may be a file whose size the kernel does not know (as in /proc), which may never
    // end, and a larger file takes longer than is fair to the event loop: both are read on the
    // thread pool, as before
    if (st.size === 0 || st.size > SMALL_IO_BYTES) return undefined;
    // one byte more than the stat's size says whether the file grew since; one that did is read
    // again on the thread pool rather than on and on here
    const buffer = Buffer.allocUnsafe(st.size + 1);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) return buffer.subarray(0, read);
      read += n;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Node's readFile, for regular files only: the open does not block (a FIFO without a writer would
 *  wait forever) and the fstat comes before any read, so a FIFO, socket, terminal or device fails
 *  at once with EINVAL (a folder with EISDIR, as before) instead of hanging or never ending. */
async function readRegularFile(path: string): Promise<Uint8Array> {
  const small = readSmallRegularFile(path);
  if (small !== undefined) return small;
  const h = await nfs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await h.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`illegal operation on a directory, read '${path}'`), { code: "EISDIR" });
    if (!st.isFile()) throw Object.assign(new Error(`not a regular file (a FIFO, socket or device): '${path}'`), { code: "EINVAL" });
    return await h.readFile();
  } finally {
    await h.close();
  }
}

/** `length` bytes from `position` (fewer at the end); regular files only, as readRegularFile. */
async function readRegularAt(path: string, position: number, length: number): Promise<Uint8Array> {
  const h = await nfs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await h.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`illegal operation on a directory, read '${path}'`), { code: "EISDIR" });
    if (!st.isFile()) throw Object.assign(new Error(`not a regular file (a FIFO, socket or device): '${path}'`), { code: "EINVAL" });
    const buffer = new Uint8Array(Math.max(0, length));
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await h.read(buffer, read, buffer.length - read, position + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await h.close();
  }
}

export function makeNodeFileSystem(): FileSystem {
  const capabilities: FsCapabilities = {
    strictRename: true,
    strictLink: true,
    durableSync: true,
    unlinkDirCode: process.platform === "linux" ? "EISDIR" : "EPERM",
  };
  return {
    name: "node",
    capabilities,
    readFile: (path) => guardFs("readFile", path, () => readRegularFile(path)),
    readAt: (path, position, length) => guardFs("readAt", path, () => readRegularAt(path, position, length)),
    writeFile: (path, data, options = {}) =>
      guardFs("writeFile", path, () => nfs.writeFile(path, data, { flag: options.flag ?? "w", ...(options.mode === undefined ? {} : { mode: options.mode }) })),
    open: (path, flag: OpenFlag, mode) =>
      guardFs("open", path, async () => {
        const fd = openRegularSync(path, flag, mode);
        return fd === undefined ? wrapHandle(path, await nfs.open(path, flag, mode)) : regularFileHandle(path, fd);
      }),
    rename: (from, to) => guardFs("rename", from, () => nfs.rename(from, to), to),
    unlink: (path) => guardFs("unlink", path, () => nfs.unlink(path)),
    mkdir: (path, options = {}) => guardFs("mkdir", path, async () => void (await nfs.mkdir(path, { recursive: options.recursive ?? false }))),
    rmdir: (path) => guardFs("rmdir", path, () => nfs.rmdir(path)),
    rm: (path, options = {}) => guardFs("rm", path, () => nfs.rm(path, { recursive: options.recursive ?? false, force: options.force ?? false })),
    readdir: (path) =>
      guardFs("readdir", path, async () => readdirSync(path, { withFileTypes: true }).map((d): DirEntry => ({ name: d.name, kind: kindOf(d) }))),
    stat: (path) => guardFs("stat", path, async () => toStat(statSync(path))),
    lstat: (path) => guardFs("lstat", path, async () => toStat(lstatSync(path))),
    realpath: (path) => guardFs("realpath", path, () => nfs.realpath(path)),
    symlink: (target, path) => guardFs("symlink", path, () => nfs.symlink(target, path), target),
    readlink: (path) => guardFs("readlink", path, () => nfs.readlink(path)),
    link: (existing, newPath) => guardFs("link", existing, () => nfs.link(existing, newPath), newPath),
    fsyncDir: (path) =>
      guardFs("fsyncDir", path, async () => {
        let h: NodeFileHandle;
        try {
          // O_DIRECTORY makes a non-folder fail with ENOTDIR instead of syncing a file.
          h = await nfs.open(path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
        } catch (e) {
          if (folderSyncUnsupported(e)) return;
          throw e;
        }
        try {
          await h.sync();
        } finally {
          await h.close();
        }
      }),
    utimes: (path, atimeMs, mtimeMs) => guardFs("utimes", path, () => nfs.utimes(path, atimeMs / 1000, mtimeMs / 1000)),
    chmod: (path, mode) => guardFs("chmod", path, () => nfs.chmod(path, mode)),
  };
}
