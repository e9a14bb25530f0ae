// Zero-call lineage for the recipes discovery found, without counting a launch: unknown recipes
// get a fresh lineage (or follow an unambiguous external rename), changed ones a new revision.
import { revise } from "./transitions.js";
import { Working, type LedgerPlan, type LedgerSnapshot } from "./working.js";

export interface Observation {
  readonly key: string;
  readonly name: string;
  readonly fingerprint: string;
}

export function seedObservations(snapshot: LedgerSnapshot, observations: readonly Observation[], at: string): LedgerPlan {
  const w = new Working(snapshot);
  for (const o of [...observations].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const { id, record } = w.attach(o.key, o.name, o.fingerprint, at);
    w.put(o.key, id, revise(record, o.fingerprint, at));
  }
  return w.plan();
}

/** True when every observation is indexed at its current fingerprint: seeding would change nothing. */
export const seedIsCurrent = (snapshot: Pick<LedgerSnapshot, "index">, observations: readonly Observation[]): boolean =>
  observations.every((o) => snapshot.index.paths[o.key]?.fingerprint === o.fingerprint);
