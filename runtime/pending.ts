// Whether a killed command left a plan pending in the recipe root: a register_tool journal, a
// ledger journal, or a draft review stopped while it carried out its decisions. Settling them
// (runtime/settle.ts) asks these one at a time, in its order; a command that answers without the
// registry (host-cli/front-door.ts) asks all of them and leaves the command to the full path when
// any holds. Reads only: one folder listing per journal folder and the review's small state file.
import { JOURNAL_SUFFIX } from "../core/journal/journal-suffix.js";
import { decodeState } from "../core/review/admission.js";
import { readJsonOrUndefined, type FileSystem } from "../adapters/fs/FileSystem.js";
import type { AgentPaths } from "./agent-paths.js";
import { ledgerPaths } from "./ledger/ledger-paths.js";
import { registerJournalDir } from "./register-journal.js";
import { statePath } from "./review/review-context.js";

/** true when `dir` holds a journal; a folder that cannot be listed holds none we could settle */
async function hasJournal(fs: FileSystem, dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).some((e) => e.name.endsWith(JOURNAL_SUFFIX));
  } catch {
    return false;
  }
}

export const registerPending = (fs: FileSystem, paths: AgentPaths): Promise<boolean> => hasJournal(fs, registerJournalDir(paths));

export const ledgerPending = (fs: FileSystem, paths: AgentPaths): Promise<boolean> => hasJournal(fs, ledgerPaths(paths.recipeRoot, paths.usageRoot).journals);

/** a draft review killed while carrying out its final decisions */
export async function reviewExecuting(fs: FileSystem, paths: AgentPaths): Promise<boolean> {
  try {
    return decodeState(await readJsonOrUndefined(fs, statePath(paths)))?.phase === "executing";
  } catch {
    return false;
  }
}

/** Whether anything is left to settle (runtime/settle.ts would find work). */
export async function anythingPending(fs: FileSystem, paths: AgentPaths): Promise<boolean> {
  return (await registerPending(fs, paths)) || (await ledgerPending(fs, paths)) || (await reviewExecuting(fs, paths));
}
