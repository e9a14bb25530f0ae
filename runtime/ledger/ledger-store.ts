// Reading and committing the ledger store under its lock. A commit that touches more than the
// index is one journal plan (docs/journal.md): the ledgers, then the index, then the deletions;
// whoever takes the lock next recovers a journal it finds. So a crash at any point leaves the old
// store or (after recovery) the new one: never an index entry without its ledger, never a ledger
// without its index entry.
import { dirname, join } from "node:path";
import { isLeft } from "fp-ts/lib/Either.js";
import { cleanStrayTemps, hasCode, readJson, writeFileAtomic } from "../../adapters/fs/FileSystem.js";
import type { StepInput } from "../../core/journal/plan.js";
import { EMPTY_INDEX, LedgerIndex, LedgerRecord } from "../../core/ledger/codec.js";
import { ledgerFileName } from "../../core/ledger/keys.js";
import type { LedgerPlan } from "../../core/ledger/working.js";
import { recoverJournals } from "../journal/index.js";
import { currentState, newPlanId, runSteps } from "../journal/steps.js";
import { setAsideNote } from "../../core/journal/journal-suffix.js";
import type { LedgerContext } from "./ledger-context.js";

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

/** A name in the ledgers folder that is a ledger kept aside (asideName). */
export const isKeptAside = (name: string): boolean => /\.unreadable(-\d+)?$/.test(name);

/** The name beside `path` an unreadable ledger is kept under: `<file>.unreadable`, then `-2`, ...
 *  (not a ledger's name, so no listing takes it for one). */
async function asideName(ctx: LedgerContext, path: string): Promise<string> {
  for (let n = 1; ; n++) {
    const aside = n === 1 ? `${path}.unreadable` : `${path}.unreadable-${n}`;
    try {
      await ctx.fs.lstat(aside);
    } catch (e) {
      if (hasCode(e, "ENOENT")) return aside;
      throw e;
    }
  }
}

/** A file at `path` now that is not a ledger record (not JSON, or not of the ledger's shape). */
async function unreadableLedger(ctx: LedgerContext, path: string): Promise<boolean> {
  const raw = await readOptionalJson(ctx, path);
  return raw === null || (raw !== undefined && isLeft(LedgerRecord.decode(raw)));
}

/**
 * The steps that turn the store into the plan's: ledgers (phase 1), the index (phase 2), the
 * deletions (phase 3). `extra` steps (a recipe file moving with its lineage) join phase 1.
 * Before states are read now; the caller holds the store lock.
 *
 * A ledger file the plan would overwrite or delete that does not read as a ledger (a hand edit
 * gone wrong, a file cut short) is first renamed aside, never lost: its recipe's lineage starts
 * again (the plan was made without it), and `notes` gets a line naming both files.
 */
export async function commitSteps(ctx: LedgerContext, plan: LedgerPlan, notes: string[] = []): Promise<StepInput[][]> {
  const touched = [...plan.writes.keys(), ...plan.deletes].map((id) => ledgerPath(ctx, id));
  let setAside = false;
  for (const path of new Set(touched)) {
    if (!(await unreadableLedger(ctx, path))) continue;
    const aside = await asideName(ctx, path);
    await ctx.fs.rename(path, aside);
    setAside = true;
    notes.push(`Usage ledger ${path} did not read as a ledger; it is kept as ${aside}, and its lineage starts again (restore it from there by hand).`);
  }
  if (setAside) await ctx.fs.fsyncDir(ctx.paths.ledgers);
  const writes: StepInput[] = [];
  for (const [id, record] of [...plan.writes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = ledgerPath(ctx, id);
    writes.push({ op: "write", path, before: await currentState(ctx.fs, path), content: pretty(record) });
  }
  const index: StepInput = { op: "write", path: ctx.paths.index, before: await currentState(ctx.fs, ctx.paths.index), content: pretty(plan.index) };
  const deletes: StepInput[] = [];
  for (const id of plan.deletes) {
    const before = await currentState(ctx.fs, ledgerPath(ctx, id));
    if (before !== null) deletes.push({ op: "unlink", path: ledgerPath(ctx, id), before });
  }
  return [writes, [index], deletes];
}

/** Writes a plan: the index alone in one atomic write, anything more as one journal plan.
 *  Returns notes on ledgers set aside (see commitSteps). */
export async function commit(ctx: LedgerContext, plan: LedgerPlan): Promise<string[]> {
  if (!plan.changed) return [];
  await ctx.fs.mkdir(ctx.paths.usageRoot, { recursive: true });
  // `.usage` may have been made (by the first launch log) without its name ever being synced; a
  // commit in it is durable only once that name is, or a power failure takes the whole store
  await ctx.fs.fsyncDir(dirname(ctx.paths.usageRoot));
  if (plan.writes.size === 0 && plan.deletes.length === 0) {
    await writeFileAtomic(ctx.fs, ctx.paths.index, pretty(plan.index));
    return [];
  }
  const notes: string[] = [];
  await runSteps(ctx.fs, ctx.paths.journals, { id: newPlanId(ctx.now()), kind: "ledger-commit", phases: await commitSteps(ctx, plan, notes) });
  return notes;
}

/** Finishes a commit a crash interrupted and clears the temps of interrupted writes. Returns
 *  diagnostics; call it with the store lock held. */
export async function recover(ctx: LedgerContext): Promise<string[]> {
  const diagnostics: string[] = [];
  for (const outcome of await recoverJournals(ctx.fs, ctx.paths.journals)) {
    if (outcome.outcome === "quarantined") diagnostics.push(setAsideNote("Usage", outcome));
  }
  for (const dir of [ctx.paths.usageRoot, ctx.paths.ledgers]) {
    if ((await cleanStrayTemps(ctx.fs, dir).catch(() => [])).length > 0) await ctx.fs.fsyncDir(dir);
  }
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
