import { describe, expect, it } from "vitest";
import { EMPTY_INDEX } from "../../../core/ledger/codec.js";
import { carriedUsage, seedObservations } from "../../../core/ledger/seed.js";

const T0 = "2026-01-01T00:00:00.000Z";
const empty = { index: EMPTY_INDEX, ledgers: new Map(), missing: new Set<string>() };

describe("usage carried over from pi-actors", () => {
  it("a recipe with a stored usage object and no ledger starts its lineage from it", () => {
    const carried = carriedUsage({ calls: 7, last_called: "2025-12-24T10:00:00Z" });
    expect(carried).toEqual({ calls: 7, last_called: "2025-12-24T10:00:00.000Z" });
    const plan = seedObservations(empty, [{ key: "docs.json", name: "docs", fingerprint: "f", carried: carried! }], T0);
    const record = [...plan.writes.values()][0]!;
    expect(record).toMatchObject({ lifetime_calls: 7, calls: 7, last_called: "2025-12-24T10:00:00.000Z", last_launch_at: "2025-12-24T10:00:00.000Z", first_seen: T0 });
  });

  it("an existing lineage is not counted twice", () => {
    const first = seedObservations(empty, [{ key: "docs.json", name: "docs", fingerprint: "f", carried: { calls: 7 } }], T0);
    const snapshot = { index: first.index, ledgers: new Map(first.writes), missing: new Set<string>() };
    const again = seedObservations(snapshot, [{ key: "docs.json", name: "docs", fingerprint: "f", carried: { calls: 7 } }], T0);
    expect(again.changed).toBe(false);
  });

  it("ignores usage objects without a positive call count", () => {
    expect(carriedUsage({ calls: 0 })).toBeUndefined();
    expect(carriedUsage({ calls: "3" })).toBeUndefined();
    expect(carriedUsage(null)).toBeUndefined();
    expect(carriedUsage({ calls: 2, last_called: "not a date" })).toEqual({ calls: 2 });
  });
});
