// Everything the draft review runtime needs, as ports: files, locks, the clock, ids, the recipe
// folders, and where its own state lives. The state sits beside the usage ledgers under
// `<recipe root>/.usage/reviews/draft/`, not in a temp folder: nothing that ages temp files may
// ever delete a journal or a quarantined draft that recovery still needs.
import { join } from "node:path";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { nodeCrypto } from "../../adapters/node-crypto.js";
import type { Lock } from "../../adapters/lock/Lock.js";
import type { AgentPaths } from "../agent-paths.js";
import { openLedger, type LedgerContext } from "../ledger/ledger-context.js";

export interface ReviewContext {
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly paths: AgentPaths;
  readonly now: () => number;
  readonly newId: () => string;
  readonly packagedRoot?: string;
  readonly ledger: LedgerContext;
  readonly lockTimeoutMs: number;
}

export interface ReviewOptions {
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly paths: AgentPaths;
  readonly now?: () => number;
  readonly newId?: () => string;
  readonly packagedRoot?: string;
  readonly lockTimeoutMs?: number;
}

export function openReviews(o: ReviewOptions): ReviewContext {
  const now = o.now ?? Date.now;
  const lockTimeoutMs = o.lockTimeoutMs ?? 5000;
  return {
    fs: o.fs,
    lock: o.lock,
    paths: o.paths,
    now,
    newId: o.newId ?? ((): string => nodeCrypto().randomUUID()),
    ...(o.packagedRoot === undefined ? {} : { packagedRoot: o.packagedRoot }),
    ledger: openLedger({ fs: o.fs, lock: o.lock, recipeRoot: o.paths.recipeRoot, now, lockTimeoutMs }),
    lockTimeoutMs,
  };
}

export const reviewRoot = (paths: AgentPaths): string => join(paths.usageRoot, "reviews", "draft");
export const statePath = (paths: AgentPaths): string => join(reviewRoot(paths), "state.json");
/** The folder of every batch's own folder. */
export const batchesRoot = (paths: AgentPaths): string => join(reviewRoot(paths), "batches");
export const batchDir = (paths: AgentPaths, batchId: string): string => join(batchesRoot(paths), batchId);
/** The journal folder of the batch whose folder is `dir`: the plans that carry out its decisions
 *  (runtime/review/execute-batch.ts), and any that recovery set aside (runtime/usage-view.ts). */
export const journalDirOf = (dir: string): string => join(dir, "journal");

export const BATCH_FILE = "batch.json";
export const PROJECTION_FILE = "projection.json";
export const REPLY_FILE = "reply.txt";
export const EVIDENCE_FILE = "evidence.json";
export const QUARANTINE_DIR = "quarantine";

export const isoNow = (ctx: Pick<ReviewContext, "now">): string => new Date(ctx.now()).toISOString();
