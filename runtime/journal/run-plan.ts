// runPlan: the journal first, then the steps, then the journal goes. See docs/journal.md.
import { join } from "node:path";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { Journal } from "../../core/journal/recovery-decision.js";
import type { Plan, Step } from "../../core/journal/plan.js";
import { journalFileName } from "../../core/journal/record.js";
import { drive, observe, observeAll, persistJournal, removeJournal, type JournalOptions } from "./apply.js";
import { confinementBroken } from "./confine.js";

/** Why runPlan refused or failed. `rolledBack`: every path is back at its before state;
 *  otherwise, when `journalKept`, recovery finishes the plan later. */
export class PlanFailed extends Error {
  override readonly name = "PlanFailed";
  constructor(
    message: string,
    readonly planId: string,
    readonly rolledBack: boolean,
    readonly journalKept: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const beforeOf = (step: Step): ReadonlyArray<readonly [string, string | null]> => {
  switch (step.op) {
    case "write":
    case "unlink":
      return [[step.path, step.before]];
    case "rename":
      return [[step.from, step.before], [step.to, step.replaced]];
    case "link":
      return [[step.from, step.before], [step.to, null]];
    case "mkdir":
      return [[step.path, null]];
  }
};

/**
 * Applies a plan so that a crash at any point leaves it recoverable: a confined plan's paths must
 * have no symlink on their way (runtime/journal/confine.ts) and every path must hold its
 * before state (else PlanFailed, nothing written); the journal is written and made durable;
 * each phase is applied and made durable; the journal is removed and the removal made durable.
 * Resolves once all of that is done. An error while applying rolls a reversible plan back, then
 * rejects; a plan that cannot be undone keeps its journal, for recoverJournals to finish.
 */
export async function runPlan(fs: FileSystem, journalDir: string, plan: Plan, _options: JournalOptions = {}): Promise<void> {
  const journal: Journal = { plan, direction: "forward" };
  const broken = await confinementBroken(fs, plan);
  if (broken !== undefined) throw new PlanFailed(`Plan ${plan.id} (${plan.kind}) was refused: ${broken}; nothing was written`, plan.id, true, false);
  const observed = await observeAll(fs, journal);
  for (const step of plan.phases.flat()) {
    for (const [path, before] of beforeOf(step)) {
      if ((observed.get(path) ?? null) !== before) throw new PlanFailed(`${path} changed since the plan ${plan.id} (${plan.kind}) was made; nothing was written`, plan.id, true, false);
    }
  }
  // a plan without steps writes no journal (every step changes at least one path)
  if (plan.phases.every((p) => p.length === 0)) return;
  const file = journalFileName(plan.id);
  try {
    await persistJournal(fs, journalDir, journal);
  } catch (e) {
    // no step ran; a journal that made it to disk would be finished by recovery against the
    // caller's belief that the plan failed, so it goes, or the caller hears it is kept
    const kept = await removeJournal(fs, journalDir, file).then(
      () => false,
      // a journal that cannot be looked at may still be there
      () => observe(fs, join(journalDir, file)).then((state) => state !== null, () => true),
    );
    throw new PlanFailed(`Plan ${plan.id} (${plan.kind}) could not write its journal${kept ? " (it remains, for recovery)" : "; nothing was changed"}: ${message(e)}`, plan.id, !kept, kept, { cause: e });
  }
  let failure: unknown;
  try {
    const decision = await drive(fs, journal);
    if (decision.kind === "corrupt") failure = new Error(decision.reason);
  } catch (e) {
    failure = e;
  }
  if (failure === undefined) {
    // every change is durable; a journal that fails to go is found done by the next recovery
    await removeJournal(fs, journalDir, file).catch(() => undefined);
    return;
  }
  const why = message(failure);
  if (!plan.reversible) throw new PlanFailed(`Plan ${plan.id} (${plan.kind}) failed and stays journaled for recovery: ${why}`, plan.id, false, true, { cause: failure });
  try {
    // the direction turns once, durably, before anything is undone
    const back: Journal = { plan, direction: "back" };
    await persistJournal(fs, journalDir, back);
    const undone = await drive(fs, back);
    if (undone.kind === "corrupt") throw new Error(undone.reason);
    await removeJournal(fs, journalDir, file);
  } catch (e) {
    throw new PlanFailed(`Plan ${plan.id} (${plan.kind}) failed (${why}) and could not be undone now, it stays journaled for recovery: ${message(e)}`, plan.id, false, true, { cause: e });
  }
  throw new PlanFailed(`Plan ${plan.id} (${plan.kind}) failed and was rolled back: ${why}`, plan.id, true, false, { cause: failure });
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
