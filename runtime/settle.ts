// Settling what a killed command left pending, before a command reads anything: a plan whose
// journal is still on disk (a register_tool delete, a promotion's lineage move, a ledger commit)
// is finished or undone now, by whichever command comes next, read-only ones included, as SQLite
// rolls a hot journal back or forward before the first read. Without this a `list` would show the
// half-done state and an unrelated later command would settle it (docs/journal.md).
//
// Cheap when nothing is pending: one folder listing per journal folder and one small read of the
// review state, no lock, no write; and nothing of the journal engine, the ledger's store or the
// review cycle is loaded until something is pending (a `list` loads none of it).
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { LockTimeoutError, type Lock } from "../adapters/lock/Lock.js";
import type { AgentPaths } from "./agent-paths.js";
import { closeLedger, openLedger } from "./ledger/ledger-context.js";
import { recoverRegisterJournals } from "./register-journal.js";
import { setAsideNote } from "../core/journal/journal-suffix.js";
import { ledgerPending, registerPending, reviewExecuting } from "./pending.js";
import { openReviews } from "./review/review-context.js";

export interface SettleContext {
  readonly paths: AgentPaths;
  readonly fs: FileSystem;
  readonly lock: Lock;
  /** how long to wait for a journal folder's lock; a writer that holds it settles its own plan */
  readonly lockTimeoutMs?: number;
  /** the packaged component root, for the discovery a review's execution runs */
  readonly packagedRoot?: string;
}

/** Settles the pending plans of the recipe root; returns what it has to tell (a journal that
 *  could not be trusted and was kept aside). */
export async function settlePendingPlans(ctx: SettleContext): Promise<readonly string[]> {
  const notes: string[] = [];
  const timeoutMs = ctx.lockTimeoutMs ?? 5_000;
  const busy = (e: unknown): void => {
    // a live writer holds the folder: its plan is in progress, not pending, and it finishes it
    if (!(e instanceof LockTimeoutError)) throw e;
  };
  if (await registerPending(ctx.fs, ctx.paths)) {
    try {
      for (const o of await recoverRegisterJournals(ctx.fs, ctx.lock, ctx.paths, { timeoutMs })) {
        if (o.outcome === "quarantined") notes.push(setAsideNote("register_tool", o));
      }
    } catch (e) {
      busy(e);
    }
  }
  if (await ledgerPending(ctx.fs, ctx.paths)) {
    const ledger = openLedger({ fs: ctx.fs, lock: ctx.lock, recipeRoot: ctx.paths.recipeRoot, usageRoot: ctx.paths.usageRoot });
    try {
      const { recoverLedger } = await import("./ledger/recover-ledger.js");
      notes.push(...(await recoverLedger(ledger)));
    } catch (e) {
      busy(e);
    } finally {
      await closeLedger(ledger);
    }
  }
  if (await reviewExecuting(ctx.fs, ctx.paths)) {
    // a draft review killed while carrying out its final decisions: one cycle without a
    // reviewer only finishes (or cleans up) what is there, it captures nothing new
    // the review cycle's code (and with it discovery) loads only when a review is to be finished
    const { runCycle } = await import("./review/cycle.js");
    const reviews = openReviews({ fs: ctx.fs, lock: ctx.lock, paths: ctx.paths, lockTimeoutMs: timeoutMs, ...(ctx.packagedRoot === undefined ? {} : { packagedRoot: ctx.packagedRoot }) });
    try {
      const report = await runCycle(reviews);
      if (report.error !== undefined) notes.push(`draft review batch ${report.batchId ?? ""}: ${report.error}`);
    } catch (e) {
      busy(e);
    } finally {
      await closeLedger(reviews.ledger);
    }
  }
  return notes;
}
