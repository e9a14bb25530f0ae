// The on-disk records of the usage ledger, as io-ts codecs: one lineage ledger per file, the path
// index and the launch-log lines (commits go through the journal engine, core/journal).
// Decoding keeps unknown keys (t.type does not strip them), so a newer writer's fields survive
// an older reader's rewrite.
import * as t from "io-ts";

const isCount = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0;

/** a non-negative safe integer */
export const Count = new t.Type<number, number, unknown>("Count", isCount, (u, c) => (isCount(u) ? t.success(u) : t.failure(u, c)), t.identity);

export const EVENT_TYPES = ["created", "revised", "renamed", "moved", "promoted", "demoted", "reviewed", "rolled_back"] as const;
export type LedgerEventType = (typeof EVENT_TYPES)[number];

export const LedgerEvent = t.intersection([
  t.type({ at: t.string, type: t.string }),
  t.partial({ from: t.string, to: t.string, revision: Count, review_epoch: t.string, rollback_revision: Count }),
]);
export type LedgerEvent = t.TypeOf<typeof LedgerEvent>;

export const RevisionRecord = t.type({ revision: Count, fingerprint: t.string, first_seen: t.string });
export type RevisionRecord = t.TypeOf<typeof RevisionRecord>;

export const LedgerRecord = t.intersection([
  t.type({
    /** the current tool name: the basename of `current_path` without its extension */
    lineage_name: t.string,
    /** path key of the current file: relative to the recipe root, `/`-separated */
    current_path: t.string,
    /** executable fingerprint of the current revision */
    fingerprint: t.string,
    /** when the lineage was created; never changes */
    first_seen: t.string,
    /** the last launch, revision or move the ledger recorded */
    last_seen: t.string,
    lifetime_calls: Count,
    /** compatibility view of lifetime_calls */
    calls: Count,
    revision: Count,
    revision_calls: Count,
    revisions: t.array(RevisionRecord),
    former_names: t.array(t.string),
    former_paths: t.array(t.string),
    events: t.array(LedgerEvent),
    review_epochs: t.array(t.string),
    reviewed_fingerprints: t.array(t.string),
  }),
  t.partial({
    first_launch_at: t.string,
    last_launch_at: t.string,
    /** compatibility mirror of last_launch_at */
    last_called: t.string,
    reset_at: t.string,
    reset_reason: t.string,
    rollback_of_revision: Count,
  }),
]);
export type LedgerRecord = t.TypeOf<typeof LedgerRecord>;

export const IndexEntry = t.type({ ledger: t.string, fingerprint: t.string });
export type IndexEntry = t.TypeOf<typeof IndexEntry>;

/** `paths`: path key → its lineage's ledger id and fingerprint; `applied`: per launch log, the
 *  highest record sequence number already folded into the ledgers (so a fold is idempotent). */
export const LedgerIndex = t.type({ paths: t.record(t.string, IndexEntry), applied: t.record(t.string, Count) });
export type LedgerIndex = t.TypeOf<typeof LedgerIndex>;

export const EMPTY_INDEX: LedgerIndex = { paths: {}, applied: {} };
