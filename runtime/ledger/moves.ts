// Controlled lineage moves: rename, promotion (drafts → root), demotion (root → drafts). Each
// runs inside the fence, so no launch is half-counted against the old path while the file and
// its lineage move; pending launches are folded first, so they land on the old lineage.
import { moveLineage } from "../../core/ledger/move.js";
import { lineageName, pathKey } from "../../core/ledger/keys.js";
import { moveType, type MoveType } from "../../core/ledger/transitions.js";
import { isoAt, type LedgerContext } from "./context.js";
import { withRootFence } from "./fence.js";
import { foldLocked } from "./fold.js";
import { commit, readIndex, readLedgers, withStore } from "./store.js";

export interface MoveInput {
  /** absolute path the recipe had */
  readonly from: string;
  /** absolute path it has after the move */
  readonly to: string;
  /** the file operation itself (rename, copy, write), run inside the fence before the lineage
   *  moves; its errors propagate and the lineage stays */
  readonly mutate?: () => Promise<void>;
}

export type MoveResult =
  | { readonly ok: true; readonly diagnostics: readonly string[] }
  | { readonly ok: false; readonly diagnostic: string; readonly diagnostics: readonly string[] };

class MutateFailed {
  constructor(readonly cause: unknown) {}
}

async function move(ctx: LedgerContext, input: MoveInput, type: MoveType | undefined): Promise<MoveResult> {
  const fromKey = pathKey(ctx.paths.recipeRoot, input.from);
  const toKey = pathKey(ctx.paths.recipeRoot, input.to);
  try {
    return await withRootFence(ctx, async () => {
      if (input.mutate !== undefined) await input.mutate().catch((e: unknown) => Promise.reject(new MutateFailed(e)));
      if (fromKey === undefined || toKey === undefined)
        return { ok: false, diagnostic: `Usage lineage not moved: ${fromKey === undefined ? input.from : input.to} is outside the recipe root`, diagnostics: [] };
      return withStore(ctx, async (recovered) => {
        const diagnostics = [...recovered, ...(await foldLocked(ctx))];
        const { index } = await readIndex(ctx);
        const ledgers = await readLedgers(ctx, [fromKey, toKey].flatMap((k) => (index.paths[k] === undefined ? [] : [index.paths[k]!.ledger])));
        const at = isoAt(ctx.now());
        const kind = type ?? moveType(fromKey, toKey, lineageName(fromKey), lineageName(toKey));
        const outcome = moveLineage({ index, ledgers, missing: new Set() }, { fromKey, toKey, type: kind, at });
        if (outcome.kind === "refused") return { ok: false, diagnostic: `Usage lineage not moved: ${outcome.reason}`, diagnostics };
        if (outcome.kind === "moved") await commit(ctx, outcome.plan);
        return { ok: true, diagnostics };
      });
    });
  } catch (e) {
    if (e instanceof MutateFailed) throw e.cause;
    return { ok: false, diagnostic: `Usage lineage not moved from ${input.from} to ${input.to}: ${e instanceof Error ? e.message : String(e)}`, diagnostics: [] };
  }
}

/** A controlled rename (or move within the root): history and counts follow, the former name stays. */
export const renameLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, undefined);

/** A draft became a tool (drafts/x → x). */
export const promoteLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, "promoted");

/** A tool went back to the drafts (x → drafts/x). */
export const demoteLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, "demoted");
