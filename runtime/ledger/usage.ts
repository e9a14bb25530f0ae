// Ledger usage for the inspect views: fold what is pending, read the ledgers of the entries, and
// answer `usage(entry)` synchronously as core/views/summary.ts asks.
import { join } from "node:path";
import type { JsonObject } from "../../core/model.js";
import type { RecipeEntry } from "../../core/discovery/discovery-result.js";
import type { LedgerRecord } from "../../core/ledger/codec.js";
import { pathKey } from "../../core/ledger/keys.js";
import { usageSummary } from "../../core/ledger/usage-summary.js";
import type { LedgerContext } from "./ledger-context.js";
import { foldLocked } from "./fold-logs.js";
import { isKeptAside, listDir, readIndex, readLedgers, withStore } from "./ledger-store.js";

export interface UsageLookup {
  /** `{lifetime_calls, calls, revision_calls, last_launch_at}` for a user-root entry (zeros
   *  before its first launch); undefined for packaged components and ad hoc files */
  readonly usageFor: (entry: RecipeEntry) => JsonObject | undefined;
  /** the full ledger of an entry, when it has one */
  readonly ledgerFor: (entry: RecipeEntry) => LedgerRecord | undefined;
  readonly diagnostics: readonly string[];
  /** set when the ledgers could not be read at all (the lookup then knows no ledger) */
  readonly unreadable?: string;
}

export async function loadUsage(ctx: LedgerContext, entries: readonly RecipeEntry[]): Promise<UsageLookup> {
  const root = ctx.paths.recipeRoot;
  const keyOf = (entry: RecipeEntry): string | undefined => (entry.mutableUsage ? pathKey(root, entry.path) : undefined);
  const diagnostics: string[] = [];
  let byKey = new Map<string, LedgerRecord>();
  let unreadable: string | undefined;
  try {
    byKey = await withStore(ctx, async (recovered) => {
      diagnostics.push(...recovered, ...(await foldLocked(ctx)));
      // a ledger set aside because it did not read (ledger-store.ts commitSteps) is named in every
      // view until someone restores or removes it
      for (const name of await listDir(ctx, ctx.paths.ledgers)) {
        if (isKeptAside(name)) diagnostics.push(`Usage ledger ${join(ctx.paths.ledgers, name)} is kept aside: it did not read as a ledger, and its recipe's lineage started again; restore its counts by hand, then delete it.`);
      }
      const { index } = await readIndex(ctx);
      const keys = entries.flatMap((e) => keyOf(e) ?? []);
      const ledgers = await readLedgers(ctx, keys.flatMap((k) => index.paths[k]?.ledger ?? []));
      const out = new Map<string, LedgerRecord>();
      for (const k of keys) {
        const record = ledgers.get(index.paths[k]?.ledger ?? "");
        if (record !== undefined) out.set(k, record);
      }
      return out;
    });
  } catch (e) {
    unreadable = `Usage ledgers could not be read: ${e instanceof Error ? e.message : String(e)}`;
    diagnostics.push(unreadable);
  }
  const ledgerFor = (entry: RecipeEntry): LedgerRecord | undefined => {
    const key = keyOf(entry);
    return key === undefined ? undefined : byKey.get(key);
  };
  return {
    usageFor: (entry) => (keyOf(entry) === undefined ? undefined : usageSummary(ledgerFor(entry))),
    ledgerFor,
    diagnostics,
    ...(unreadable === undefined ? {} : { unreadable }),
  };
}
