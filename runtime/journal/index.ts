// The journal engine's effects: run a plan durably, recover what a crash left. docs/journal.md.
//
// Exclusion: the caller holds a lock that keeps every other runPlan and recoverJournals on the
// same journal folder out while it runs (the ledger's store lock, register_tool's journal lock).
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { Plan } from "../../core/journal/plan.js";

export interface JournalOptions {
  /** Deliberate breakage, for the tests that prove the crash harness catches it. Never set
   *  outside tests. */
  readonly faults?: {
    /** recovery removes a journal before replaying it */
    readonly dropJournalBeforeReplay?: boolean;
  };
}

export type RecoveryOutcome =
  /** the plan was finished */
  | { readonly id: string; readonly kind: string; readonly outcome: "rolled-forward" }
  /** the plan was undone (it had failed in process and was reversible) */
  | { readonly id: string; readonly kind: string; readonly outcome: "rolled-back" }
  /** the journal failed its hash, could not be read, or its files were changed by someone
   *  else: it was renamed to `quarantinedAs` and nothing was applied */
  | { readonly id: string; readonly kind: string; readonly outcome: "quarantined"; readonly quarantinedAs: string; readonly reason: string };

/** Why runPlan refused or failed; the journal's state is described in `rolledBack`. */
export class PlanFailed extends Error {
  override readonly name = "PlanFailed";
  constructor(message: string, readonly planId: string, readonly rolledBack: boolean, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Applies a plan so that a crash at any point leaves it recoverable: the journal is written and
 * made durable first, each phase is applied and made durable, and the journal is removed (and
 * the removal made durable) only at the end. Resolves once every change is durable. Before
 * writing anything it checks every path holds its before state; if not it rejects with
 * PlanFailed and changes nothing. An error during apply rolls a reversible plan back (then
 * rejects); a plan that cannot be undone keeps its journal for recovery to finish.
 */
export async function runPlan(fs: FileSystem, journalDir: string, plan: Plan, options: JournalOptions = {}): Promise<void> {
  void fs;
  void journalDir;
  void plan;
  void options;
  throw new Error("not implemented");
}

/**
 * Finishes or undoes every journal in `journalDir` (oldest id first) and reports each. Safe to
 * run any number of times, and after a crash inside itself. A missing folder means nothing to do.
 */
export async function recoverJournals(fs: FileSystem, journalDir: string, options: JournalOptions = {}): Promise<readonly RecoveryOutcome[]> {
  void fs;
  void journalDir;
  void options;
  throw new Error("not implemented");
}
