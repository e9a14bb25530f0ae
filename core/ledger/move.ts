// Controlled moves of a lineage (rename, promotion, demotion): the history goes to the new path
// and name, and the former ones are kept. Repeating a completed move is a no-op.
import { lineageName } from "./keys.js";
import type { MoveType } from "./transitions.js";
import { Working, type LedgerPlan, type LedgerSnapshot } from "./working.js";

export interface MoveRequest {
  readonly fromKey: string;
  readonly toKey: string;
  readonly type: MoveType;
  readonly at: string;
}

export type MoveOutcome =
  | { readonly kind: "moved"; readonly plan: LedgerPlan }
  | { readonly kind: "done" }
  | { readonly kind: "refused"; readonly reason: string };

export function moveLineage(snapshot: LedgerSnapshot, request: MoveRequest): MoveOutcome {
  const { fromKey, toKey, type, at } = request;
  const w = new Working(snapshot);
  const target = w.lookup(toKey);
  if (w.lookup(fromKey) === undefined) {
    if (target !== undefined && target.record.lineage_name === lineageName(toKey)) return { kind: "done" };
    return { kind: "refused", reason: `${fromKey} has no usage lineage to move` };
  }
  if (fromKey === toKey) return { kind: "done" };
  if (target !== undefined) return { kind: "refused", reason: `${toKey} already has its own usage lineage (${target.record.lineage_name})` };
  w.relocate(fromKey, toKey, lineageName(toKey), at, type);
  return { kind: "moved", plan: w.plan() };
}
