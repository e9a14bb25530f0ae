// Review epochs on a lineage (the tool review records one per reviewed revision).
import { pathKey } from "../../core/ledger/keys.js";
import { reviewed } from "../../core/ledger/transitions.js";
import { Working } from "../../core/ledger/working.js";
import { isoAt, type LedgerContext } from "./ledger-context.js";
import { foldLocked } from "./fold-logs.js";
import { commit, readIndex, readLedgers, withStore } from "./ledger-store.js";

/** Adds `epoch` to the lineage of `path`; false when the path has no lineage or the epoch is empty. */
export async function recordReview(ctx: LedgerContext, path: string, epoch: string): Promise<boolean> {
  const key = pathKey(ctx.paths.recipeRoot, path);
  if (key === undefined || epoch === "") return false;
  return withStore(ctx, async () => {
    await foldLocked(ctx);
    const { index } = await readIndex(ctx);
    const id = index.paths[key]?.ledger;
    const ledgers = await readLedgers(ctx, id === undefined ? [] : [id]);
    const w = new Working({ index, ledgers, missing: new Set() });
    const own = w.lookup(key);
    if (own === undefined) return false;
    w.put(key, own.id, reviewed(own.record, epoch, isoAt(ctx.now())));
    await commit(ctx, w.plan());
    return true;
  });
}
