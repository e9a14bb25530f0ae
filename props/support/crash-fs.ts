// A FileSystem that dies: it counts mutating operations and, before the k-th one (0-based, so k
// operations complete), throws SimulatedCrash; from then on every call throws it too. The volume
// behind it stays, and `recoverView` opens a fresh port on it: the restarted process.
//
// What a crash loses (the model, deliberately harsher than ext4 with its defaults):
// - truncateUnsynced: file data written since the file's last fsync is lost. The file keeps its
//   durable content: what it held at its last fsync, with truncations applied, since a truncate
//   or a create is metadata and reaches the disk before the data. So a file created or opened
//   with "w" and never synced is left empty, and an appended one keeps its pre-append bytes.
//   Durability is tracked per path: rename carries it, link copies it, unlink drops it; a sync
//   counts for the path the handle was opened with.
// - rollbackUnsyncedRenames: a file rename is undone (newest first) unless the folder of its
//   source or target was fsynced after it (a journaling fs commits a rename as one transaction);
//   a target it had replaced comes back with its durable content. Skipped where later operations
//   make an undo meaningless (the source name is taken again, the target is gone).
// - everything else (mkdir, unlink, rm, rmdir, link, symlink, utimes, renames of folders) is
//   durable at once, as metadata in an ordered journal.
// "Mutating" = writeFile, open for writing, handle.write, handle.sync, rename, unlink, rm, rmdir,
// mkdir, link, symlink, fsyncDir, utimes. Reads, open "r" and handle.close are free.
import { dirname } from "node:path";
import { makeMemFileSystem, type MemFileSystem } from "../../adapters/fs/memfs.js";
import { hasCode, type FileHandle, type FileSystem } from "../../adapters/fs/FileSystem.js";

export class SimulatedCrash extends Error {
  override readonly name = "SimulatedCrash";
  constructor(readonly operation: string, readonly index: number) {
    super(`simulated crash ${index < 0 ? "after the run" : `before mutation #${index}`}: ${operation}`);
  }
}

export const isSimulatedCrash = (u: unknown): u is SimulatedCrash => u instanceof SimulatedCrash;

export interface CrashOptions {
  /** mutations allowed to complete; the next one crashes. Infinity: never (crash() still can) */
  readonly crashAt: number;
  readonly truncateUnsynced?: boolean;
  readonly rollbackUnsyncedRenames?: boolean;
}

export interface CrashingFileSystem extends FileSystem {
  /** mutations completed so far */
  readonly mutations: number;
  readonly crashed: boolean;
  /** one line per completed mutation, then the one that crashed */
  readonly trace: readonly string[];
  /** kills the process now (e.g. right after the run), applying the loss model */
  crash(): Promise<void>;
}

const EMPTY = new Uint8Array(0);

interface PendingRename {
  readonly from: string;
  readonly to: string;
  /** the durable content of the file the rename replaced, if any */
  readonly replaced: Uint8Array | undefined;
}

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

export function makeCrashingFileSystem(inner: FileSystem, options: CrashOptions): CrashingFileSystem {
  // path → durable content, for files whose data is not synced; absent = all of it is durable
  const unsynced = new Map<string, Uint8Array>();
  const renames: PendingRename[] = [];
  const trace: string[] = [];
  let mutations = 0;
  let crashed = false;

  const fileBytes = async (path: string): Promise<Uint8Array | undefined> => {
    try {
      return (await inner.lstat(path)).kind === "file" ? await inner.readFile(path) : undefined;
    } catch (e) {
      if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
      throw e;
    }
  };
  const durableOf = async (path: string): Promise<Uint8Array | undefined> => unsynced.get(path) ?? (await fileBytes(path));

  const moveTracking = (from: string, to: string): void => {
    for (const p of [...unsynced.keys()]) if (under(p, to)) unsynced.delete(p);
    for (const [p, bytes] of [...unsynced]) {
      if (!under(p, from)) continue;
      unsynced.delete(p);
      unsynced.set(to + p.slice(from.length), bytes);
    }
  };
  const dropTracking = (path: string): void => {
    for (const p of [...unsynced.keys()]) if (under(p, path)) unsynced.delete(p);
  };

  async function applyLoss(): Promise<void> {
    if (options.rollbackUnsyncedRenames === true) {
      for (const r of renames.reverse()) {
        if ((await fileBytes(r.to)) === undefined || (await exists(r.from)) || !(await exists(dirname(r.from)))) continue;
        await inner.rename(r.to, r.from);
        moveTracking(r.to, r.from);
        if (r.replaced !== undefined) await inner.writeFile(r.to, r.replaced);
      }
    }
    if (options.truncateUnsynced === true) {
      for (const [path, durable] of unsynced) if ((await fileBytes(path)) !== undefined) await inner.writeFile(path, durable);
    }
    unsynced.clear();
  }
  const exists = async (path: string): Promise<boolean> => {
    try {
      await inner.lstat(path);
      return true;
    } catch {
      return false;
    }
  };

  const dead = (operation: string): SimulatedCrash => new SimulatedCrash(`${operation} (process is dead)`, -1);
  const guardRead = <A>(operation: string, run: () => Promise<A>): Promise<A> => (crashed ? Promise.reject(dead(operation)) : run());

  async function mutate<A>(operation: string, run: () => Promise<A>): Promise<A> {
    if (crashed) throw dead(operation);
    if (mutations >= options.crashAt) {
      crashed = true;
      trace.push(`CRASH before ${operation}`);
      await applyLoss();
      throw new SimulatedCrash(operation, mutations);
    }
    mutations++;
    trace.push(operation);
    return run();
  }

  /** runs a write to `path` and remembers what a crash would leave of the file */
  async function writing<A>(path: string, truncates: boolean, run: () => Promise<A>): Promise<A> {
    // the truncate itself is durable at once; appended bytes are not
    const durable = truncates ? EMPTY : (await durableOf(path)) ?? EMPTY;
    const result = await run();
    unsynced.set(path, durable);
    return result;
  }

  function wrapHandle(path: string, handle: FileHandle): FileHandle {
    return {
      write: (data) => mutate(`handle.write ${path}`, () => writing(path, false, () => handle.write(data))),
      sync: () =>
        mutate(`handle.sync ${path}`, async () => {
          await handle.sync();
          unsynced.delete(path);
        }),
      close: () => guardRead(`handle.close ${path}`, () => handle.close()),
    };
  }

  return {
    name: `crashing(${inner.name})`,
    capabilities: inner.capabilities,
    get mutations() {
      return mutations;
    },
    get crashed() {
      return crashed;
    },
    trace,
    async crash() {
      if (crashed) return;
      crashed = true;
      trace.push("CRASH after the run");
      await applyLoss();
    },
    readFile: (path) => guardRead("readFile", () => inner.readFile(path)),
    writeFile: (path, data, opts = {}) => mutate(`writeFile ${path}`, () => writing(path, (opts.flag ?? "w") !== "a", () => inner.writeFile(path, data, opts))),
    open: (path, flag, mode) =>
      flag === "r"
        ? guardRead("open", async () => wrapHandle(path, await inner.open(path, flag, mode)))
        : mutate(`open(${flag}) ${path}`, () => writing(path, flag !== "a", async () => wrapHandle(path, await inner.open(path, flag, mode)))),
    rename: (from, to) =>
      mutate(`rename ${from} -> ${to}`, async () => {
        const isFile = (await fileBytes(from)) !== undefined;
        const replaced = isFile ? await durableOf(to) : undefined;
        await inner.rename(from, to);
        moveTracking(from, to);
        if (isFile) renames.push({ from, to, replaced });
      }),
    unlink: (path) =>
      mutate(`unlink ${path}`, async () => {
        await inner.unlink(path);
        dropTracking(path);
      }),
    rm: (path, opts) =>
      mutate(`rm ${path}`, async () => {
        await inner.rm(path, opts);
        dropTracking(path);
      }),
    rmdir: (path) => mutate(`rmdir ${path}`, () => inner.rmdir(path)),
    mkdir: (path, opts) => mutate(`mkdir ${path}`, () => inner.mkdir(path, opts)),
    link: (existing, newPath) =>
      mutate(`link ${existing} -> ${newPath}`, async () => {
        await inner.link(existing, newPath);
        const durable = unsynced.get(existing);
        if (durable !== undefined) unsynced.set(newPath, durable);
      }),
    symlink: (target, path) => mutate(`symlink ${path} -> ${target}`, () => inner.symlink(target, path)),
    fsyncDir: (path) =>
      mutate(`fsyncDir ${path}`, async () => {
        await inner.fsyncDir(path);
        for (let i = renames.length - 1; i >= 0; i--) {
          const r = renames[i];
          if (r !== undefined && (dirname(r.from) === path || dirname(r.to) === path)) renames.splice(i, 1);
        }
      }),
    utimes: (path, atimeMs, mtimeMs) => mutate(`utimes ${path}`, () => inner.utimes(path, atimeMs, mtimeMs)),
    readdir: (path) => guardRead("readdir", () => inner.readdir(path)),
    stat: (path) => guardRead("stat", () => inner.stat(path)),
    lstat: (path) => guardRead("lstat", () => inner.lstat(path)),
    realpath: (path) => guardRead("realpath", () => inner.realpath(path)),
    readlink: (path) => guardRead("readlink", () => inner.readlink(path)),
  };
}

/** the restarted process: a fresh port on the same volume, that never crashes */
export const recoverView = (inner: MemFileSystem): MemFileSystem => makeMemFileSystem(inner.vol);

/** runs once without crashing and returns how many mutations the run made */
export async function countMutations(run: (fs: FileSystem) => Promise<void>, inner: FileSystem = makeMemFileSystem()): Promise<number> {
  const fs = makeCrashingFileSystem(inner, { crashAt: Infinity });
  await run(fs);
  return fs.mutations;
}

export interface CrashExploration {
  /** a fresh, seeded volume; called once per crash point */
  readonly setup: () => MemFileSystem | Promise<MemFileSystem>;
  readonly run: (fs: FileSystem) => Promise<void>;
  /** inspects the volume after the crash at point k (k = n: right after a complete run) */
  readonly check: (view: MemFileSystem, k: number, trace: readonly string[]) => void | Promise<void>;
  readonly truncateUnsynced?: boolean;
  readonly rollbackUnsyncedRenames?: boolean;
}

/**
 * Crashes the run at every mutation k = 0..n-1 and once after it completes (k = n), and checks
 * the volume each time. Errors other than SimulatedCrash fail the exploration. Returns n.
 */
export async function exploreCrashes(x: CrashExploration): Promise<number> {
  const n = await countMutations(x.run, await x.setup());
  for (let k = 0; k <= n; k++) {
    const inner = await x.setup();
    const fs = makeCrashingFileSystem(inner, {
      crashAt: k,
      ...(x.truncateUnsynced === undefined ? {} : { truncateUnsynced: x.truncateUnsynced }),
      ...(x.rollbackUnsyncedRenames === undefined ? {} : { rollbackUnsyncedRenames: x.rollbackUnsyncedRenames }),
    });
    try {
      await x.run(fs);
    } catch (e) {
      if (!isSimulatedCrash(e)) throw e;
    }
    await fs.crash();
    await x.check(recoverView(inner), k, fs.trace);
  }
  return n;
}
