// The FileSystem port over node:fs/promises. Every call goes through `guardFs`, so errors arrive
// as the port's FsError whatever Node reported.
import * as nfs from "node:fs/promises";
import { constants, type Dirent, type Stats } from "node:fs";
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

function wrapHandle(path: string, h: nfs.FileHandle): FileHandle {
  return {
    write: (data) =>
      guardFs("handle.write", path, async () => {
        const bytes = bytesOf(data);
        // A regular file takes everything in one write in practice, but the API allows less.
        for (let done = 0; done < bytes.length; ) {
          const { bytesWritten } = await h.write(bytes, done, bytes.length - done);
          done += bytesWritten;
        }
      }),
    sync: () => guardFs("handle.sync", path, () => h.sync()),
    close: () => guardFs("handle.close", path, () => h.close()),
  };
}

// Windows cannot open a folder for fsync, and NTFS needs no folder fsync for a rename to last.
const folderSyncUnsupported = (e: unknown): boolean =>
  process.platform === "win32" && typeof e === "object" && e !== null && ["EISDIR", "EPERM", "EACCES"].includes(String((e as { code?: unknown }).code));

/** Node's readFile, for regular files only: the open does not block (a FIFO without a writer would
 *  wait forever) and the fstat comes before any read, so a FIFO, socket, terminal or device fails
 *  at once with EINVAL (a folder with EISDIR, as before) instead of hanging or never ending. */
async function readRegularFile(path: string): Promise<Uint8Array> {
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
    open: (path, flag: OpenFlag, mode) => guardFs("open", path, async () => wrapHandle(path, await nfs.open(path, flag, mode))),
    rename: (from, to) => guardFs("rename", from, () => nfs.rename(from, to), to),
    unlink: (path) => guardFs("unlink", path, () => nfs.unlink(path)),
    mkdir: (path, options = {}) => guardFs("mkdir", path, async () => void (await nfs.mkdir(path, { recursive: options.recursive ?? false }))),
    rmdir: (path) => guardFs("rmdir", path, () => nfs.rmdir(path)),
    rm: (path, options = {}) => guardFs("rm", path, () => nfs.rm(path, { recursive: options.recursive ?? false, force: options.force ?? false })),
    readdir: (path) =>
      guardFs("readdir", path, async () => (await nfs.readdir(path, { withFileTypes: true })).map((d): DirEntry => ({ name: d.name, kind: kindOf(d) }))),
    stat: (path) => guardFs("stat", path, async () => toStat(await nfs.stat(path))),
    lstat: (path) => guardFs("lstat", path, async () => toStat(await nfs.lstat(path))),
    realpath: (path) => guardFs("realpath", path, () => nfs.realpath(path)),
    symlink: (target, path) => guardFs("symlink", path, () => nfs.symlink(target, path), target),
    readlink: (path) => guardFs("readlink", path, () => nfs.readlink(path)),
    link: (existing, newPath) => guardFs("link", existing, () => nfs.link(existing, newPath), newPath),
    fsyncDir: (path) =>
      guardFs("fsyncDir", path, async () => {
        let h: nfs.FileHandle;
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
