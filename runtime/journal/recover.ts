// recoverJournals: finish or undo what a crash left, and keep aside what cannot be trusted.
import { basename, dirname, join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { atomicTempWriter, cleanStrayTemps, hasCode, isAtomicTempName, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { JOURNAL_SUFFIX, decodeJournal, journalErrorText } from "../../core/journal/record.js";
import { quarantinedName } from "../../core/journal/journal-suffix.js";
import { drive, removeJournal, type JournalOptions } from "./apply.js";
import { confinementBroken } from "./confine.js";
import type { Step } from "../../core/journal/plan.js";
import { nodeProcessProbe, type ProcessProbe } from "../../adapters/lock/owner.js";

export type RecoveryOutcome =
  /** the plan was finished */
  | { readonly id: string; readonly kind: string; readonly outcome: "rolled-forward" }
  /** the plan was undone (it had failed in process and was reversible) */
  | { readonly id: string; readonly kind: string; readonly outcome: "rolled-back" }
  /** the journal failed its hash, could not be read, its files were changed by someone else, or
   *  a confined plan's folder has a symlink on a path's way: it was renamed to `quarantinedAs`
   *  and nothing more was applied */
  | { readonly id: string; readonly kind: string; readonly outcome: "quarantined"; readonly quarantinedAs: string; readonly reason: string };

/** `<id>.journal.json.quarantined[-n]`: not a journal name, so recovery passes it by */
async function quarantine(fs: FileSystem, dir: string, file: string): Promise<string> {
  for (let n = 0; ; n++) {
    const aside = join(dir, quarantinedName(file, n));
    try {
      await fs.lstat(aside);
      continue;
    } catch (e) {
      if (!hasCode(e, "ENOENT")) throw e;
    }
    await fs.rename(join(dir, file), aside);
    await fs.fsyncDir(dir);
    return aside;
  }
}

/**
 * The temps a killed plan's writes left beside the files it wrote (`.<file>.<pid>-<n>.tmp`, a
 * revision snapshot's in its ring folder, say): once the plan is finished or undone, those of a
 * writer whose process is gone are removed. Only inside `store` (the folder that holds the
 * journal folder: the usage store for the ledger's journals), whose files are written only under
 * the lock recovery holds, so no live writer's temp can be there; a recipe file a plan wrote
 * (outside it) keeps its folder's temps for the writer that holds that file's lock. A pid this
 * process sees alive, or cannot tell about, keeps its temp too. Never throws.
 */
export async function removeDeadWriteTemps(fs: FileSystem, steps: readonly Step[], store: string, probe: Pick<ProcessProbe, "signalZero"> = nodeProcessProbe): Promise<void> {
  const written = new Map<string, Set<string>>();
  const inside = `${store.endsWith("/") ? store.slice(0, -1) : store}/`;
  for (const step of steps) {
    const path = step.op === "write" ? step.path : step.op === "rename" || step.op === "link" ? step.to : undefined;
    if (path === undefined || !path.startsWith(inside)) continue;
    const names = written.get(dirname(path)) ?? new Set<string>();
    names.add(basename(path));
    written.set(dirname(path), names);
  }
  for (const [dir, bases] of written) {
    const entries = await fs.readdir(dir).catch(() => []);
    let removed = false;
    for (const e of entries) {
      const temp = e.kind === "file" ? atomicTempWriter(e.name) : undefined;
      if (temp === undefined || !bases.has(temp.base) || temp.pid === process.pid || probe.signalZero(temp.pid) !== "gone") continue;
      removed = (await fs.unlink(join(dir, e.name)).then(() => true, () => false)) || removed;
    }
    if (removed) await fs.fsyncDir(dir).catch(() => undefined);
  }
}

/** the journal files of the folder, and whether it holds temps of interrupted journal writes */
async function listing(fs: FileSystem, dir: string): Promise<{ journals: string[]; temps: boolean }> {
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return { journals: [], temps: false };
    throw e;
  }
  const files = entries.filter((e) => e.kind === "file");
  return {
    journals: files.filter((e) => e.name.endsWith(JOURNAL_SUFFIX) && !e.name.startsWith(".")).map((e) => e.name).sort(),
    temps: files.some((e) => isAtomicTempName(e.name)),
  };
}

/**
 * Finishes or undoes every journal in `journalDir` (in name order) and reports each. Safe to
 * run any number of times, and after a crash inside itself. A missing folder means nothing to
 * do. The caller holds the folder's lock (see index.ts).
 */
export async function recoverJournals(fs: FileSystem, journalDir: string, options: JournalOptions = {}): Promise<readonly RecoveryOutcome[]> {
  const { journals: files, temps } = await listing(fs, journalDir);
  const outcomes: RecoveryOutcome[] = [];
  for (const file of files) {
    const id = file.slice(0, -JOURNAL_SUFFIX.length);
    const decoded = decodeJournal(new TextDecoder().decode(await fs.readFile(join(journalDir, file))));
    if (E.isLeft(decoded)) {
      const aside = await quarantine(fs, journalDir, file);
      outcomes.push({ id, kind: "unknown", outcome: "quarantined", quarantinedAs: aside, reason: `journal ${file} cannot be trusted: ${journalErrorText(decoded.left)}` });
      continue;
    }
    const journal = decoded.right;
    // a confined plan is replayed (forward or back) only into its own folder: a folder below it
    // swapped for a symlink since the crash keeps the journal aside, untouched, for its owner
    const broken = await confinementBroken(fs, journal.plan);
    if (broken !== undefined) {
      const aside = await quarantine(fs, journalDir, file);
      outcomes.push({ id, kind: journal.plan.kind, outcome: "quarantined", quarantinedAs: aside, reason: `journal ${file} was not replayed: ${broken}` });
      continue;
    }
    if (options.faults?.dropJournalBeforeReplay === true) await removeJournal(fs, journalDir, file);
    const decision = await drive(fs, journal);
    if (decision.kind === "corrupt") {
      const aside = await quarantine(fs, journalDir, file);
      outcomes.push({ id, kind: journal.plan.kind, outcome: "quarantined", quarantinedAs: aside, reason: decision.reason });
      continue;
    }
    await removeJournal(fs, journalDir, file);
    await removeDeadWriteTemps(fs, journal.plan.phases.flat(), dirname(journalDir));
    outcomes.push({ id, kind: journal.plan.kind, outcome: journal.direction === "forward" ? "rolled-forward" : "rolled-back" });
  }
  // temps of journal writes a crash interrupted; the caller's lock keeps live writers out. The
  // removal is made durable so that a second recovery finds nothing left to do.
  if (temps && (await cleanStrayTemps(fs, journalDir).catch(() => [])).length > 0) await fs.fsyncDir(journalDir);
  return outcomes;
}
