// The on-disk ledger records: what a reader accepts. A record that fails here counts as unreadable
// (its lineage starts again, with a diagnostic), so the limits are what a hand edit can break.
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { LedgerIndex, LedgerRecord } from "../../../core/ledger/codec.js";
import { freshLedger } from "../../../core/ledger/transitions.js";

const fresh = freshLedger({ name: "a", key: "a.json", fingerprint: "f", at: "2026-01-01T00:00:00.000Z" });

describe("ledger counts", () => {
  it.each([0, 1, 2 ** 53 - 1])("accept %s", (n) => {
    expect(E.isRight(LedgerRecord.decode({ ...fresh, lifetime_calls: n }))).toBe(true);
    expect(LedgerRecord.is({ ...fresh, calls: n })).toBe(true);
  });

  it.each([-1, 1.5, 2 ** 53, "3", null, Number.NaN])("refuse %s", (n) => {
    expect(E.isLeft(LedgerRecord.decode({ ...fresh, lifetime_calls: n }))).toBe(true);
    expect(LedgerRecord.is({ ...fresh, revision: n })).toBe(false);
    expect(E.isLeft(LedgerIndex.decode({ paths: {}, applied: { log: n } }))).toBe(true);
  });

  it("checks every revision, event and list entry", () => {
    for (const bad of [
      { revisions: [{ revision: -1, fingerprint: "f", first_seen: "t" }] },
      { revisions: [{ revision: 1, first_seen: "t" }] },
      { events: [{ at: "t" }] },
      { events: [{ at: "t", type: "revised", revision: -2 }] },
      { former_names: [1] },
      { review_epochs: "e1" },
      { rollback_of_revision: -1 },
      { last_launch_at: 5 },
    ]) {
      expect(E.isLeft(LedgerRecord.decode({ ...fresh, ...bad })), JSON.stringify(bad)).toBe(true);
    }
    expect(E.isLeft(LedgerIndex.decode({ paths: { "a.json": { ledger: "a" } }, applied: {} }))).toBe(true);
  });

  it("keeps unknown keys, so a newer writer's fields survive a rewrite", () => {
    const decoded = LedgerRecord.decode({ ...fresh, future_field: { x: 1 } });
    expect(E.isRight(decoded) && (decoded.right as Record<string, unknown>)["future_field"]).toEqual({ x: 1 });
  });
});
