// Start-up recovery of the usage ledger store: finishes a commit that a crash interrupted and
// clears the temps of interrupted writes. The one entry point a session calls, whatever engine
// the store's commits run on.
import { hasCode } from "../../adapters/fs/FileSystem.js";
import type { LedgerContext } from "./ledger-context.js";
import { withStore } from "./ledger-store.js";

/** Recovers the store when it exists (a fresh agent dir gets no `.usage` folder from this);
 *  returns diagnostics. */
export async function recoverLedger(ctx: LedgerContext): Promise<string[]> {
  try {
    await ctx.fs.stat(ctx.paths.usageRoot);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return [];
    throw e;
  }
  return withStore(ctx, async (diagnostics) => diagnostics);
}
