// Folding launch-log records into the ledgers. Each record carries its log and sequence number;
// the index remembers, per log, the highest sequence already folded, so folding the same log
// twice (after a crash, or by two processes in turn) counts every launch once.
import { launched } from "./transitions.js";
import { startFromCarried, type CarriedUsage } from "./seed.js";
import { Working, type LedgerPlan, type LedgerSnapshot } from "./working.js";
import { compareText } from "../text-order.js";
import { otherFormat } from "./keys.js";

/** One counted launch, as the launching process appended it to its log. */
export interface LaunchEntry {
  readonly log: string;
  /** the line number of the record in its log: increasing in append order */
  readonly seq: number;
  /** path key of the recipe that was launched */
  readonly key: string;
  readonly name: string;
  readonly fingerprint: string;
  /** ISO 8601 */
  readonly at: string;
  /** launches the recipe still carried in its own `usage` object (written by pi-actors) when it
   *  was launched: a lineage this launch creates starts from them, as seeding does */
  readonly carried?: CarriedUsage;
}

const byTime = (a: LaunchEntry, b: LaunchEntry): number => compareText(a.at, b.at) || compareText(a.log, b.log) || a.seq - b.seq;

/**
 * Applies every entry not yet folded, oldest first. `presentLogs` lists the logs that still
 * exist: watermarks of logs that are gone (deleted after a complete fold) are dropped, since
 * no record of theirs can come back.
 */
export function foldLaunches(snapshot: LedgerSnapshot, entries: readonly LaunchEntry[], presentLogs: ReadonlySet<string>): LedgerPlan {
  const w = new Working(snapshot);
  for (const log of Object.keys(w.applied)) {
    if (presentLogs.has(log)) continue;
    delete w.applied[log];
    w.touch();
  }
  const pending = entries.filter((e) => e.seq > (snapshot.index.applied[e.log] ?? 0)).sort(byTime);
  for (const e of pending) {
    const fresh = w.lookup(e.key) === undefined;
    const { id, record } = w.attach(e.key, e.name, e.fingerprint, e.at, pending);
    w.put(e.key, id, launched(startFromCarried(record, e.carried, fresh), { fingerprint: e.fingerprint, at: e.at }));
    if (e.seq > (w.applied[e.log] ?? 0)) w.applied[e.log] = e.seq;
  }
  return w.plan();
}

/** The keys whose lineage a fold may follow away from, for the runtime to check on disk. */
export function relocationCandidates(snapshot: Pick<LedgerSnapshot, "index">, wanted: readonly { key: string; fingerprint: string }[]): string[] {
  const unindexed = wanted.filter((x) => snapshot.index.paths[x.key] === undefined);
  if (unindexed.length === 0) return [];
  const fingerprints = new Set(unindexed.map((x) => x.fingerprint));
  // the same tool in its other format (x.json for x.md): followed whatever its content
  const siblings = new Set(unindexed.map((x) => otherFormat(x.key)));
  return Object.entries(snapshot.index.paths)
    .filter(([k, e]) => fingerprints.has(e.fingerprint) || siblings.has(k))
    .map(([k]) => k);
}
