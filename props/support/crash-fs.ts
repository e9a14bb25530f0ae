// The crash harness the property tests use: a FileSystem that loses power at a chosen mutation,
// over the disk model of crash-disk.ts (read its header for exactly what a crash may lose), and
// explorations that crash a run at every mutation, then crash its recovery at every mutation
// too, and check what a restarted process finds.
import { posix } from "node:path";
import { Volume } from "memfs";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../adapters/fs/memfs.js";
import { CrashDisk, isSimulatedCrash, SimulatedCrash, type ProcessView } from "./crash-disk.js";

export { CrashDisk, isSimulatedCrash, SimulatedCrash, type ProcessView };

/**
 * Runs `body` capturing no stack traces, and restores the limit after. An exploration runs the
 * product thousands of times over memfs, and nearly every error raised on the way is expected and
 * handled: a file not there yet, the simulated power failure. Each one captured a stack trace,
 * twice (memfs's error and the port's FsError): about a tenth of the crash properties' CPU. What
 * an exploration keeps of an error is its message (a violation's line), so inside one no stack
 * is captured; a test's own assertions outside it keep theirs.
 */
export async function withoutStacks<T>(body: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await body();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export interface CrashOptions {
  /** mutations allowed to complete; power fails before the next. Infinity: only on crash() */
  readonly crashAt: number;
  /** picks what the power failure loses; without it, everything not durable is lost */
  readonly seed?: number;
}

export interface CrashingFileSystem extends FileSystem {
  /** mutations completed so far */
  readonly mutations: number;
  readonly crashed: boolean;
  /** one line per completed mutation, the crash, and each change the crash lost */
  readonly trace: readonly string[];
  /** loses power now (e.g. right after the run) */
  crash(): Promise<void>;
}

/** One process on a disk of its own: its crash is a power failure. */
export function makeCrashingFileSystem(inner: MemFileSystem, options: CrashOptions): CrashingFileSystem {
  const disk = new CrashDisk(inner, options.crashAt, options.seed);
  const view = disk.process();
  const fs: CrashingFileSystem = {
    name: view.name,
    capabilities: view.capabilities,
    get mutations() {
      return disk.mutations;
    },
    get crashed() {
      return disk.powerLost;
    },
    trace: disk.trace,
    async crash() {
      if (disk.powerLost) return;
      disk.trace.push("CRASH after the run");
      await disk.powerFail();
    },
    readFile: view.readFile,
    readAt: view.readAt,
    writeFile: view.writeFile,
    open: view.open,
    rename: view.rename,
    unlink: view.unlink,
    mkdir: view.mkdir,
    rmdir: view.rmdir,
    rm: view.rm,
    readdir: view.readdir,
    stat: view.stat,
    lstat: view.lstat,
    realpath: view.realpath,
    symlink: view.symlink,
    readlink: view.readlink,
    link: view.link,
    fsyncDir: view.fsyncDir,
    utimes: view.utimes,
  };
  return fs;
}

/** the restarted process: a fresh port on the same volume, that never crashes */
export const recoverView = (inner: MemFileSystem): MemFileSystem => makeMemFileSystem(inner.vol);

/** A copy of a volume, bytes exact (binary content, empty folders and symlinks included). */
export function cloneVolume(vol: Volume): MemFileSystem {
  const copy = new Volume();
  const walk = (dir: string): void => {
    for (const name of vol.readdirSync(dir) as string[]) {
      const path = posix.join(dir, String(name));
      const st = vol.lstatSync(path);
      if (st.isDirectory()) {
        copy.mkdirSync(path, { recursive: true });
        walk(path);
      } else if (st.isSymbolicLink()) copy.symlinkSync(String(vol.readlinkSync(path)), path);
      else copy.writeFileSync(path, vol.readFileSync(path) as Buffer);
    }
  };
  walk("/");
  return makeMemFileSystem(copy);
}

/** Every file's bytes as text (lossy for binary), for comparing two volumes. */
export function volumeImage(vol: Volume): Record<string, string | null> {
  return vol.toJSON() as Record<string, string | null>;
}

/** runs once without crashing and returns how many mutations the run made */
export async function countMutations(run: (fs: FileSystem) => Promise<void>, inner: MemFileSystem = makeMemFileSystem()): Promise<number> {
  const fs = makeCrashingFileSystem(inner, { crashAt: Infinity });
  await withoutStacks(() => run(fs));
  return fs.mutations;
}

export interface CrashInfo {
  /** the run returned before the power failed (so all it acknowledged must be there) */
  readonly completed: boolean;
  /** the recovery crash explored, when recovery is: its mutation index */
  readonly recoveryCrashAt?: number;
}

export interface CrashExploration {
  /** a fresh, seeded volume; called once per crash point */
  readonly setup: () => MemFileSystem | Promise<MemFileSystem>;
  readonly run: (fs: FileSystem) => Promise<void>;
  /** inspects the volume after the crash at point k (k = n: right after a complete run), after
   *  recovery when there is one */
  readonly check: (view: MemFileSystem, k: number, trace: readonly string[], info: CrashInfo) => void | Promise<void>;
  /** what the loss at each crash is decided by (see CrashOptions.seed); the same for every k */
  readonly seed?: number;
  /**
   * What a restarted process runs first. When given, after each crash of the run the recovery
   * is itself crashed at each of its mutations (with the same loss model), then run to the end,
   * then power fails once more and it runs again; that last run must change nothing. The check
   * sees the final volume. `nested: false` skips the crashes inside recovery.
   */
  readonly recover?: (fs: FileSystem) => Promise<void>;
  readonly nested?: boolean;
}

/** a crash, or an error some code wrapped around one (its `cause` chain holds the crash) */
const causedByCrash = (e: unknown): boolean => isSimulatedCrash(e) || (e instanceof Error && e.cause !== undefined && causedByCrash(e.cause));

async function runUntilCrash(fs: CrashingFileSystem, run: (fs: FileSystem) => Promise<void>): Promise<boolean> {
  try {
    await run(fs);
    return true;
  } catch (e) {
    if (!causedByCrash(e) || !fs.crashed) throw e;
    return false;
  }
}

/** Recovery after a crash: crashed at `at` (if any), run to the end, power lost, run again. */
async function recoverFrom(crashed: MemFileSystem, recover: (fs: FileSystem) => Promise<void>, at: number | undefined, seed: number | undefined, trace: string[]): Promise<MemFileSystem> {
  const vol = cloneVolume(crashed.vol);
  if (at !== undefined) {
    const fs = makeCrashingFileSystem(vol, { crashAt: at, ...(seed === undefined ? {} : { seed: seed + 1 }) });
    await runUntilCrash(fs, recover);
    await fs.crash();
    trace.push(`recovery: ${fs.trace.join(" | ")}`);
  }
  const full = makeCrashingFileSystem(vol, { crashAt: Infinity, ...(seed === undefined ? {} : { seed: seed + 2 }) });
  await recover(full);
  await full.crash();
  trace.push(`recovery to the end, then power lost: ${full.trace.filter((l) => l.startsWith("  lost")).join(" | ") || "nothing lost"}`);
  const settled = JSON.stringify(volumeImage(vol.vol));
  await recover(recoverView(vol));
  if (JSON.stringify(volumeImage(vol.vol)) !== settled) throw new Error(`recovery run twice changed the volume the second time\n${trace.join("\n")}`);
  return vol;
}

/**
 * Crashes the run at every mutation k = 0..n-1 and once after it completes (k = n); with
 * `recover`, also crashes the recovery at each of its mutations; checks the volume each time.
 * Errors other than SimulatedCrash fail the exploration. Returns n.
 */
export const exploreCrashes = (x: CrashExploration): Promise<number> => withoutStacks(() => explore(x));

async function explore(x: CrashExploration): Promise<number> {
  const n = await countMutations(x.run, await x.setup());
  for (let k = 0; k <= n; k++) {
    const inner = await x.setup();
    const fs = makeCrashingFileSystem(inner, { crashAt: k, ...(x.seed === undefined ? {} : { seed: x.seed + k }) });
    const completed = await runUntilCrash(fs, x.run);
    await fs.crash();
    if (x.recover === undefined) {
      await x.check(recoverView(inner), k, fs.trace, { completed });
      continue;
    }
    const m = x.nested === false ? 0 : await countMutations(x.recover, cloneVolume(inner.vol));
    for (let j = x.nested === false ? -1 : 0; j < m; j++) {
      const trace = [...fs.trace];
      const view = await recoverFrom(inner, x.recover, j < 0 ? undefined : j, x.seed === undefined ? undefined : x.seed + k * 1000 + j, trace);
      await x.check(view, k, trace, { completed, ...(j < 0 ? {} : { recoveryCrashAt: j }) });
    }
    if (m === 0 && x.nested !== false) {
      const trace = [...fs.trace];
      await x.check(await recoverFrom(inner, x.recover, undefined, x.seed, trace), k, trace, { completed });
    }
  }
  return n;
}
