// Zero-call lineage for the recipes discovery found, without counting a launch: unknown recipes
// get a fresh lineage (or follow an unambiguous external rename), changed ones a new revision.
import type { LedgerRecord } from "./codec.js";
import { revise } from "./transitions.js";
import { Working, type LedgerPlan, type LedgerSnapshot } from "./working.js";
import { compareText } from "../text-order.js";
import type { CarriedUsage } from "./carried-usage.js";

export { carriedUsage, type CarriedUsage } from "./carried-usage.js";

export interface Observation {
  readonly key: string;
  readonly name: string;
  readonly fingerprint: string;
  /** launches a recipe still carries in its own `usage` object (written by pi-actors): a fresh
   *  lineage starts from them instead of zero */
  readonly carried?: CarriedUsage;
}

/** A lineage's record started from the carried launches. Only a lineage born in this very plan
 *  takes them (`fresh`: its key had no lineage, it follows no former path and counted nothing):
 *  an existing one already counted them. */
export function startFromCarried(record: LedgerRecord, carried: CarriedUsage | undefined, fresh: boolean): LedgerRecord {
  return fresh && carried !== undefined && record.lifetime_calls === 0 && record.former_paths.length === 0 ? withCarried(record, carried) : record;
}

function withCarried(record: LedgerRecord, carried: CarriedUsage): LedgerRecord {
  return {
    ...record,
    lifetime_calls: carried.calls,
    calls: carried.calls,
    revision_calls: carried.calls,
    ...(carried.last_called === undefined ? {} : { last_launch_at: carried.last_called, last_called: carried.last_called }),
  };
}

export function seedObservations(snapshot: LedgerSnapshot, observations: readonly Observation[], at: string): LedgerPlan {
  const w = new Working(snapshot);
  // a new key that follows a lineage by its content (a file renamed outside) goes first: that
  // lineage then leaves its former key, and a new file that takes the former name (x.json renamed
  // to y.json, then an x.md written) gets lineage x itself, not x/2 beside a lineage no file holds
  const gone = new Set(Object.entries(snapshot.index.paths).filter(([k]) => snapshot.missing.has(k)).map(([, e]) => e.fingerprint));
  const follows = (o: Observation): boolean => snapshot.index.paths[o.key] === undefined && gone.has(o.fingerprint);
  const ordered = [...observations].sort((a, b) => Number(follows(b)) - Number(follows(a)) || compareText(a.key, b.key));
  for (const o of ordered) {
    const fresh = w.lookup(o.key) === undefined;
    const { id, record } = w.attach(o.key, o.name, o.fingerprint, at, observations);
    w.put(o.key, id, revise(startFromCarried(record, o.carried, fresh), o.fingerprint, at));
  }
  return w.plan();
}

/** True when every observation is indexed at its current fingerprint: seeding would change nothing. */
export const seedIsCurrent = (snapshot: Pick<LedgerSnapshot, "index">, observations: readonly Observation[]): boolean =>
  observations.every((o) => snapshot.index.paths[o.key]?.fingerprint === o.fingerprint);
