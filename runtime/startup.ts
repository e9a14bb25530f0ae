// Start-up housekeeping of the recipe folders: temp files that an atomic write left behind when
// its process died. A temp is removed only under the lock of the file it was going to replace,
// so the temp of a write still in progress (its writer holds that lock) is never taken away.
import { join } from "node:path";
import { hasCode, isAtomicTempName, type FileSystem } from "../adapters/fs/FileSystem.js";
import { LockTimeoutError, type Lock } from "../adapters/lock/Lock.js";
import type { AgentPaths } from "./agent-paths.js";
import { recoverRegisterJournals } from "./register-journal.js";
import { setAsideNote } from "../core/journal/journal-suffix.js";

export interface StartupContext {
  readonly paths: AgentPaths;
  readonly fs: FileSystem;
  readonly lock: Lock;
  /** how long to wait for a busy target before leaving its temp for the next start; default 50 ms */
  readonly lockTimeoutMs?: number;
  /** where start-up problems are told (a journal kept aside) */
  readonly report?: (message: string) => void;
}

/** `.x.json.<id>.tmp` → `x.json` (the file the temp was going to replace) */
const targetOf = (temp: string): string | undefined => /^\.(.+)\.[A-Za-z0-9_-]+\.tmp$/.exec(temp)?.[1];

async function cleanDir(ctx: StartupContext, dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await ctx.fs.readdir(dir);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return [];
    // housekeeping never stops the command it runs before: a folder this user may not list
    // (a drafts folder of mode 000) keeps its temps, told to `report`, and the command goes on
    if (hasCode(e, "EACCES", "EPERM")) {
      ctx.report?.(`stray temps in ${dir} were not looked for: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
    throw e;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const target = entry.kind === "file" && isAtomicTempName(entry.name) ? targetOf(entry.name) : undefined;
    if (target === undefined) continue;
    const temp = join(dir, entry.name);
    try {
      await ctx.lock.withLock(join(dir, target), async () => {
        try {
          await ctx.fs.unlink(temp);
          removed.push(temp);
        } catch (e) {
          if (!hasCode(e, "ENOENT")) throw e;
        }
      }, { timeoutMs: ctx.lockTimeoutMs ?? 50 });
    } catch (e) {
      if (!(e instanceof LockTimeoutError)) throw e;
    }
  }
  return removed;
}

/** Finishes or undoes register_tool changes a crash interrupted, then removes stray atomic-write
 *  temps from the recipe root and the drafts folder; returns the temps' paths. A journal that
 *  cannot be trusted is kept aside and told to `report`. */
export async function cleanStrayRecipeTemps(ctx: StartupContext): Promise<string[]> {
  try {
    for (const o of await recoverRegisterJournals(ctx.fs, ctx.lock, ctx.paths, { timeoutMs: ctx.lockTimeoutMs ?? 50 })) {
      if (o.outcome === "quarantined") ctx.report?.(setAsideNote("register_tool", o));
    }
  } catch (e) {
    // a busy journal belongs to a live register_tool call, which finishes it itself
    if (!(e instanceof LockTimeoutError)) throw e;
  }
  return [...(await cleanDir(ctx, ctx.paths.recipeRoot)), ...(await cleanDir(ctx, ctx.paths.draftRoot))];
}
