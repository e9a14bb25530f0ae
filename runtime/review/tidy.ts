// Housekeeping of the draft review folders, run by every cycle under the review state's lock
// (every writer of these folders holds it, so nothing found here is being written):
// - stray `*.tmp` files that a killed atomic write left in the review folder and in each batch
//   folder are removed;
// - batch folders are pruned: the newest KEEP_BATCHES are kept, and so is every batch that is
//   not finished (its quarantine not yet collected, or no evidence at all: a batch that failed
//   or was reset keeps what an operator may want to look at) and the one the state names.
import { join } from "node:path";
import { hasCode, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { BATCH_FILE, batchesRoot, EVIDENCE_FILE, reviewRoot, type ReviewContext } from "./review-context.js";
import { readJsonOrUndefined } from "./files.js";

export const KEEP_BATCHES = 5;

async function entries(fs: FileSystem, dir: string) {
  try {
    return await fs.readdir(dir);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return [];
    throw e;
  }
}

async function sweepTemps(fs: FileSystem, dir: string): Promise<number> {
  let removed = 0;
  for (const e of await entries(fs, dir)) {
    if (e.kind !== "file" || !e.name.endsWith(".tmp")) continue;
    await fs.rm(join(dir, e.name), { force: true });
    removed++;
  }
  // durable, so that a power failure does not bring the temps back for the next cycle
  if (removed > 0) await fs.fsyncDir(dir);
  return removed;
}

/** evidence whose garbage collection completed; anything else read (none, null, a number, bad
 *  JSON read as none) has no such status */
const isFinished = (evidence: unknown): boolean => (evidence as { garbageCollection?: { status?: unknown } } | undefined)?.garbageCollection?.status === "completed";

/** Sweeps temps and prunes finished batches beyond the newest few; `current` is never pruned.
 *  Returns what it did, for the cycle's steps. */
export async function tidyReviews(ctx: ReviewContext, current: string | undefined): Promise<string[]> {
  const root = reviewRoot(ctx.paths);
  const batches = batchesRoot(ctx.paths);
  let temps = await sweepTemps(ctx.fs, root);
  const found: Array<{ id: string; createdAt: string; finished: boolean }> = [];
  for (const e of await entries(ctx.fs, batches)) {
    if (e.kind !== "dir") continue;
    const dir = join(batches, e.name);
    temps += await sweepTemps(ctx.fs, dir);
    const batch = (await readJsonOrUndefined(ctx.fs, join(dir, BATCH_FILE))) as { createdAt?: unknown } | undefined;
    const createdAt = typeof batch?.createdAt === "string" ? batch.createdAt : "";
    found.push({ id: e.name, createdAt, finished: isFinished(await readJsonOrUndefined(ctx.fs, join(dir, EVIDENCE_FILE))) });
  }
  // newest first; a batch without a readable creation time counts as the oldest
  found.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
  let pruned = 0;
  for (const b of found.slice(KEEP_BATCHES)) {
    if (!b.finished || b.id === current) continue;
    await ctx.fs.rm(join(batches, b.id), { recursive: true, force: true });
    pruned++;
  }
  if (pruned > 0) await ctx.fs.fsyncDir(batches);
  return [...(temps === 0 ? [] : ["swept"]), ...(pruned === 0 ? [] : ["pruned"])];
}
