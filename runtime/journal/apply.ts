// Executing the engine's decisions: observe the plan's paths, ask core, run the actions phase by
// phase, make each phase durable (the files and every folder whose entries changed) before the
// next, and ask again until core says done.
import { sha256Bytes } from "../crypto-sha256.js";
import { dirname, join } from "node:path";
import { hasCode, writeFileAtomic, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { decide, type Action, type Decision, type Journal } from "../../core/journal/recovery-decision.js";
import { blobBytes, pathsOf, type PathState } from "../../core/journal/plan.js";
import { encodeJournal, journalFileName } from "../../core/journal/record.js";

export interface JournalOptions {
  /** Deliberate breakage, for the tests that prove the crash harness catches it. Never set
   *  outside tests. */
  readonly faults?: {
    /** recovery removes a journal before replaying it */
    readonly dropJournalBeforeReplay?: boolean;
  };
}

/** What a path holds: its content hash, absent, a folder, or "other" (symlink, device…). */
export async function observe(fs: FileSystem, path: string): Promise<PathState | "other"> {
  let kind;
  try {
    kind = (await fs.lstat(path)).kind;
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return null;
    throw e;
  }
  if (kind === "dir") return "dir";
  if (kind !== "file") return "other";
  try {
    return sha256Bytes(await fs.readFile(path));
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return null;
    throw e;
  }
}

export async function observeAll(fs: FileSystem, journal: Journal): Promise<Map<string, PathState | "other">> {
  const out = new Map<string, PathState | "other">();
  for (const path of pathsOf(journal.plan)) out.set(path, await observe(fs, path));
  return out;
}

/** mkdir -p whose new folders are durable: each parent is fsynced after its child appears */
export async function ensureDir(fs: FileSystem, dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if ((await observe(fs, d)) === "dir") break;
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      await fs.mkdir(d);
    } catch (e) {
      if (!hasCode(e, "EEXIST")) throw e;
    }
    await fs.fsyncDir(dirname(d));
  }
}

/** Writes the journal file durably (atomic write, folder fsync). */
export async function persistJournal(fs: FileSystem, journalDir: string, journal: Journal): Promise<void> {
  await ensureDir(fs, journalDir);
  await writeFileAtomic(fs, join(journalDir, journalFileName(journal.plan.id)), encodeJournal(journal));
}

/** Removes a journal file durably; a missing one is already removed. */
export async function removeJournal(fs: FileSystem, journalDir: string, file: string): Promise<void> {
  try {
    await fs.unlink(join(journalDir, file));
  } catch (e) {
    if (!hasCode(e, "ENOENT")) throw e;
  }
  await fs.fsyncDir(journalDir);
}

const PARALLEL = 32;

async function inParallel<A>(items: readonly A[], run: (item: A) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]!);
  };
  // a worker beyond the number of items finds nothing to do
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

async function run(fs: FileSystem, journal: Journal, action: Action): Promise<void> {
  switch (action.op) {
    case "write": {
      const blob = journal.plan.blobs[action.content];
      if (blob === undefined) throw new Error(`Journal ${journal.plan.id} has no content ${action.content} for ${action.path}`);
      await ensureDir(fs, dirname(action.path));
      // the temp is fsynced before the rename; the folder fsync comes with the phase
      return writeFileAtomic(fs, action.path, blobBytes(blob));
    }
    case "unlink":
      try {
        return await fs.unlink(action.path);
      } catch (e) {
        if (!hasCode(e, "ENOENT")) throw e;
        return;
      }
    case "rename":
      await ensureDir(fs, dirname(action.to));
      return fs.rename(action.from, action.to);
    case "link":
      await ensureDir(fs, dirname(action.to));
      try {
        return await fs.link(action.from, action.to);
      } catch (e) {
        if (!hasCode(e, "EEXIST")) throw e;
        // a half-made earlier attempt: replace it
        await fs.unlink(action.to);
        return fs.link(action.from, action.to);
      }
    case "mkdir":
      await ensureDir(fs, dirname(action.path));
      try {
        return await fs.mkdir(action.path);
      } catch (e) {
        if (!hasCode(e, "EEXIST")) throw e;
        return;
      }
    case "rmdir":
      try {
        return await fs.rmdir(action.path);
      } catch (e) {
        if (!hasCode(e, "ENOENT")) throw e;
        return;
      }
  }
}

/** the folders whose entries an action changes */
const foldersOf = (action: Action): string[] =>
  action.op === "rename" || action.op === "link" ? [dirname(action.from), dirname(action.to)] : [dirname(action.path)];

/** Runs one phase and makes it durable. */
async function runPhase(fs: FileSystem, journal: Journal, actions: readonly Action[]): Promise<void> {
  await inParallel(actions, (a) => run(fs, journal, a));
  for (const dir of new Set(actions.flatMap(foldersOf))) await fs.fsyncDir(dir);
}

// A decision's actions bring every path to its goal, so the second look finds it done; the bound
// only guards against a file that changes under us (outside the caller's lock).
const MAX_ROUNDS = 4;

/** Drives a journal to its goal; returns the last decision (done, or corrupt with its reason). */
export async function drive(fs: FileSystem, journal: Journal): Promise<Decision> {
  for (let round = 0; ; round++) {
    const decision = decide(journal, await observeAll(fs, journal));
    if (decision.kind === "done" || decision.kind === "corrupt") return decision;
    if (round >= MAX_ROUNDS) return { kind: "corrupt", reason: `journal ${journal.plan.id} did not settle after ${MAX_ROUNDS} rounds` };
    for (const phase of decision.phases) await runPhase(fs, journal, phase);
  }
}
