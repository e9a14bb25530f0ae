// Controlled lineage moves: rename, promotion (drafts → root), demotion (root → drafts). Each
// runs inside the fence, so no launch is half-counted against the old path while the file and
// its lineage move; pending launches are folded first, so they land on the old lineage. The
// recipe file's rename and the ledger commit are one journal plan: after a crash both have
// moved or neither has.
import { moveLineage } from "../../core/ledger/move.js";
import { lineageName, pathKey } from "../../core/ledger/keys.js";
import { moveType, type MoveType } from "../../core/ledger/transitions.js";
import type { StepInput } from "../../core/journal/plan.js";
import { isoAt, type LedgerContext } from "./ledger-context.js";
import { withRootFence } from "./fence.js";
import { foldLocked } from "./fold-logs.js";
import { currentBytes, currentState, newPlanId, runSteps } from "../journal/index.js";
import { commitSteps, readIndex, readLedgers, withStore } from "./ledger-store.js";

export interface MoveInput {
  /** absolute path the recipe had */
  readonly from: string;
  /** absolute path it has after the move */
  readonly to: string;
  /** rename the recipe file too, in the same plan as its lineage (default true). A missing
   *  source with the target in place counts as already moved. `false`: the file was moved by
   *  other means and only the lineage follows. */
  readonly moveFile?: boolean;
  /** instead of renaming `from`, write this content at `to` (a promotion that keeps its draft):
   *  the new file and the lineage move are then one plan */
  readonly writeTarget?: string;
}

export type MoveResult =
  | { readonly ok: true; readonly diagnostics: readonly string[] }
  | { readonly ok: false; readonly diagnostic: string; readonly diagnostics: readonly string[] };

/** the file part of the plan: nothing when the file is already where it goes */
async function fileSteps(ctx: LedgerContext, input: MoveInput): Promise<StepInput[] | string> {
  if (input.writeTarget !== undefined) return [{ op: "write", path: input.to, before: await currentBytes(ctx.fs, input.to), content: input.writeTarget }];
  if (input.moveFile === false) return [];
  const source = await currentState(ctx.fs, input.from);
  const target = await currentState(ctx.fs, input.to);
  if (source === null) return target === null ? `${input.from} does not exist` : [];
  if (target !== null) return `${input.to} already exists`;
  return [{ op: "rename", from: input.from, to: input.to, before: source, replaced: null }];
}

async function move(ctx: LedgerContext, input: MoveInput, type: MoveType | undefined): Promise<MoveResult> {
  const fromKey = pathKey(ctx.paths.recipeRoot, input.from);
  const toKey = pathKey(ctx.paths.recipeRoot, input.to);
  if (fromKey === undefined || toKey === undefined)
    return { ok: false, diagnostic: `Usage lineage not moved: ${fromKey === undefined ? input.from : input.to} is outside the recipe root`, diagnostics: [] };
  try {
    return await withRootFence(ctx, () =>
      withStore(ctx, async (recovered) => {
        const diagnostics = [...recovered, ...(await foldLocked(ctx))];
        const { index } = await readIndex(ctx);
        const ledgers = await readLedgers(ctx, [fromKey, toKey].flatMap((k) => (index.paths[k] === undefined ? [] : [index.paths[k]!.ledger])));
        const kind = type ?? moveType(fromKey, toKey, lineageName(fromKey), lineageName(toKey));
        const outcome = moveLineage({ index, ledgers, missing: new Set() }, { fromKey, toKey, type: kind, at: isoAt(ctx.now()) });
        if (outcome.kind === "refused") return { ok: false, diagnostic: `Usage lineage not moved: ${outcome.reason}`, diagnostics };
        const file = await fileSteps(ctx, input);
        if (typeof file === "string") return { ok: false, diagnostic: `Recipe not moved: ${file}`, diagnostics };
        const [writes = [], ...rest] = outcome.kind === "moved" ? await commitSteps(ctx, outcome.plan, diagnostics) : [];
        const phases = [[...file, ...writes], ...rest];
        if (phases.some((p) => p.length > 0)) await runSteps(ctx.fs, ctx.paths.journals, { id: newPlanId(ctx.now()), kind: `lineage-${kind}`, phases });
        return { ok: true, diagnostics };
      }),
    );
  } catch (e) {
    return { ok: false, diagnostic: `Usage lineage not moved from ${input.from} to ${input.to}: ${e instanceof Error ? e.message : String(e)}`, diagnostics: [] };
  }
}

/** A controlled rename (or move within the root): history and counts follow, the former name stays. */
export const renameLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, undefined);

/** A draft became a tool (drafts/x → x). */
export const promoteLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, "promoted");

/** A tool went back to the drafts (x → drafts/x). */
export const demoteLineage = (ctx: LedgerContext, input: MoveInput): Promise<MoveResult> => move(ctx, input, "demoted");
