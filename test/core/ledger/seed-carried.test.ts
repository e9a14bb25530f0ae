import { describe, expect, it } from "vitest";
import { EMPTY_INDEX } from "../../../core/ledger/codec.js";
import { carriedUsage, seedIsCurrent, seedObservations } from "../../../core/ledger/seed.js";

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

describe("only a lineage born in this seed takes a carried count", () => {
  it("not one seeded before without it, nor one that followed an external rename", () => {
    const first = seedObservations(empty, [{ key: "docs.json", name: "docs", fingerprint: "f" }], T0);
    const seeded = { index: first.index, ledgers: new Map(first.writes), missing: new Set<string>() };
    const again = seedObservations(seeded, [{ key: "docs.json", name: "docs", fingerprint: "f", carried: { calls: 7 } }], T0);
    expect(again.changed).toBe(false);

    const renamed = seedObservations({ ...seeded, missing: new Set(["docs.json"]) }, [{ key: "notes.json", name: "notes", fingerprint: "f", carried: { calls: 5 } }], T0);
    const record = [...renamed.writes.values()][0]!;
    expect(record).toMatchObject({ lineage_name: "notes", former_paths: ["docs.json"], lifetime_calls: 0, calls: 0 });
  });
});

describe("seedIsCurrent", () => {
  it("is true only when every observation is indexed at its fingerprint", () => {
    const first = seedObservations(empty, [{ key: "a.json", name: "a", fingerprint: "fa" }, { key: "b.json", name: "b", fingerprint: "fb" }], T0);
    const s = { index: first.index };
    expect(seedIsCurrent(s, [{ key: "a.json", name: "a", fingerprint: "fa" }, { key: "b.json", name: "b", fingerprint: "fb" }])).toBe(true);
    expect(seedIsCurrent(s, [{ key: "a.json", name: "a", fingerprint: "fa" }, { key: "b.json", name: "b", fingerprint: "changed" }])).toBe(false);
    expect(seedIsCurrent(s, [{ key: "a.json", name: "a", fingerprint: "fa" }, { key: "c.json", name: "c", fingerprint: "fc" }])).toBe(false);
  });
});
