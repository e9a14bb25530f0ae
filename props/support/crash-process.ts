// A process on a CrashDisk: a FileSystem port whose every mutation goes through the disk (counted,
// modelled, lost at a power failure) and whose calls all fail once the process is dead.
import { hasCode, type FileHandle, type FileSystem } from "../../adapters/fs/FileSystem.js";
import type { CrashDisk } from "./crash-disk.js";
import { SimulatedCrash } from "./crash-error.js";

export interface ProcessView extends FileSystem {
  /** mutations this process completed */
  readonly mutations: number;
  readonly dead: boolean;
  /** this process dies alone (kill -9): the disk keeps everything it accepted */
  kill(): void;
}

export function processView(disk: CrashDisk, name: string): ProcessView {
  const inner = disk.inner;
  let dead = false;
  let mutations = 0;
  const alive = (what: string): void => {
    if (dead || disk.powerLost) throw new SimulatedCrash(`${what} (${name} is dead)`, -1);
  };
  const read = <A>(what: string, run: () => Promise<A>): Promise<A> => {
    try {
      alive(what);
    } catch (e) {
      return Promise.reject(e);
    }
    return run();
  };
  const mutate = async <A>(label: string, run: () => Promise<A>): Promise<A> => {
    alive(label);
    const result = await disk.mutate(label, run);
    mutations++;
    return result;
  };
  const wrap = (path: string, h: FileHandle): FileHandle => ({
    write: (data) =>
      mutate(`handle.write ${path}`, async () => {
        disk.written(path);
        await h.write(data);
      }),
    sync: () =>
      mutate(`handle.sync ${path}`, async () => {
        await h.sync();
        disk.synced(path);
      }),
    close: () => read(`handle.close ${path}`, () => h.close()),
  });
  return {
    name: `crashing(${inner.name})`,
    capabilities: inner.capabilities,
    get mutations() {
      return mutations;
    },
    get dead() {
      return dead || disk.powerLost;
    },
    kill() {
      dead = true;
    },
    readFile: (path) => read("readFile", () => inner.readFile(path)),
    readAt: (path, position, length) => read("readAt", () => inner.readAt(path, position, length)),
    writeFile: (path, data, opts = {}) =>
      mutate(`writeFile ${path}`, () =>
        disk.create(path, `writeFile ${path}`, true, async () => {
          disk.written(path);
          await inner.writeFile(path, data, opts);
        }),
      ),
    open: (path, flag, mode) =>
      flag === "r"
        ? read("open", async () => wrap(path, await inner.open(path, flag, mode)))
        : mutate(`open(${flag}) ${path}`, () =>
            disk.create(path, `open(${flag}) ${path}`, true, async () => {
              const h = await inner.open(path, flag, mode);
              disk.written(path);
              return wrap(path, h);
            }),
          ),
    rename: (from, to) => mutate(`rename ${from} -> ${to}`, () => disk.rename(from, to, `rename ${from} -> ${to}`, () => inner.rename(from, to))),
    unlink: (path) => mutate(`unlink ${path}`, () => disk.unlink(path, `unlink ${path}`, () => inner.unlink(path))),
    rm: (path, opts) =>
      mutate(`rm ${path}`, async () => {
        let kind;
        try {
          kind = (await inner.lstat(path)).kind;
        } catch (e) {
          if (!hasCode(e, "ENOENT")) throw e;
        }
        if (kind === "file") return disk.unlink(path, `rm ${path}`, () => inner.rm(path, opts));
        return inner.rm(path, opts);
      }),
    rmdir: (path) => mutate(`rmdir ${path}`, () => disk.rmdir(path, `rmdir ${path}`, () => inner.rmdir(path))),
    mkdir: (path, opts = {}) => mutate(`mkdir ${path}`, () => disk.mkdir(path, opts.recursive ?? false, `mkdir ${path}`, () => inner.mkdir(path, opts))),
    link: (existing, newPath) => mutate(`link ${existing} -> ${newPath}`, () => disk.create(newPath, `link ${existing} -> ${newPath}`, false, () => inner.link(existing, newPath))),
    symlink: (target, path) => mutate(`symlink ${path} -> ${target}`, () => disk.create(path, `symlink ${path}`, true, () => inner.symlink(target, path))),
    fsyncDir: (path) =>
      mutate(`fsyncDir ${path}`, async () => {
        await inner.fsyncDir(path);
        disk.fsyncedDir(path);
      }),
    utimes: (path, atimeMs, mtimeMs) => mutate(`utimes ${path}`, () => inner.utimes(path, atimeMs, mtimeMs)),
    readdir: (path) => read("readdir", () => inner.readdir(path)),
    stat: (path) => read("stat", () => inner.stat(path)),
    lstat: (path) => read("lstat", () => inner.lstat(path)),
    realpath: (path) => read("realpath", () => inner.realpath(path)),
    readlink: (path) => read("readlink", () => inner.readlink(path)),
  };
}
