// What the inspect views show of a ledger: the launch counts and the last launch.
import type { JsonObject } from "../model.js";
import type { LedgerRecord } from "./codec.js";

/** `{lifetime_calls, calls, revision_calls, last_launch_at}`; no ledger means no launches yet. */
export function usageSummary(record: LedgerRecord | undefined): JsonObject {
  if (record === undefined) return { lifetime_calls: 0, calls: 0, revision_calls: 0, last_launch_at: null };
  return {
    lifetime_calls: record.lifetime_calls,
    calls: Math.max(record.calls, record.lifetime_calls),
    revision_calls: record.revision_calls,
    last_launch_at: record.last_launch_at ?? null,
  };
}
