// The end of a short-lived process that launched recipes (one CLI `call`): its launch log is
// closed for good, and the logs waiting for a fold are folded now when there are enough of them
// and nobody holds the store lock at this instant. Without this, every call would leave one log
// file until a summary, doctor or host session folded them, and a script calling tools 100,000
// times would leave 100,000 files for that fold. The try never waits: a busy lock means another
// process is folding (or about to), and the launch itself was counted before this runs.
import { LockTimeoutError } from "../../adapters/lock/Lock.js";
import type { LedgerContext } from "./ledger-context.js";
import { foldLocked } from "./fold-logs.js";
import { LOG_SUFFIX } from "./launch-log.js";
import { listDir, withStore } from "./ledger-store.js";

/** Logs that may wait before an exiting process folds them: a fold per this many calls, at most,
 *  so a script of many calls leaves at most this many small files, and the exiting call that
 *  pays for the fold is one in this many (why this number: docs/performance.md, "call"). Usage
 *  views and live sessions fold every pending log whenever they run. */
export const PENDING_LOG_BOUND = 64;

export interface ExitFold {
  /** the fold ran (the logs it could delete are gone) */
  readonly folded: boolean;
  readonly diagnostics: readonly string[];
}

/** Closes this process's launch log and folds the pending logs if there are at least `bound` of
 *  them and the store lock is free right now. Never throws: the counts stay in the logs for the
 *  next fold. */
export async function closeAndFoldIfFree(ctx: LedgerContext, bound: number = PENDING_LOG_BOUND): Promise<ExitFold> {
  // a process that launched nothing (a `list`, a rejected call) has no log and nothing to fold
  if (ctx.log.id === undefined) {
    await ctx.log.close().catch(() => undefined);
    return { folded: false, diagnostics: [] };
  }
  try {
    await ctx.log.rotate();
    await ctx.log.close();
    const pending = (await listDir(ctx, ctx.paths.launches)).filter((n) => n.endsWith(LOG_SUFFIX)).length;
    if (pending === 0 || pending < bound) return { folded: false, diagnostics: [] };
    const diagnostics = await withStore(ctx, async (recovered) => [...recovered, ...(await foldLocked(ctx))], 0);
    return { folded: true, diagnostics };
  } catch (e) {
    if (e instanceof LockTimeoutError) return { folded: false, diagnostics: [] };
    return { folded: false, diagnostics: [`Usage ledger fold at exit failed: ${e instanceof Error ? e.message : String(e)}`] };
  } finally {
    await ctx.log.close().catch(() => undefined);
  }
}
