import { describe, expect, it } from "vitest";
import { foldLaunches, relocationCandidates, type LaunchEntry } from "../../../core/ledger/fold.js";
import { seedIsCurrent, seedObservations } from "../../../core/ledger/seed.js";
import { moveLineage } from "../../../core/ledger/move.js";
import { EMPTY_INDEX, type LedgerIndex, type LedgerRecord } from "../../../core/ledger/codec.js";
import type { LedgerPlan, LedgerSnapshot } from "../../../core/ledger/working.js";

const T = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

/** applies a plan to an in-memory store, as the runtime's commit does */
class Store {
  index: LedgerIndex = EMPTY_INDEX;
  ledgers = new Map<string, LedgerRecord>();
  missing = new Set<string>();
  snapshot(): LedgerSnapshot {
    return { index: this.index, ledgers: this.ledgers, missing: this.missing };
  }
  commit(plan: LedgerPlan): LedgerPlan {
    for (const [id, r] of plan.writes) this.ledgers.set(id, r);
    for (const id of plan.deletes) this.ledgers.delete(id);
    this.index = plan.index;
    return plan;
  }
  of(key: string): LedgerRecord | undefined {
    const id = this.index.paths[key]?.ledger;
    return id === undefined ? undefined : this.ledgers.get(id);
  }
  /** every index entry has its ledger, every ledger is indexed and points back */
  consistent(): void {
    const ids = new Set(Object.values(this.index.paths).map((e) => e.ledger));
    expect([...this.ledgers.keys()].sort()).toEqual([...ids].sort());
    for (const [key, e] of Object.entries(this.index.paths)) {
      expect(this.ledgers.get(e.ledger)?.current_path).toBe(key);
      expect(this.ledgers.get(e.ledger)?.fingerprint).toBe(e.fingerprint);
    }
  }
}

let seq = 0;
const launch = (key: string, fingerprint: string, at: string, log = "L1"): LaunchEntry => ({
  log,
  seq: ++seq,
  key,
  name: key.replace(/^.*\//, "").replace(/\.(json|md)$/, ""),
  fingerprint,
  at,
});

describe("foldLaunches", () => {
  it("counts each record once, however often the same log is folded", () => {
    const s = new Store();
    const entries = [launch("a.json", "fa", T(1)), launch("a.json", "fa", T(2))];
    s.commit(foldLaunches(s.snapshot(), entries, new Set(["L1"])));
    const again = foldLaunches(s.snapshot(), entries, new Set(["L1"]));
    expect(again.changed).toBe(false);
    s.commit(foldLaunches(s.snapshot(), [...entries, launch("a.json", "fa", T(3))], new Set(["L1"])));
    expect(s.of("a.json")).toMatchObject({ lifetime_calls: 3, calls: 3, revision_calls: 3, last_launch_at: T(3) });
    s.consistent();
  });

  it("drops the watermarks of logs that are gone", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1), "old")], new Set(["old"])));
    expect(Object.keys(s.index.applied)).toEqual(["old"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [], new Set()));
    expect(plan.changed).toBe(true);
    expect(s.index.applied).toEqual({});
  });

  it("follows an unambiguous external rename by fingerprint", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1))], new Set(["L1"])));
    s.missing = new Set(["a.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "fa", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([]);
    expect(s.index.paths["a.json"]).toBeUndefined();
    expect(s.of("b.json")).toMatchObject({ lineage_name: "b", lifetime_calls: 2, former_names: ["a"], former_paths: ["a.json"] });
    expect(s.of("b.json")!.events.map((e) => e.type)).toEqual(["created", "renamed"]);
    s.consistent();
  });

  it("follows the same tool into its other format, changed content and all, as a new revision", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("t.json", "f1", T(1)), launch("same.json", "f2", T(1))], new Set(["L1"])));
    // t.json rewritten as t.md with other content (whose fingerprint even matches another
    // former recipe): the name wins
    s.missing = new Set(["t.json", "same.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("t.md", "f2", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([]);
    expect(s.index.paths["t.json"]).toBeUndefined();
    expect(s.of("t.md")).toMatchObject({ lineage_name: "t", lifetime_calls: 2, revision: 2, revision_calls: 1, former_paths: ["t.json"] });
    expect(s.of("same.json")!.lifetime_calls).toBe(1);
    s.consistent();
    // while the other format's file is still there (it shadows this one), its lineage stays its own
    const t = new Store();
    t.commit(foldLaunches(t.snapshot(), [launch("u.json", "f1", T(1))], new Set(["L1"])));
    t.commit(foldLaunches(t.snapshot(), [launch("u.md", "f3", T(2))], new Set(["L1"])));
    expect(t.of("u.json")!.lifetime_calls).toBe(1);
    expect(t.of("u.md")).toMatchObject({ lifetime_calls: 1, revision: 1 });
  });

  it("a hand rename keeps its lineage by content even when a new file of the old name appears in the other format", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("x.json", "f1", T(1)), launch("x.json", "f1", T(1))], new Set(["L1"])));
    // x.json moved to y.json (same bytes), then a new x.md written with other content
    s.missing = new Set(["x.json"]);
    s.commit(foldLaunches(s.snapshot(), [launch("x.md", "f9", T(2)), launch("y.json", "f1", T(2))], new Set(["L1"])));
    expect(s.of("y.json")).toMatchObject({ lifetime_calls: 3, former_paths: ["x.json"] });
    expect(s.of("x.md")).toMatchObject({ lifetime_calls: 1, revision: 1 });
    s.consistent();
    // the same story folded at once, the first launches included (no index yet)
    const t = new Store();
    t.missing = new Set(["x.json"]);
    t.commit(foldLaunches(t.snapshot(), [launch("x.json", "f1", T(1)), launch("x.json", "f1", T(1)), launch("x.md", "f9", T(2)), launch("y.json", "f1", T(3))], new Set(["L1"])));
    expect(t.of("y.json")).toMatchObject({ lifetime_calls: 3, former_paths: ["x.json"] });
    expect(t.of("x.md")).toMatchObject({ lifetime_calls: 1, revision: 1 });
    t.consistent();
  });

  it("a .json written beside its .md (which it shadows) takes the tool's lineage, before the .md is deleted", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("x.md", "f1", T(1)), launch("x.md", "f1", T(1))], new Set(["L1"])));
    // x.md still there, shadowed: nothing is missing
    s.commit(foldLaunches(s.snapshot(), [launch("x.json", "f2", T(2))], new Set(["L1"])));
    expect(s.of("x.json")).toMatchObject({ lineage_name: "x", lifetime_calls: 3, revision: 2, revision_calls: 1 });
    expect(s.index.paths["x.md"]).toBeUndefined();
    s.consistent();
    // a copy of the .md elsewhere (same content) cannot follow a lineage whose file is there:
    // the .json still takes it
    const t = new Store();
    t.commit(foldLaunches(t.snapshot(), [launch("x.md", "f1", T(1))], new Set(["L1"])));
    t.commit(foldLaunches(t.snapshot(), [launch("y.md", "f1", T(2)), launch("x.json", "f2", T(2))], new Set(["L1"])));
    expect(t.of("x.json")).toMatchObject({ lineage_name: "x", lifetime_calls: 2 });
    t.consistent();
  });

  it("does not follow when two former recipes share the fingerprint, and says so", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "same", T(1)), launch("c.json", "same", T(1))], new Set(["L1"])));
    s.missing = new Set(["a.json", "c.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "same", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([
      "Usage lineage of b.json not followed: 2 former recipes share its fingerprint (a.json, c.json); it starts a new lineage.",
    ]);
    expect(s.of("b.json")).toMatchObject({ lifetime_calls: 1, former_paths: [] });
    expect(s.of("a.json")!.lifetime_calls).toBe(1);
    s.consistent();
  });

  it("does not follow a former recipe whose file still exists (a copy)", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("drafts/x.json", "fx", T(1))], new Set(["L1"])));
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("x.json", "fx", T(2))], new Set(["L1"])));
    // the name is held by the draft's lineage: the copy gets its own, under a suffixed id
    expect(plan.diagnostics).toEqual(["Usage lineage name x is held by drafts/x.json; x.json keeps its own lineage as x/2."]);
    expect(s.of("x.json")).toMatchObject({ lineage_name: "x", lifetime_calls: 1 });
    expect(s.of("drafts/x.json")).toMatchObject({ lineage_name: "x", lifetime_calls: 1 });
    s.consistent();
  });

  it("lists relocation candidates only for fingerprints of unindexed keys", () => {
    const index: LedgerIndex = { paths: { "a.json": { ledger: "a", fingerprint: "fa" }, "b.json": { ledger: "b", fingerprint: "fb" } }, applied: {} };
    expect(relocationCandidates({ index }, [{ key: "a.json", fingerprint: "fa" }])).toEqual([]);
    expect(relocationCandidates({ index }, [{ key: "c.json", fingerprint: "fb" }])).toEqual(["b.json"]);
    // and the same name in the other format, whatever its fingerprint
    expect(relocationCandidates({ index }, [{ key: "a.md", fingerprint: "fz" }])).toEqual(["a.json"]);
  });
});

describe("seedObservations", () => {
  it("gives every observed recipe zero-call lineage, then revises on a content change only", () => {
    const s = new Store();
    const obs = [
      { key: "a.json", name: "a", fingerprint: "fa" },
      { key: "b.md", name: "b", fingerprint: "fb" },
    ];
    s.commit(seedObservations(s.snapshot(), obs, T(0)));
    expect(s.of("a.json")).toMatchObject({ lifetime_calls: 0, calls: 0, revision: 1 });
    expect(seedIsCurrent(s.snapshot(), obs)).toBe(true);
    expect(seedObservations(s.snapshot(), obs, T(1)).changed).toBe(false);
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(2))], new Set(["L1"])));
    s.commit(seedObservations(s.snapshot(), [{ key: "a.json", name: "a", fingerprint: "fa2" }], T(3)));
    expect(s.of("a.json")).toMatchObject({ lifetime_calls: 1, revision_calls: 0, revision: 2 });
    s.consistent();
  });
});

describe("seedObservations after a rename outside, with a new file of the former name", () => {
  it("the renamed file follows its lineage, and the new file gets the former name's own id, without a note", () => {
    for (const order of [0, 1]) {
      const s = new Store();
      s.commit(seedObservations(s.snapshot(), [{ key: "r0.json", name: "r0", fingerprint: "f0" }], T(0)));
      s.commit(foldLaunches(s.snapshot(), [launch("r0.json", "f0", T(1))], new Set(["L1"])));
      // r0.json renamed to r1.json, and a new r0.md written (keys sorted, r0.md comes first)
      s.missing = new Set(["r0.json"]);
      const obs = [{ key: "r0.md", name: "r0", fingerprint: "fmd" }, { key: "r1.json", name: "r1", fingerprint: "f0" }];
      const plan = s.commit(seedObservations(s.snapshot(), order === 0 ? obs : [...obs].reverse(), T(2)));
      expect(plan.diagnostics).toEqual([]);
      expect(s.of("r1.json")).toMatchObject({ lifetime_calls: 1, former_paths: ["r0.json"] });
      expect(s.index.paths["r0.md"]?.ledger).toBe("r0");
      expect(s.of("r0.md")).toMatchObject({ lifetime_calls: 0 });
      s.missing = new Set();
      s.consistent();
    }
  });
});

describe("moveLineage", () => {
  it("moves, is idempotent once done, and refuses a target with its own lineage", () => {
    const s = new Store();
    s.commit(seedObservations(s.snapshot(), [{ key: "drafts/m.json", name: "m", fingerprint: "f" }, { key: "t.json", name: "t", fingerprint: "g" }], T(0)));
    const first = moveLineage(s.snapshot(), { fromKey: "drafts/m.json", toKey: "m_tool.json", type: "promoted", at: T(1) });
    expect(first.kind).toBe("moved");
    if (first.kind === "moved") s.commit(first.plan);
    expect(s.of("m_tool.json")).toMatchObject({ lineage_name: "m_tool", former_names: ["m"], former_paths: ["drafts/m.json"] });
    expect(s.ledgers.has("m")).toBe(false);
    expect(moveLineage(s.snapshot(), { fromKey: "drafts/m.json", toKey: "m_tool.json", type: "promoted", at: T(2) }).kind).toBe("done");
    expect(moveLineage(s.snapshot(), { fromKey: "m_tool.json", toKey: "t.json", type: "renamed", at: T(2) })).toEqual({
      kind: "refused",
      reason: "t.json already has its own usage lineage (t)",
    });
    expect(moveLineage(s.snapshot(), { fromKey: "nope.json", toKey: "z.json", type: "renamed", at: T(2) }).kind).toBe("refused");
    s.consistent();
  });
});

describe("the order of a fold and a seed does not depend on the order they are given", () => {
  const entry = (log: string, seq: number, fingerprint: string, at: string): LaunchEntry => ({ log, seq, key: "a.json", name: "a", fingerprint, at });

  it("launches at the same instant apply by log name, then by sequence: the last one's content is current", () => {
    for (const entries of [
      [entry("L2", 1, "f-L2", T(1)), entry("L1", 1, "f-L1", T(1))],
      [entry("L1", 1, "f-L1", T(1)), entry("L2", 1, "f-L2", T(1))],
    ]) {
      const s = new Store();
      s.commit(foldLaunches(s.snapshot(), entries, new Set(["L1", "L2"])));
      expect(s.of("a.json")).toMatchObject({ fingerprint: "f-L2", revision: 2, lifetime_calls: 2, revision_calls: 1 });
    }
    for (const entries of [
      [entry("L1", 2, "f-2", T(1)), entry("L1", 1, "f-1", T(1))],
      [entry("L1", 1, "f-1", T(1)), entry("L1", 2, "f-2", T(1))],
    ]) {
      const s = new Store();
      s.commit(foldLaunches(s.snapshot(), entries, new Set(["L1"])));
      expect(s.of("a.json")).toMatchObject({ fingerprint: "f-2", revision: 2 });
      expect(s.index.applied).toEqual({ L1: 2 });
    }
    // many logs at one instant, given in reverse and in a shuffled order
    const names = Array.from({ length: 100 }, (_, i) => `L${String(i).padStart(3, "0")}`);
    for (const order of [[...names].reverse(), names.map((_, i) => names[(i * 37) % 100]!)]) {
      const s = new Store();
      s.commit(foldLaunches(s.snapshot(), order.map((log) => entry(log, 1, `f-${log}`, T(1))), new Set(names)));
      expect(s.of("a.json")).toMatchObject({ fingerprint: "f-L099", lifetime_calls: 100 });
      // every log in name order, each a revision of its own
      expect(s.of("a.json")!.revisions.map((r) => r.fingerprint)).toEqual(names.map((n) => `f-${n}`));
    }
    // by log name even when the later log's sequence is lower (sequences of different logs are
    // unrelated), in either input order
    for (const entries of [
      [entry("L1", 5, "f-L1", T(1)), entry("L2", 1, "f-L2", T(1))],
      [entry("L2", 1, "f-L2", T(1)), entry("L1", 5, "f-L1", T(1))],
    ]) {
      const s = new Store();
      s.commit(foldLaunches(s.snapshot(), entries, new Set(["L1", "L2"])));
      expect(s.of("a.json")!.revisions.map((r) => r.fingerprint)).toEqual(["f-L1", "f-L2"]);
      expect(s.index.applied).toEqual({ L1: 5, L2: 1 });
    }
    // time first, whatever the log names, in either input order
    for (const entries of [
      [entry("A", 1, "late", T(2)), entry("Z", 1, "early", T(1))],
      [entry("Z", 1, "early", T(1)), entry("A", 1, "late", T(2))],
    ]) {
      const s = new Store();
      s.commit(foldLaunches(s.snapshot(), entries, new Set(["A", "Z"])));
      expect(s.of("a.json")).toMatchObject({ fingerprint: "late", first_launch_at: T(1), last_launch_at: T(2) });
    }
  });

  it("two new recipes of one name: the one whose key sorts first gets the plain lineage id", () => {
    for (const order of [["x.json", "drafts/x.json"], ["drafts/x.json", "x.json"]]) {
      const s = new Store();
      s.commit(seedObservations(s.snapshot(), order.map((key) => ({ key, name: "x", fingerprint: `f-${key}` })), T(0)));
      expect(s.index.paths).toEqual({ "drafts/x.json": { ledger: "x", fingerprint: "f-drafts/x.json" }, "x.json": { ledger: "x/2", fingerprint: "f-x.json" } });
    }
  });
});

describe("an indexed recipe whose ledger could not be read", () => {
  it("starts its lineage again, says so, and counts the launch", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1))], new Set(["L1"])));
    // the ledger file was unreadable: the runtime passes no record for it
    s.ledgers = new Map();
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual(["Usage ledger of a.json is unreadable; its lineage starts again."]);
    expect(s.of("a.json")).toMatchObject({ lifetime_calls: 1, first_seen: T(2), revision: 1 });
    s.consistent();
  });
});

describe("a lineage that moves under its own name", () => {
  it("keeps its ledger id, even a suffixed one while a lower suffix is free", () => {
    const s = new Store();
    s.commit(seedObservations(s.snapshot(), ["drafts/x.json", "x.json", "x.md"].map((key) => ({ key, name: "x", fingerprint: `f-${key}` })), T(0)));
    expect(Object.fromEntries(Object.entries(s.index.paths).map(([k, e]) => [k, e.ledger]))).toEqual({ "drafts/x.json": "x", "x.json": "x/2", "x.md": "x/3" });
    const away = moveLineage(s.snapshot(), { fromKey: "x.json", toKey: "y.json", type: "renamed", at: T(1) });
    if (away.kind !== "moved") throw new Error(away.kind);
    s.commit(away.plan);
    const demoted = moveLineage(s.snapshot(), { fromKey: "x.md", toKey: "drafts/x.md", type: "demoted", at: T(2) });
    if (demoted.kind !== "moved") throw new Error(demoted.kind);
    s.commit(demoted.plan);
    expect(s.index.paths["drafts/x.md"]?.ledger).toBe("x/3");
    expect(s.index.paths["y.json"]?.ledger).toBe("y");
    expect([...s.ledgers.keys()].sort()).toEqual(["x", "x/3", "y"]);
    s.consistent();
  });
});

describe("moveLineage answers", () => {
  it("says why it refuses a key without lineage, and a move onto itself is done", () => {
    const s = new Store();
    s.commit(seedObservations(s.snapshot(), [{ key: "a.json", name: "a", fingerprint: "f" }], T(0)));
    expect(moveLineage(s.snapshot(), { fromKey: "nope.json", toKey: "z.json", type: "renamed", at: T(1) })).toEqual({ kind: "refused", reason: "nope.json has no usage lineage to move" });
    expect(moveLineage(s.snapshot(), { fromKey: "a.json", toKey: "a.json", type: "moved", at: T(1) })).toEqual({ kind: "done" });
    // the source gone and the target holding a lineage named after it: the move was done before;
    // a target lineage of another name is not this move's work
    expect(moveLineage(s.snapshot(), { fromKey: "gone.json", toKey: "a.json", type: "renamed", at: T(1) })).toEqual({ kind: "done" });
    s.commit(seedObservations(s.snapshot(), [{ key: "b.json", name: "other", fingerprint: "g" }], T(0)));
    expect(moveLineage(s.snapshot(), { fromKey: "gone.json", toKey: "b.json", type: "renamed", at: T(1) })).toEqual({ kind: "refused", reason: "gone.json has no usage lineage to move" });
  });
});

describe("a log whose launches are not in time order", () => {
  it("remembers its highest sequence, so a second fold counts none of them again", () => {
    const s = new Store();
    // the later line carries the earlier time (a clock that stepped back)
    const entries: LaunchEntry[] = [
      { log: "L", seq: 1, key: "a.json", name: "a", fingerprint: "f", at: T(5) },
      { log: "L", seq: 2, key: "a.json", name: "a", fingerprint: "f", at: T(1) },
    ];
    s.commit(foldLaunches(s.snapshot(), entries, new Set(["L"])));
    expect(s.index.applied).toEqual({ L: 2 });
    expect(foldLaunches(s.snapshot(), entries, new Set(["L"])).changed).toBe(false);
    expect(s.of("a.json")).toMatchObject({ lifetime_calls: 2, first_launch_at: T(1), last_launch_at: T(5) });
  });
});

describe("following a lineage to an unindexed recipe", () => {
  it("never follows a former recipe of another content", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1))], new Set(["L1"])));
    s.missing = new Set(["a.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "fb", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([]);
    expect(s.of("b.json")).toMatchObject({ lineage_name: "b", lifetime_calls: 1, former_paths: [] });
    // the gone recipe keeps its own lineage until it is dropped by hand
    expect(s.of("a.json")).toMatchObject({ lineage_name: "a", lifetime_calls: 1 });
  });

  it("does not follow a gone recipe whose ledger could not be read: the new one starts its own", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1))], new Set(["L1"])));
    s.ledgers.delete(s.index.paths["a.json"]!.ledger);
    s.missing = new Set(["a.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "fa", T(2))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([]);
    expect(s.of("b.json")).toMatchObject({ lineage_name: "b", lifetime_calls: 1, former_paths: [] });
  });

  it("names the candidates in key order when several share the fingerprint", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("z.json", "same", T(1)), launch("m.json", "same", T(2))], new Set(["L1"])));
    // the index lists z.json before m.json
    expect(Object.keys(s.index.paths)).toEqual(["z.json", "m.json"]);
    s.missing = new Set(["z.json", "m.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "same", T(3))], new Set(["L1"])));
    expect(plan.diagnostics).toEqual([
      "Usage lineage of b.json not followed: 2 former recipes share its fingerprint (m.json, z.json); it starts a new lineage.",
    ]);
  });
});

describe("a lineage name already held", () => {
  it("names the key that holds it, and gives the newcomer a suffixed id", () => {
    const s = new Store();
    s.commit(seedObservations(s.snapshot(), [{ key: "other.json", name: "other", fingerprint: "fo" }, { key: "drafts/x.json", name: "x", fingerprint: "fx" }], T(0)));
    expect(Object.keys(s.index.paths)).toEqual(["drafts/x.json", "other.json"]);
    // the holder of the id "x" is not the first key of the index
    s.index = { ...s.index, paths: { "other.json": s.index.paths["other.json"]!, "drafts/x.json": s.index.paths["drafts/x.json"]! } };
    const plan = s.commit(seedObservations(s.snapshot(), [{ key: "x.json", name: "x", fingerprint: "fy" }], T(1)));
    expect(plan.diagnostics).toEqual(["Usage lineage name x is held by drafts/x.json; x.json keeps its own lineage as x/2."]);
    expect(s.index.paths["x.json"]).toEqual({ ledger: "x/2", fingerprint: "fy" });
    s.consistent();
  });
});

describe("ledgers that go with a fold", () => {
  it("keeps an unreadable ledger that another index key still names (an index edited by hand)", () => {
    const s = new Store();
    s.index = { paths: { "a.json": { ledger: "shared", fingerprint: "fa" }, "b.json": { ledger: "shared", fingerprint: "fa" } }, applied: {} };
    // "shared" cannot be read, so a.json starts its lineage again; b.json still names the file
    const plan = foldLaunches(s.snapshot(), [launch("a.json", "fa", T(1))], new Set(["L1"]));
    expect(plan.diagnostics).toEqual(["Usage ledger of a.json is unreadable; its lineage starts again."]);
    expect(plan.deletes).toEqual([]);
    expect(plan.index.paths).toEqual({ "b.json": { ledger: "shared", fingerprint: "fa" }, "a.json": { ledger: "a", fingerprint: "fa" } });
  });

  it("deletes the ledgers of lineages that moved away in id order, whatever order they moved in", () => {
    const s = new Store();
    s.commit(foldLaunches(s.snapshot(), [launch("zz.json", "fz", T(1)), launch("aa.json", "fa", T(2))], new Set(["L1"])));
    // both renamed on disk: zz.json to b.json first, then aa.json to c.json
    s.missing = new Set(["zz.json", "aa.json"]);
    const plan = s.commit(foldLaunches(s.snapshot(), [launch("b.json", "fz", T(3)), launch("c.json", "fa", T(4))], new Set(["L1"])));
    expect(plan.deletes).toEqual(["aa", "zz"]);
    expect(s.of("b.json")).toMatchObject({ former_paths: ["zz.json"], lifetime_calls: 2 });
    s.consistent();
  });
});
