// The Watcher port on chokidar 5 (fs.watch underneath, never polling).
//
// One chokidar instance at a time: on the root (depth 1, but only `drafts/` is entered), or, while
// the root is missing, on its parent (depth 0, only the root's name). Every switch runs in one
// queue and bumps a generation number, and each instance's callbacks check it, so a late event
// of a closed instance is never acted on.
//
// Options, and why:
// - atomic (on, with a 50 ms window instead of 100 so real deletes are reported sooner): an
//   unlink followed within the window by an add of the same name becomes one "change". Our writes
//   are temp + rename over the target, which on Linux already arrives as a change; the option
//   keeps editors' delete-and-recreate saves from flickering through "unlink". The price: a real
//   unlink is reported ~50 ms late.
// - no awaitWriteFinish: it polls sizes and holds events for its stability threshold. Atomic
//   renames publish complete files, and a plain writer's later writes raise further "change"s.
// - dot-files (atomic-write temps, editor swap files) and names discovery would not read are
//   ignored in chokidar's filter, so no watch is spent on them and no event is raised.
import { lstat, stat } from "node:fs/promises";
import { watch as watchFolder, type FSWatcher as FolderWatcher, type Stats } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { misnamedRecipe, recipeFileName } from "../../core/discovery/paths.js";
import { DEFAULT_DEBOUNCE_MS, makeBatcher, type ChangeListener, type RecipeRootWatch, type Watcher, type WatchMode, type WatchOptions } from "./Watcher.js";

const DRAFTS = "drafts";
const ATOMIC_WINDOW_MS = 50;

/**
 * true for what the root watch reports or enters: the root, `drafts` directly in it, recipe
 * files (`*.json`, `*.md`, not dot-files) in either, and near-miss names in the root
 * (core/discovery/paths.ts misnamedRecipe). Without `stats` (chokidar asks twice) the decision is
 * by name alone; with them a folder named like a recipe, or a file named `drafts`, is refused
 * (such a folder in the root still reaches the consumer through the kernel's hints below).
 */
export function isWatchedRecipePath(root: string, path: string, stats?: Pick<Stats, "isFile" | "isDirectory">): boolean {
  if (path === root) return true;
  const parts = relative(root, path).split(sep);
  const [first, second] = parts;
  if (first === undefined || first === ".." || first === "") return false;
  const isRecipeFile = (name: string): boolean => recipeFileName(name) !== undefined && (stats === undefined || stats.isFile());
  // a near-miss name in the root is reported too: the registry says it was not loaded
  const isMisnamed = (name: string): boolean => misnamedRecipe(name) && (stats === undefined || !stats.isDirectory());
  if (parts.length === 1) return first === DRAFTS ? stats === undefined || stats.isDirectory() : isRecipeFile(first) || isMisnamed(first);
  return parts.length === 2 && first === DRAFTS && second !== undefined && isRecipeFile(second);
}

const isDir = async (path: string): Promise<boolean> => {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
};

// dev:ino of a folder, or undefined: tells a root that was swapped for another folder from the same root
const dirIdentity = async (path: string): Promise<string | undefined> => {
  try {
    const s = await stat(path);
    return s.isDirectory() ? `${s.dev}:${s.ino}` : undefined;
  } catch {
    return undefined;
  }
};

// chokidar drops a "change" that comes within 50 ms of the previous one for the same path and
// never emits it later: a second quick write would go unreported, and a reload that ran between
// the two writes would keep stale content. So each reported add/change is followed, once that
// window is over, by one stat; a file that differs from what the event saw is reported again.
// (An in-place rewrite of equal size within one kernel timestamp tick stays invisible to stat.)
//
// chokidar also loses new files: it finds them by re-reading the folder, at most one read per
// second, and a name that appears during a read is owed a second read only if that read ends
// within the second. Reading a big root (thousands of entries, each one stat'ed) on a loaded
// machine takes longer; the owed read is then dropped and the new file is never reported, until
// some later event happens to re-read the folder. So every name the kernel says appeared in or
// left the root or `drafts/` (fs.watch "rename", before chokidar's own read) is checked the same
// way: if chokidar has said nothing about it within the window, the file is reported as a
// change when it is there and as an unlink when it is not.
const RECHECK_MS = 60;

const identityOf = (s: Stats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

interface Rechecker {
  /** chokidar reported an add or change of `path`, with what it saw */
  saw(path: string, stats: Stats | undefined): void;
  /** the kernel named `path` (created, deleted or renamed); nothing is known about it yet */
  hint(path: string): void;
  forget(path: string): void;
  stop(): void;
}

function makeRechecker(onStale: (path: string, kind: "change" | "unlink") => void): Rechecker {
  /** the check scheduled for each path */
  const pending = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const check = async (path: string, hintOnly: boolean, seen: string | undefined): Promise<void> => {
    pending.delete(path);
    const now = await stat(path).catch(() => undefined);
    if (stopped) return;
    // a hinted name that is not a file (a folder named like a recipe) is no recipe either
    if (now === undefined || (hintOnly && !now.isFile())) {
      // gone: chokidar reports the unlink of a file it knows; one it never reported may be a
      // file it lost, which the consumer may nonetheless have read (through an earlier hint)
      if (hintOnly) onStale(path, "unlink");
      return;
    }
    if (hintOnly || identityOf(now) !== seen) onStale(path, "change");
  };
  return {
    saw(path, stats) {
      clearTimeout(pending.get(path));
      const seen = stats === undefined ? undefined : identityOf(stats);
      pending.set(path, setTimeout(() => void check(path, false, seen), RECHECK_MS));
    },
    hint(path) {
      // a check already pending covers the hint: it stats the file after the hint arrived
      if (stopped || pending.has(path)) return;
      pending.set(path, setTimeout(() => void check(path, true, undefined), RECHECK_MS));
    },
    forget(path) {
      clearTimeout(pending.get(path));
      pending.delete(path);
    },
    stop() {
      stopped = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}

const asError = (u: unknown): Error => (u instanceof Error ? u : new Error(String(u)));

export function watchRecipeRoot(rootPath: string, onChange: ChangeListener, options: WatchOptions = {}): RecipeRootWatch {
  const root = resolve(rootPath);
  const parent = dirname(root);
  const rootName = basename(root);
  const drafts = join(root, DRAFTS);
  let rootId: string | undefined;
  let mode: WatchMode = "parent";
  let closed = false;
  let generation = 0;
  let current: FSWatcher | undefined;
  let recheck: Rechecker | undefined;
  let queue: Promise<void> = Promise.resolve();
  let signalClosed = (): void => undefined;
  const closedSignal = new Promise<void>((res) => (signalClosed = res));

  const report = (u: unknown): void => {
    if (closed || options.onError === undefined) return;
    try {
      options.onError(asError(u));
    } catch {
      // the error sink itself failed; there is nobody left to tell
    }
  };
  const batcher = makeBatcher((events) => {
    if (closed) return;
    try {
      onChange(events);
    } catch (e) {
      report(e);
    }
  }, options.debounceMs ?? DEFAULT_DEBOUNCE_MS);

  const live = (gen: number): boolean => !closed && gen === generation;
  const enqueue = (step: () => Promise<void>): Promise<void> => (queue = queue.then(step).catch(report));
  // chokidar never says "ready" for an instance closed before its scan ends: close() must not hang on it
  const whenReady = (w: FSWatcher): Promise<void> => Promise.race([new Promise<void>((res) => w.once("ready", () => res())), closedSignal]);

  // A recipe root that is a symbolic link is watched through its target, which hears nothing when
  // the link itself is replaced (another target swapped in, as a deploy does): the link's own name
  // is watched in its folder too, and any event on it has the root's identity checked.
  let linkWatch: FolderWatcher | undefined;
  const unwatchLink = (): void => {
    linkWatch?.close();
    linkWatch = undefined;
  };
  async function watchLink(gen: number): Promise<void> {
    const isLink = await lstat(root).then((s) => s.isSymbolicLink(), () => false);
    if (!isLink || !live(gen)) return;
    try {
      linkWatch = watchFolder(parent, { persistent: false }, (_event, name) => {
        if (name === rootName && live(gen)) void enqueue(() => checkRoot(gen));
      });
      linkWatch.on("error", () => unwatchLink());
    } catch {
      // no watch of the link's folder: a swap of its target then goes unnoticed, as before
    }
  }

  async function release(): Promise<number> {
    unwatchLink();
    const w = current;
    current = undefined;
    recheck?.stop();
    recheck = undefined;
    generation++;
    if (w !== undefined) await w.close();
    return generation;
  }

  async function armRoot(initial: boolean): Promise<void> {
    const gen = await release();
    if (!live(gen)) return;
    // A re-armed root is scanned (ignoreInitial false): files written before the watch was live
    // are reported as adds instead of being lost.
    const w = watch(root, {
      depth: 1,
      ignoreInitial: initial,
      usePolling: false,
      atomic: ATOMIC_WINDOW_MS,
      alwaysStat: true,
      ignored: (p: string, s?: Stats) => !isWatchedRecipePath(root, p, s),
    });
    const rc = makeRechecker((path, kind) => {
      if (live(gen)) batcher.push({ kind, path });
    });
    // A root removed with its contents (`rm -rf`) does not always raise the root's own event
    // (seen with a subfolder in it): the watch then stays on the deleted folder and never hears
    // of the new one. So a name that went from the root has the root's identity checked too,
    // once per window however many names went.
    let rootCheck: NodeJS.Timeout | undefined;
    const checkRootSoon = (): void => {
      if (rootCheck !== undefined || !live(gen)) return;
      rootCheck = setTimeout(() => {
        rootCheck = undefined;
        void enqueue(() => checkRoot(gen));
      }, RECHECK_MS);
    };
    current = w;
    recheck = rc;
    mode = "root";
    w.on("all", (event, path, stats) => {
      if (!live(gen)) return;
      if (event === "add" || event === "change") rc.saw(path, stats);
      if (event === "unlink") {
        rc.forget(path);
        checkRootSoon();
      }
      if (event === "add" || event === "change" || event === "unlink") batcher.push({ kind: event, path });
      else if (event === "unlinkDir" && path === root) void enqueue(() => rootGone(gen));
    });
    // An empty root renamed away raises no chokidar event, only a raw one on the root's own name;
    // the inotify watch would follow the folder to its new place, so the identity is checked.
    w.on("raw", (event, name, details) => {
      if (!live(gen) || typeof name !== "string") return;
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (name === rootName && watched === root) void enqueue(() => checkRoot(gen));
      // a name appeared or went in the root or drafts/: see the note above RECHECK_MS
      else if (event === "rename" && (watched === root || watched === drafts)) {
        const path = join(watched, name);
        if (watched === root) checkRootSoon();
        // drafts/ itself is chokidar's to enter; the hints are for recipe files
        if (path !== drafts && isWatchedRecipePath(root, path)) rc.hint(path);
      }
    });
    w.on("error", (err) => {
      if (live(gen)) void enqueue(() => rootError(gen, err));
    });
    await whenReady(w);
    if (!live(gen)) return;
    // The root can vanish while the watch is being set up, with no event to say so.
    rootId = await dirIdentity(root);
    if (rootId === undefined) return rootGone(gen);
    await watchLink(gen);
    if (live(gen) && !initial) batcher.push({ kind: "root-added", path: root });
  }

  async function checkRoot(gen: number): Promise<void> {
    if (!live(gen)) return;
    if ((await dirIdentity(root)) !== rootId) await rootGone(gen);
  }

  async function rootGone(gen: number): Promise<void> {
    if (!live(gen)) return;
    batcher.push({ kind: "root-removed", path: root });
    await armParent();
  }

  async function rootError(gen: number, err: unknown): Promise<void> {
    if (!live(gen)) return;
    if ((await dirIdentity(root)) !== rootId) return rootGone(gen);
    // chokidar keeps watching after an error; the owner decides whether that is enough
    report(err);
  }

  async function armParent(): Promise<void> {
    const gen = await release();
    if (!live(gen)) return;
    mode = "parent";
    if (!(await isDir(parent))) return fail(gen, new Error(`cannot watch the recipe root ${root}: its parent folder ${parent} does not exist`));
    if (!live(gen)) return;
    const w = watch(parent, { depth: 0, ignoreInitial: true, usePolling: false, ignored: (p: string) => p !== parent && p !== root });
    current = w;
    w.on("all", (event, path) => {
      if (!live(gen)) return;
      if (event === "addDir" && path === root) void enqueue(() => (live(gen) ? armRoot(false) : Promise.resolve()));
      else if (event === "unlinkDir" && path === parent) void enqueue(() => fail(gen, new Error(`stopped watching for the recipe root ${root}: its parent folder ${parent} was removed`)));
    });
    w.on("error", (err) => {
      if (live(gen)) void enqueue(() => fail(gen, err));
    });
    await whenReady(w);
    // The root can appear before the parent watch is live, with no event to say so.
    if (live(gen) && (await isDir(root)) && live(gen)) await armRoot(false);
  }

  async function fail(gen: number, err: unknown): Promise<void> {
    if (!live(gen)) return;
    const g = await release();
    if (!live(g)) return;
    mode = "failed";
    report(err);
  }

  const ready = enqueue(async () => ((await isDir(root)) ? armRoot(true) : armParent()));

  let closing: Promise<void> | undefined;
  return {
    ready,
    mode: () => mode,
    close() {
      if (closing !== undefined) return closing;
      closed = true;
      mode = "closed";
      generation++;
      batcher.cancel();
      recheck?.stop();
      unwatchLink();
      signalClosed();
      const w = current;
      current = undefined;
      closing = w === undefined ? Promise.resolve() : w.close();
      return closing;
    },
  };
}

export const chokidarWatcher: Watcher = { watchRecipeRoot };
