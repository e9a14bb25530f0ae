// What an approved portfolio plan does to the lineages, as a ledger plan the runtime commits in
// the same journal plan as the recipe files (so no lineage is ever split from its recipe):
// - keep: the review epoch and the current fingerprint are recorded (the tool waits for a
//   content revision before it is reviewed again);
// - evolve: the lineage follows the rename (former name and path kept), then as keep;
// - demote: the lineage follows the tool into the drafts and is marked demoted (the draft review
//   leaves it alone until its content changes);
// - merge: the survivor's lineage carries the members' usage (lifetime, calls, revision calls)
//   and their names and paths as former ones; the members' own lineages end.
// Lifetime usage is never lost: every source's lifetime calls end up in exactly one lineage.
import * as E from "fp-ts/lib/Either.js";
import type { LedgerRecord } from "../ledger/codec.js";
import { appendBounded, appendCapped, LEDGER_LIMITS as L } from "../ledger/bounds.js";
import { reviewed } from "../ledger/transitions.js";
import { Working, type LedgerPlan, type LedgerSnapshot } from "../ledger/working.js";
import type { ApprovalPlan, PlanSource } from "./portfolio-decide.js";

export interface LineageRoots {
  /** the path key of an absolute path under the recipe root */
  readonly keyOf: (path: string) => string | undefined;
}

export interface LineageOutcome {
  readonly plan: LedgerPlan;
  /** the lineage record each surviving tool ends with, by its final path key */
  readonly survivors: ReadonlyMap<string, { readonly id: string; readonly record: LedgerRecord; readonly source: PlanSource }>;
}

const union = (a: readonly string[], b: readonly string[], limit: number): string[] => {
  let out = [...a];
  for (const x of b) if (!out.includes(x)) out = appendBounded(out, x, limit);
  return out;
};

/** Why an approval plan cannot be carried out on the lineages (the plan names something the
 * ledgers or the recipe root do not have). */
export type LineageError =
  | { readonly _tag: "MissingSource"; readonly name: string }
  | { readonly _tag: "InvalidTarget"; readonly name: string }
  | { readonly _tag: "InvalidMergeGroup"; readonly lineage: string };

export function lineageErrorText(e: LineageError): string {
  switch (e._tag) {
    case "MissingSource":
      return `Missing tool review lineage source: ${e.name}`;
    case "InvalidTarget":
      return `Invalid tool review target: ${e.name}`;
    case "InvalidMergeGroup":
      return `Invalid merge lineage group: ${e.lineage}`;
  }
}

export function portfolioLineage(snapshot: LedgerSnapshot, plan: ApprovalPlan, roots: LineageRoots, at: string): E.Either<LineageError, LineageOutcome> {
  const w = new Working(snapshot);
  const keys = new Map<PlanSource, string>();
  for (const s of plan.sources) {
    const key = roots.keyOf(s.path);
    if (key === undefined || w.lookup(key) === undefined) return E.left({ _tag: "MissingSource", name: s.name });
    keys.set(s, key);
  }
  const survivors = new Map<string, { id: string; record: LedgerRecord; source: PlanSource }>();
  const finish = (key: string, id: string, record: LedgerRecord, source: PlanSource): void => {
    const done = reviewed(record, plan.reviewId, at);
    w.put(key, id, done);
    survivors.set(key, { id, record: done, source });
  };
  for (const s of plan.sources) {
    if (s.action === "merge") continue;
    const key = keys.get(s)!;
    if (s.move === "none") {
      const own = w.lookup(key)!;
      finish(key, own.id, own.record, s);
      continue;
    }
    const toKey = s.to === undefined ? undefined : roots.keyOf(s.to);
    if (toKey === undefined) return E.left({ _tag: "InvalidTarget", name: s.name });
    const moved = w.relocate(key, toKey, s.lineage, at, s.action === "demote" ? "demoted" : "renamed");
    const record =
      s.action === "demote"
        ? { ...moved.record, demoted_at: at, demoted_fingerprint: moved.record.fingerprint, demoted_from_revision: moved.record.revision, demoted_review_epoch: plan.reviewId }
        : moved.record;
    finish(toKey, moved.id, record as LedgerRecord, s);
  }
  // merges: one group per survivor lineage name, members in plan order
  const groups = new Map<string, PlanSource[]>();
  for (const s of plan.sources) if (s.action === "merge") groups.set(s.lineage, [...(groups.get(s.lineage) ?? []), s]);
  for (const [name, members] of groups) {
    const survivor = members.find((m) => m.move !== "quarantine");
    if (survivor === undefined || members.length < 2) return E.left({ _tag: "InvalidMergeGroup", lineage: name });
    const records = members.map((m) => w.lookup(keys.get(m)!)!.record);
    let target: { id: string; record: LedgerRecord; key: string };
    if (survivor.move === "rename") {
      const toKey = survivor.to === undefined ? undefined : roots.keyOf(survivor.to);
      if (toKey === undefined) return E.left({ _tag: "InvalidTarget", name: survivor.name });
      const moved = w.relocate(keys.get(survivor)!, toKey, name, at, "renamed");
      target = { ...moved, key: toKey };
    } else {
      const own = w.lookup(keys.get(survivor)!)!;
      target = { ...own, key: keys.get(survivor)! };
    }
    const others = members.filter((m) => m !== survivor);
    const otherRecords = others.map((m) => records[members.indexOf(m)]!);
    const sum = (f: (r: LedgerRecord) => number): number => otherRecords.reduce((n, r) => n + f(r), 0);
    const carried: LedgerRecord = {
      ...target.record,
      lifetime_calls: target.record.lifetime_calls + sum((r) => r.lifetime_calls),
      calls: target.record.calls + sum((r) => r.calls),
      revision_calls: target.record.revision_calls + sum((r) => r.revision_calls),
      former_names: union(target.record.former_names, otherRecords.flatMap((r) => [...r.former_names, r.lineage_name]).filter((n) => n !== name), L.formerNames),
      former_paths: union(target.record.former_paths, otherRecords.flatMap((r) => [...r.former_paths, r.current_path]), L.formerPaths),
      events: appendCapped(target.record.events, { at, type: "merged", from: otherRecords.map((r) => r.current_path).join(","), to: target.key, review_epoch: plan.reviewId }, L.events),
    };
    for (const m of others) w.drop(keys.get(m)!);
    finish(target.key, target.id, carried, survivor);
  }
  return E.right({ plan: w.plan(), survivors });
}
