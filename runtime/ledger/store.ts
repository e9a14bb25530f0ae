// Reading and committing the ledger store under its lock. A commit that touches more than the
// index first writes a redo journal with the complete new contents, then the ledgers, then the
// index, then the deletions; whoever takes the lock next replays a journal it finds. So a crash
// at any point leaves the old store or (after the replay) the new one: never an index entry
// without its ledger, never a ledger without its index entry.
import { join } from "node:path";
import { isLeft } from "fp-ts/lib/Either.js";
import { cleanStrayTemps, hasCode, readJson, writeFileAtomic } from "../../adapters/fs/FileSystem.js";
import { EMPTY_INDEX, LedgerIndex, LedgerJournal, LedgerRecord } from "../../core/ledger/codec.js";
import { ledgerFileName } from "../../core/ledger/keys.js";
import type { LedgerPlan } from "../../core/ledger/working.js";
import type { LedgerContext } from "./context.js";

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const ledgerPath = (ctx: LedgerContext, id: string): string => join(ctx.paths.ledgers, ledgerFileName(id));

async function readOptionalJson(ctx: LedgerContext, path: string): Promise<unknown> {
  try {
    return await readJson(ctx.fs, path);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
    if (hasCode(e, "EINVAL", "EILSEQ")) return null;
    throw e;
  }
}

export interface IndexRead {
  readonly index: LedgerIndex;
  /** the index file was unreadable and was rebuilt from the ledgers */
  readonly rebuilt: boolean;
  readonly diagnostics: readonly string[];
}

/** The index; absent means empty; an unreadable one is rebuilt from the ledgers' own paths. */
export async function readIndex(ctx: LedgerContext): Promise<IndexRead> {
  const raw = await readOptionalJson(ctx, ctx.paths.index);
  if (raw === undefined) return { index: EMPTY_INDEX, rebuilt: false, diagnostics: [] };
  const decoded = LedgerIndex.decode(raw);
  if (!isLeft(decoded)) return { index: decoded.right, rebuilt: false, diagnostics: [] };
  const paths: Record<string, { ledger: string; fingerprint: string }> = {};
  for (const entry of await listDir(ctx, ctx.paths.ledgers)) {
    if (!entry.endsWith(".json") || entry.startsWith(".")) continue;
    const id = decodeURIComponent(entry.slice(0, -5));
    const record = await readLedger(ctx, id);
    if (record !== undefined) paths[record.current_path] = { ledger: id, fingerprint: record.fingerprint };
  }
  return {
    index: { paths, applied: {} },
    rebuilt: true,
    diagnostics: [`Usage index ${ctx.paths.index} was unreadable and was rebuilt from the ledgers; launches not yet folded are not counted.`],
  };
}

/** A ledger; undefined when absent or not a ledger record. */
export async function readLedger(ctx: LedgerContext, id: string): Promise<LedgerRecord | undefined> {
  const raw = await readOptionalJson(ctx, ledgerPath(ctx, id));
  if (raw === undefined || raw === null) return undefined;
  const decoded = LedgerRecord.decode(raw);
  return isLeft(decoded) ? undefined : decoded.right;
}

export async function readLedgers(ctx: LedgerContext, ids: Iterable<string>): Promise<Map<string, LedgerRecord>> {
  const out = new Map<string, LedgerRecord>();
  for (const id of new Set(ids)) {
    const record = await readLedger(ctx, id);
    if (record !== undefined) out.set(id, record);
  }
  return out;
}

export async function listDir(ctx: LedgerContext, dir: string): Promise<string[]> {
  try {
    return (await ctx.fs.readdir(dir)).filter((e) => e.kind === "file").map((e) => e.name);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return [];
    throw e;
  }
}

const WRITE_CONCURRENCY = 32;

async function inParallel<A>(items: readonly A[], limit: number, run: (item: A) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function apply(ctx: LedgerContext, journal: LedgerJournal): Promise<void> {
  if (journal.writes.length > 0) await ctx.fs.mkdir(ctx.paths.ledgers, { recursive: true });
  // independent files: their fsyncs overlap (the journal already makes the whole commit redoable)
  await inParallel(journal.writes, WRITE_CONCURRENCY, (w) => writeFileAtomic(ctx.fs, ledgerPath(ctx, w.ledger), pretty(w.record)));
  await writeFileAtomic(ctx.fs, ctx.paths.index, pretty(journal.index));
  for (const id of journal.deletes) await ctx.fs.rm(ledgerPath(ctx, id), { force: true });
}

/** Writes a plan: the index alone in one atomic write, anything more through the journal. */
export async function commit(ctx: LedgerContext, plan: LedgerPlan): Promise<void> {
  if (!plan.changed) return;
  await ctx.fs.mkdir(ctx.paths.usageRoot, { recursive: true });
  const journal: LedgerJournal = {
    writes: [...plan.writes].map(([ledger, record]) => ({ ledger, record })).sort((a, b) => (a.ledger < b.ledger ? -1 : 1)),
    deletes: [...plan.deletes],
    index: plan.index,
  };
  if (journal.writes.length === 0 && journal.deletes.length === 0) {
    await writeFileAtomic(ctx.fs, ctx.paths.index, pretty(journal.index));
    return;
  }
  await writeFileAtomic(ctx.fs, ctx.paths.journal, pretty(journal));
  await apply(ctx, journal);
  await ctx.fs.rm(ctx.paths.journal, { force: true });
}

/** Finishes a commit a crash interrupted and clears the temps of interrupted writes. Returns
 *  diagnostics; call it with the store lock held. */
export async function recover(ctx: LedgerContext): Promise<string[]> {
  const raw = await readOptionalJson(ctx, ctx.paths.journal);
  if (raw === undefined) {
    await cleanStrayTemps(ctx.fs, ctx.paths.usageRoot).catch(() => undefined);
    return [];
  }
  const decoded = LedgerJournal.decode(raw);
  const diagnostics: string[] = [];
  if (isLeft(decoded)) diagnostics.push(`Usage journal ${ctx.paths.journal} was unreadable and was discarded.`);
  else await apply(ctx, decoded.right);
  await ctx.fs.rm(ctx.paths.journal, { force: true });
  await cleanStrayTemps(ctx.fs, ctx.paths.usageRoot).catch(() => undefined);
  await cleanStrayTemps(ctx.fs, ctx.paths.ledgers).catch(() => undefined);
  return diagnostics;
}

/** Runs `fn` with the store lock held, after recovery. `timeoutMs` 0 tries the lock once. */
export async function withStore<A>(ctx: LedgerContext, fn: (diagnostics: string[]) => Promise<A>, timeoutMs: number = ctx.lockTimeoutMs): Promise<A> {
  return ctx.lock.withLock(
    ctx.paths.index,
    async () => {
      const diagnostics = await recover(ctx);
      return fn(diagnostics);
    },
    { timeoutMs },
  );
}
