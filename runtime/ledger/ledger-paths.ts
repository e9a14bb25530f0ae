// Where a recipe root's ledger lives: the paths under `<recipe root>/.usage`. Apart from the
// ledger's context so that a reader asking only "is there a ledger?" (the inspect views) does not
// load the launch log and the store.
import { join } from "node:path";

export interface LedgerPaths {
  readonly recipeRoot: string;
  readonly usageRoot: string;
  readonly index: string;
  /** the journal folder of multi-file commits and lineage moves (runtime/journal) */
  readonly journals: string;
  readonly ledgers: string;
  readonly launches: string;
  /** the fence file: empty while open, the writer's owner record while a fence writer
   *  (activation, a controlled move) is inside */
  readonly fence: string;
}

export function ledgerPaths(recipeRoot: string, usageRoot: string = join(recipeRoot, ".usage")): LedgerPaths {
  return {
    recipeRoot,
    usageRoot,
    index: join(usageRoot, "index.json"),
    journals: join(usageRoot, "journal"),
    ledgers: join(usageRoot, "recipes"),
    launches: join(usageRoot, "launches"),
    fence: join(usageRoot, "fence.json"),
  };
}
