import { describe, expect, it } from "vitest";
import { launched, freshLedger } from "../../../core/ledger/transitions.js";
import { usageSummary } from "../../../core/ledger/usage-summary.js";

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

describe("usageSummary (what inspect shows of a ledger)", () => {
  it("no ledger yet: zero launches and no last launch", () => {
    expect(usageSummary(undefined)).toEqual({ lifetime_calls: 0, calls: 0, revision_calls: 0, last_launch_at: null });
  });

  it("a fresh lineage shows zeros; a launched one its counts and last launch", () => {
    const fresh = freshLedger({ name: "a", key: "a.json", fingerprint: "f", at: T0 });
    expect(usageSummary(fresh)).toEqual({ lifetime_calls: 0, calls: 0, revision_calls: 0, last_launch_at: null });
    const twice = launched(launched(fresh, { fingerprint: "f", at: T0 }), { fingerprint: "g", at: T1 });
    expect(usageSummary(twice)).toEqual({ lifetime_calls: 2, calls: 2, revision_calls: 1, last_launch_at: T1 });
  });

  it("a hand-edited ledger whose calls differ from lifetime_calls shows the larger as calls", () => {
    const fresh = freshLedger({ name: "a", key: "a.json", fingerprint: "f", at: T0 });
    expect(usageSummary({ ...fresh, calls: 9, lifetime_calls: 4 })).toMatchObject({ lifetime_calls: 4, calls: 9 });
    expect(usageSummary({ ...fresh, calls: 3, lifetime_calls: 4 })).toMatchObject({ lifetime_calls: 4, calls: 4 });
  });
});
