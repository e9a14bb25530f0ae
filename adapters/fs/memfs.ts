// The FileSystem port over a memfs Volume, for tests and the crash-injecting property harness.
// memfs is close to Linux but not equal; the differences that are cheap to close are closed here
// (rm never follows a symlink, mkdir -p over a file fails), the others are declared in
// `capabilities` and stated by the contract suite.
import { posix } from "node:path";
import { Volume } from "memfs";
import { guardFs, type DirEntry, type FileHandle, type FileKind, type FileStat, type FsCapabilities, type FileSystem, type OpenFlag } from "./FileSystem.js";

export interface MemFileSystem extends FileSystem {
  /** the volume behind the port, to seed or inspect files synchronously (e.g. `vol.toJSON()`) */
  readonly vol: Volume;
}

type MemPromises = Volume["promises"];
type MemHandle = Awaited<ReturnType<MemPromises["open"]>> & { sync(): Promise<void> };

interface KindSource {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

const kindOf = (s: KindSource): FileKind => (s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "dir" : s.isFile() ? "file" : "other");

const toStat = (s: Awaited<ReturnType<MemPromises["stat"]>>): FileStat => ({
  kind: kindOf(s),
  size: Number(s.size),
  mtimeMs: Number(s.mtimeMs),
  birthtimeMs: Number(s.birthtimeMs),
  mode: Number(s.mode),
  nlink: Number(s.nlink),
  ino: Number(s.ino),
  dev: Number(s.dev),
});

// An errno-shaped error, so that it goes through the same mapping as memfs' own errors.
const errno = (code: string, message: string): Error => Object.assign(new Error(message), { code });

const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === "string" ? new TextEncoder().encode(data) : data);

function wrapHandle(path: string, h: MemHandle): FileHandle {
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

// memfs' own rm follows a symlink to a folder and empties the folder it points to.
async function removeEntry(p: MemPromises, path: string, recursive: boolean, force: boolean): Promise<void> {
  let st;
  try {
    st = await p.lstat(path);
  } catch (e) {
    if (force && (e as { code?: unknown }).code === "ENOENT") return;
    throw e;
  }
  if (!st.isDirectory()) return p.unlink(path);
  if (!recursive) throw errno("EISDIR", `EISDIR: rm '${path}' is a folder and recursive is not set`);
  for (const name of (await p.readdir(path)) as unknown[]) await removeEntry(p, posix.join(path, String(name)), true, false);
  await p.rmdir(path);
}

const capabilities: FsCapabilities = {
  strictRename: false,
  strictLink: false,
  durableSync: false,
  unlinkDirCode: "EPERM",
};

export function makeMemFileSystem(vol: Volume = new Volume()): MemFileSystem {
  const p = vol.promises;
  const requireDir = async (path: string): Promise<void> => {
    if (!(await p.stat(path)).isDirectory()) throw errno("ENOTDIR", `ENOTDIR: '${path}' is not a folder`);
  };
  return {
    name: "memfs",
    capabilities,
    vol,
    readFile: (path) => guardFs("readFile", path, async () => (await p.readFile(path)) as Uint8Array),
    readAt: (path, position, length) =>
      guardFs("readAt", path, async () => {
        if (!(await p.stat(path)).isFile()) throw errno("EISDIR", `EISDIR: readAt '${path}' is not a regular file`);
        const bytes = (await p.readFile(path)) as Uint8Array;
        return bytes.slice(Math.min(position, bytes.length), Math.min(position + Math.max(0, length), bytes.length));
      }),
    writeFile: (path, data, options = {}) =>
      guardFs("writeFile", path, () => p.writeFile(path, data, { flag: options.flag ?? "w", ...(options.mode === undefined ? {} : { mode: options.mode }) })),
    open: (path, flag: OpenFlag, mode) => guardFs("open", path, async () => wrapHandle(path, (await p.open(path, flag, mode)) as MemHandle)),
    rename: (from, to) => guardFs("rename", from, () => p.rename(from, to), to),
    unlink: (path) => guardFs("unlink", path, () => p.unlink(path)),
    mkdir: (path, options = {}) =>
      guardFs("mkdir", path, async () => {
        await p.mkdir(path, { recursive: options.recursive ?? false });
        // memfs treats `mkdir -p` over an existing file as done; Linux says EEXIST.
        if (options.recursive === true && !(await p.stat(path)).isDirectory()) throw errno("EEXIST", `EEXIST: mkdir '${path}' exists and is not a folder`);
      }),
    rmdir: (path) => guardFs("rmdir", path, () => p.rmdir(path)),
    rm: (path, options = {}) => guardFs("rm", path, () => removeEntry(p, path, options.recursive ?? false, options.force ?? false)),
    readdir: (path) =>
      guardFs("readdir", path, async () => {
        const dirents = (await p.readdir(path, { withFileTypes: true })) as unknown as readonly (KindSource & { name: unknown })[];
        return dirents.map((d): DirEntry => ({ name: String(d.name), kind: kindOf(d) }));
      }),
    stat: (path) => guardFs("stat", path, async () => toStat(await p.stat(path))),
    lstat: (path) => guardFs("lstat", path, async () => toStat(await p.lstat(path))),
    realpath: (path) => guardFs("realpath", path, async () => String(await p.realpath(path))),
    symlink: (target, path) => guardFs("symlink", path, () => p.symlink(target, path), target),
    readlink: (path) => guardFs("readlink", path, async () => String(await p.readlink(path))),
    link: (existing, newPath) => guardFs("link", existing, () => p.link(existing, newPath), newPath),
    // Nothing in memory needs flushing; the check keeps ENOENT/ENOTDIR the same as on Linux.
    fsyncDir: (path) => guardFs("fsyncDir", path, () => requireDir(path)),
    utimes: (path, atimeMs, mtimeMs) => guardFs("utimes", path, () => p.utimes(path, atimeMs / 1000, mtimeMs / 1000)),
    chmod: (path, mode) => guardFs("chmod", path, () => p.chmod(path, mode)),
  };
}
