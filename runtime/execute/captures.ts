// Where overflowing command output is spilled: under the agent's tmp dir, one folder per command,
// created only when a stream outgrows its in-memory tail. Folders older than a day are removed when
// a tool runs (checked at most hourly), so spills neither litter the OS temp dir nor grow without bound.
import { join } from "node:path";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { narrowOwnFolder } from "./private-folder.js";
import { randomIds, systemClock, type Clock, type Ids } from "../../adapters/clock/Clock.js";

const MAX_AGE_MS = 24 * 60 * 60 * 1000;

// asked on every call with the same few roots: joined once each
const roots = new Map<string, string>();
export function capturesRootOf(tmpRoot: string): string {
  let root = roots.get(tmpRoot);
  if (root === undefined) roots.set(tmpRoot, (root = join(tmpRoot, "captures")));
  return root;
}

// One random id per process, then a counter: names as unique across processes as a fresh random
// id per command, without drawing random bytes on every call.
let processId: string | undefined;
let sequence = 0;
const processIds: Ids = { next: () => `${(processId ??= randomIds.next())}-${(sequence += 1)}` };

/** A fresh, not yet created folder name for one command's spill files: the time keeps the names
 *  in age order, the id keeps concurrent commands (of any process) apart. */
export function captureDirIn(root: string, clock: Clock = systemClock, ids: Ids = processIds): string {
  // the time and the id ([A-Za-z0-9-]) only lengthen the last segment, so joining the prefix once
  // per root gives what joining the whole name does
  return `${capturePrefixOf(root)}${clock.now()}-${ids.next()}`;
}

const prefixes = new Map<string, string>();
function capturePrefixOf(root: string): string {
  let prefix = prefixes.get(root);
  if (prefix === undefined) {
    if (prefixes.size >= 64) prefixes.clear();
    prefixes.set(root, (prefix = join(root, "capture-")));
  }
  return prefix;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const lastPruned = new Map<string, number>();

/** Removes capture folders older than a day, at most once an hour per root and process (it runs on
 * the call path); never rejects (a missing root is the normal case). Undefined when it is not due,
 * so that a call does not wait on a promise for nothing. */
export function pruneCaptures(fs: FileSystem, root: string, clock: Clock = systemClock): Promise<void> | undefined {
  const now = clock.now();
  const last = lastPruned.get(root);
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return undefined;
  lastPruned.set(root, now);
  return removeOld(fs, root, now);
}

async function removeOld(fs: FileSystem, root: string, now: number): Promise<void> {
  let names: string[];
  try {
    // the spills are private (adapters/process/node-runner.ts); so is their root, one left wider
    // by an earlier version included, being the runtime's own
    await narrowOwnFolder(fs, root);
    names = (await fs.readdir(root)).map((e) => e.name);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith("capture-")) continue;
    const path = join(root, name);
    try {
      if (now - (await fs.stat(path)).mtimeMs > MAX_AGE_MS) await fs.rm(path, { recursive: true, force: true });
    } catch {
      // another process pruned it first
    }
  }
}
