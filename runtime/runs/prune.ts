// Keeping the run store bounded: at most `keep` finished runs, none older than `maxAgeMs`. A
// running run is never touched, whatever its age. A folder that is not (yet) a readable run may be
// one being created right now, so it goes only once it is older than the age limit.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { listRuns } from "./store.js";

export const RUN_RETENTION = { keep: 100, maxAgeMs: 7 * 24 * 60 * 60 * 1000 } as const;

export interface PruneOptions {
  readonly now: number;
  readonly keep?: number;
  readonly maxAgeMs?: number;
}

/** Removes what the limits allow; answers the run ids removed. Never throws. */
export async function pruneRuns(fs: FileSystem, runsRoot: string, options: PruneOptions): Promise<string[]> {
  const keep = options.keep ?? RUN_RETENTION.keep;
  const oldest = options.now - (options.maxAgeMs ?? RUN_RETENTION.maxAgeMs);
  const removed: string[] = [];
  let finished = 0;
  // newest first, so the runs kept are the most recent ones
  for (const entry of await listRuns(fs, runsRoot)) {
    if (entry.run?.status === "running") continue;
    const tooOld = entry.timeMs < oldest;
    const surplus = entry.run !== undefined && ++finished > keep;
    if (!tooOld && !surplus) continue;
    try {
      await fs.rm(entry.dir, { recursive: true, force: true });
      removed.push(entry.run_id);
    } catch {
      // someone else is pruning too, or the folder is not ours to remove: leave it
    }
  }
  return removed;
}
