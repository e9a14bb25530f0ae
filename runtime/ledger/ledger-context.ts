// Everything the ledger store needs, resolved once per process: the ports, the paths under
// `<recipe root>/.usage`, and this process's launch log.
import { nodeCrypto } from "../../adapters/node-crypto.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { Lock } from "../../adapters/lock/Lock.js";
import { nodeProcessProbe, type ProcessProbe } from "../../adapters/lock/owner.js";
import { LaunchLog } from "./launch-log.js";
import { ledgerPaths, type LedgerPaths } from "./ledger-paths.js";

export { ledgerPaths, type LedgerPaths } from "./ledger-paths.js";

export interface LedgerOptions {
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly recipeRoot: string;
  /** default `<recipeRoot>/.usage` */
  readonly usageRoot?: string;
  /** epoch ms; default Date.now */
  readonly now?: () => number;
  readonly probe?: ProcessProbe;
  /** unique part of this process's launch log names; default a random UUID prefix */
  readonly newId?: () => string;
  /** launches this process appends between two folds it runs itself; default 1000 */
  readonly foldThreshold?: number;
  /** lines after which this process starts a new launch log; default 8192 */
  readonly rotateLines?: number;
  /** wait for the fence, the store lock and draining launches; default 5000 ms */
  readonly lockTimeoutMs?: number;
}

export interface LedgerContext {
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly paths: LedgerPaths;
  readonly now: () => number;
  readonly probe: ProcessProbe;
  readonly foldThreshold: number;
  readonly rotateLines: number;
  readonly lockTimeoutMs: number;
  readonly log: LaunchLog;
}

export function openLedger(options: LedgerOptions): LedgerContext {
  const paths = ledgerPaths(options.recipeRoot, options.usageRoot);
  const probe = options.probe ?? nodeProcessProbe;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? ((): string => nodeCrypto().randomUUID().slice(0, 8));
  return {
    fs: options.fs,
    lock: options.lock,
    paths,
    now,
    probe,
    foldThreshold: options.foldThreshold ?? 1000,
    rotateLines: options.rotateLines ?? 8192,
    lockTimeoutMs: options.lockTimeoutMs ?? 5000,
    log: new LaunchLog(options.fs, paths.launches, probe, now, newId),
  };
}

export { sha256Bytes } from "../crypto-sha256.js";

export const isoAt = (ms: number): string => new Date(ms).toISOString();

/** Releases this process's launch log handle. */
export const closeLedger = (ctx: LedgerContext): Promise<void> => ctx.log.close();
