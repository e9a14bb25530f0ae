// Folding the launch logs into the ledgers, under the store lock: read every log, apply what the
// index has not applied yet, commit, then delete the logs nobody will append to again (closed,
// or their owner is provably dead) — only after the commit, so their records are never lost.
import { join } from "node:path";
import { hasCode } from "../../adapters/fs/FileSystem.js";
import { isOwnerProvablyDead } from "../../adapters/lock/owner.js";
import { foldLaunches, relocationCandidates, type LaunchEntry } from "../../core/ledger/fold.js";
import type { LedgerIndex } from "../../core/ledger/codec.js";
import type { LedgerContext } from "./ledger-context.js";
import { LOG_SUFFIX, parseLog, type ParsedLog } from "./launch-log.js";
import { commit, listDir, readIndex, readLedgers, withStore } from "./ledger-store.js";

const decoder = new TextDecoder();

async function readLog(ctx: LedgerContext, name: string): Promise<ParsedLog | undefined> {
  try {
    return parseLog(name.slice(0, -LOG_SUFFIX.length), decoder.decode(await ctx.fs.readFile(join(ctx.paths.launches, name))));
  } catch (e) {
    if (hasCode(e, "ENOENT")) return undefined;
    throw e;
  }
}

interface LogsRead {
  readonly logs: readonly ParsedLog[];
  /** logs no one appends to any more: closed, or their owner is provably dead */
  readonly finished: ReadonlySet<string>;
}

async function readLogs(ctx: LedgerContext): Promise<LogsRead> {
  const logs: ParsedLog[] = [];
  const finished = new Set<string>();
  for (const name of await listDir(ctx, ctx.paths.launches)) {
    if (!name.endsWith(LOG_SUFFIX)) continue;
    let log = await readLog(ctx, name);
    if (log === undefined) continue;
    const own = log.id === ctx.log.id;
    if (!own && !log.closed && log.owner !== undefined && isOwnerProvablyDead(log.owner, ctx.probe)) {
      // dead before this second read, so nothing can follow what it returns
      log = (await readLog(ctx, name)) ?? log;
      finished.add(log.id);
    } else if (log.closed) finished.add(log.id);
    logs.push(log);
  }
  return { logs, finished };
}

/** Keys whose recipe file is gone, among `keys`. */
export async function missingKeys(ctx: LedgerContext, keys: readonly string[]): Promise<Set<string>> {
  const missing = new Set<string>();
  for (const key of keys) {
    try {
      await ctx.fs.stat(join(ctx.paths.recipeRoot, key));
    } catch (e) {
      if (hasCode(e, "ENOENT", "ENOTDIR")) missing.add(key);
      else throw e;
    }
  }
  return missing;
}

/** Ledger ids the plan may touch: those of the given keys and of the candidates. */
export const idsOf = (index: LedgerIndex, keys: Iterable<string>): string[] =>
  [...keys].flatMap((k) => {
    const id = index.paths[k]?.ledger;
    return id === undefined ? [] : [id];
  });

/** The fold itself; the caller holds the store lock (see withStore). */
export async function foldLocked(ctx: LedgerContext): Promise<string[]> {
  const { logs, finished } = await readLogs(ctx);
  const read = await readIndex(ctx);
  const diagnostics = [...read.diagnostics];
  let index = read.index;
  if (read.rebuilt) {
    // the watermarks were lost with the index: counting nothing beats counting twice
    const applied: Record<string, number> = {};
    for (const log of logs) applied[log.id] = Math.max(0, ...log.launches.map((l) => l.seq));
    index = { ...index, applied };
  }
  // only what the index has not applied: the ledgers read below are those of these launches
  const entries: LaunchEntry[] = logs.flatMap((l) => l.launches).filter((e) => e.seq > (index.applied[e.log] ?? 0));
  const wanted = entries.map((e) => ({ key: e.key, fingerprint: e.fingerprint }));
  const launched = [...new Set(entries.map((e) => e.key))];
  // a launched key can itself become a former path within this fold (launched, then moved)
  const candidates = relocationCandidates({ index }, wanted);
  const missing = await missingKeys(ctx, [...new Set([...candidates, ...launched])]);
  // the candidates' ledgers, present or not: a shadowed other format's lineage may be followed
  const ledgers = await readLedgers(ctx, idsOf(index, [...launched, ...candidates, ...missing]));
  // with nothing new, the plan still drops the watermarks of logs that are gone; an unchanged plan
  // writes nothing
  const plan = foldLaunches({ index, ledgers, missing }, entries, new Set(logs.map((l) => l.id)));
  diagnostics.push(...plan.diagnostics);
  diagnostics.push(...(await commit(ctx, read.rebuilt ? { ...plan, changed: true } : plan)));
  for (const id of finished) await ctx.fs.rm(join(ctx.paths.launches, `${id}${LOG_SUFFIX}`), { force: true });
  // durable before a later commit drops their watermarks from the index: a log that came back
  // after a power failure, without its watermark, would be counted again
  if (finished.size > 0) await ctx.fs.fsyncDir(ctx.paths.launches);
  // the count that triggers this process's next fold starts again (a launch counted while this
  // fold ran, after its log was read, is folded by a later one)
  ctx.log.sinceFold = 0;
  return diagnostics;
}

/** Folds every pending launch into the ledgers now. */
export const foldPending = (ctx: LedgerContext): Promise<string[]> =>
  withStore(ctx, async (recovered) => [...recovered, ...(await foldLocked(ctx))]);
