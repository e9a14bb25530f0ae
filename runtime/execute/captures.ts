// Where overflowing command output is spilled: under the agent's tmp dir, one folder per command,
// created only when a stream outgrows its in-memory tail. Folders older than a day are removed when
// a tool runs (checked at most hourly), so spills neither litter the OS temp dir nor grow without bound.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
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
 * the call path); never throws (a missing root is the normal case). */
export function pruneCaptures(root: string, clock: Clock = systemClock): void {
  const now = clock.now();
  const last = lastPruned.get(root);
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return;
  lastPruned.set(root, now);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith("capture-")) continue;
    const path = join(root, name);
    try {
      if (now - statSync(path).mtimeMs > MAX_AGE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process pruned it first
    }
  }
}
