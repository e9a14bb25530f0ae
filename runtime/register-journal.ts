// register_tool's journal: where its plans are written, and their recovery. A module of its own so
// that settling a killed command's plans (runtime/settle.ts, runtime/startup.ts) loads the journal
// engine only, not register_tool with its discovery.
import { join } from "node:path";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import type { Lock, LockOptions } from "../adapters/lock/Lock.js";
import type { AgentPaths } from "./agent-paths.js";
import type { RecoveryOutcome } from "./journal/index.js";

/** register_tool's journal folder; its lock is always taken last, inside the recipe locks */
export const registerJournalDir = (paths: AgentPaths): string => join(paths.usageRoot, "register-journal");

/** Finishes or undoes a delete a crash interrupted. Call it at start-up (runtime/startup.ts);
 *  register_tool also calls it before each change. */
export async function recoverRegisterJournals(fs: FileSystem, lock: Lock, paths: AgentPaths, options?: LockOptions): Promise<readonly RecoveryOutcome[]> {
  const dir = registerJournalDir(paths);
  // the engine is loaded here, not with the folder's name: a command that only checks the folder
  // for a journal (runtime/settle.ts) never loads it
  const { recoverJournals } = await import("./journal/index.js");
  return lock.withLock(dir, () => recoverJournals(fs, dir), options);
}
