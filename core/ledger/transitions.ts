// The lineage transitions as pure functions of a ledger record. Nothing here counts a launch that
// did not happen, and lifetime_calls only ever grows.
import { appendBounded, appendCapped, LEDGER_LIMITS as L } from "./bounds.js";
import type { LedgerEvent, LedgerRecord } from "./codec.js";

export const RESET_REASON = "recipe content fingerprint changed";

export type MoveType = "renamed" | "moved" | "promoted" | "demoted";

const later = (a: string | undefined, b: string): string => (a !== undefined && a > b ? a : b);

const withEvent = (record: LedgerRecord, event: LedgerEvent): LedgerEvent[] => appendCapped(record.events, event, L.events);

/** A lineage seen for the first time: zero calls, revision 1, one `created` event. */
export function freshLedger(input: { name: string; key: string; fingerprint: string; at: string }): LedgerRecord {
  const { name, key, fingerprint, at } = input;
  return {
    lineage_name: name,
    current_path: key,
    fingerprint,
    first_seen: at,
    last_seen: at,
    lifetime_calls: 0,
    calls: 0,
    revision: 1,
    revision_calls: 0,
    revisions: [{ revision: 1, fingerprint, first_seen: at }],
    former_names: [],
    former_paths: [],
    events: [{ at, type: "created" }],
    review_epochs: [],
    reviewed_fingerprints: [],
  };
}

/** The executable content changed: a new revision, whose calls start at zero; lifetime goes on.
 *  The same fingerprint returns the record unchanged. */
export function revise(record: LedgerRecord, fingerprint: string, at: string): LedgerRecord {
  if (record.fingerprint === fingerprint) return record;
  const revision = record.revision + 1;
  return {
    ...record,
    fingerprint,
    revision,
    revision_calls: 0,
    reset_at: at,
    reset_reason: RESET_REASON,
    revisions: appendCapped(record.revisions, { revision, fingerprint, first_seen: at }, L.revisions),
    events: withEvent(record, { at, type: "revised", revision }),
    last_seen: later(record.last_seen, at),
  };
}

/** One launch of the lineage at `fingerprint` (a revision first, if the content changed). */
export function launched(record: LedgerRecord, launch: { fingerprint: string; at: string }): LedgerRecord {
  const r = revise(record, launch.fingerprint, launch.at);
  // `calls` mirrors lifetime; a hand-edited ledger where they differ keeps the larger
  const lifetime = Math.max(r.lifetime_calls, r.calls) + 1;
  const last = later(r.last_launch_at, launch.at);
  return {
    ...r,
    lifetime_calls: lifetime,
    calls: lifetime,
    revision_calls: r.revision_calls + 1,
    first_launch_at: r.first_launch_at === undefined || r.first_launch_at > launch.at ? launch.at : r.first_launch_at,
    last_launch_at: last,
    last_called: last,
    last_seen: later(r.last_seen, launch.at),
  };
}

/** The lineage now lives at `key` under `name`: the former path and name are kept. */
export function moved(record: LedgerRecord, move: { name: string; key: string; type: MoveType; at: string }): LedgerRecord {
  const { name, key, type, at } = move;
  if (record.current_path === key && record.lineage_name === name) return record;
  return {
    ...record,
    lineage_name: name,
    current_path: key,
    former_names: record.lineage_name === name ? record.former_names : appendBounded(record.former_names, record.lineage_name, L.formerNames),
    former_paths: record.current_path === key ? record.former_paths : appendBounded(record.former_paths, record.current_path, L.formerPaths),
    events: withEvent(record, { at, type, from: record.current_path, to: key }),
    last_seen: later(record.last_seen, at),
  };
}

/** A review epoch passed over the current revision; recording it twice changes nothing. */
export function reviewed(record: LedgerRecord, epoch: string, at: string): LedgerRecord {
  if (record.review_epochs.includes(epoch)) return record;
  return {
    ...record,
    review_epochs: appendBounded(record.review_epochs, epoch, L.reviewEpochs),
    reviewed_fingerprints: appendBounded(record.reviewed_fingerprints, record.fingerprint, L.reviewedFingerprints),
    events: withEvent(record, { at, type: "reviewed", review_epoch: epoch }),
  };
}

/** The content was rolled back to an earlier revision's (now current at `fingerprint`). */
export function rolledBack(record: LedgerRecord, input: { revision: number; fingerprint: string; at: string }): LedgerRecord {
  const r = revise(record, input.fingerprint, input.at);
  return {
    ...r,
    rollback_of_revision: input.revision,
    events: withEvent(r, { at: input.at, type: "rolled_back", revision: r.revision, rollback_revision: input.revision }),
  };
}

/** How a move between two path keys is named in the ledger's events. */
export function moveType(fromKey: string, toKey: string, fromName: string, toName: string): MoveType {
  const fromDraft = fromKey.startsWith("drafts/");
  const toDraft = toKey.startsWith("drafts/");
  if (fromDraft && !toDraft) return "promoted";
  if (!fromDraft && toDraft) return "demoted";
  return fromName === toName ? "moved" : "renamed";
}
