// What an approved portfolio plan does to the lineages: keep and evolve are marked reviewed,
// demote is marked demoted, a merge carries every member's usage, names and paths into its
// survivor; and every reason a plan cannot be carried out, as the text the review records.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { LedgerRecord } from "../../../core/ledger/codec.js";
import { freshLedger } from "../../../core/ledger/transitions.js";
import type { LedgerSnapshot } from "../../../core/ledger/working.js";
import type { ApprovalPlan, PlanSource } from "../../../core/review/portfolio-decide.js";
import { lineageErrorText, portfolioLineage, type LineageError } from "../../../core/review/portfolio-lineage.js";

const AT = "2026-05-01T00:00:00.000Z";
const record = (name: string, extra: Partial<LedgerRecord> = {}): LedgerRecord => ({
  ...freshLedger({ name, key: `${name}.json`, fingerprint: `fp-${name}`, at: "2026-01-01T00:00:00.000Z" }),
  ...extra,
});
const snapshotOf = (records: readonly LedgerRecord[]): LedgerSnapshot => ({
  index: { paths: Object.fromEntries(records.map((r) => [r.current_path, { ledger: r.lineage_name, fingerprint: r.fingerprint }])), applied: {} },
  ledgers: new Map(records.map((r) => [r.lineage_name, r])),
  missing: new Set(),
});
const source = (name: string, action: PlanSource["action"], move: PlanSource["move"], lineage = name, to?: string): PlanSource => ({
  name,
  path: `/r/${name}.json`,
  sha256: `sha-${name}`,
  action,
  rationale: "r",
  lineage,
  move,
  ...(to === undefined ? {} : { to }),
});
const planOf = (sources: readonly PlanSource[]): ApprovalPlan => ({ reviewId: "rev-1", createdAt: AT, portfolioSha256: "digest", sources });
const keyOf = (p: string): string | undefined => (p.startsWith("/r/") ? p.slice(3) : undefined);
const run = (records: readonly LedgerRecord[], sources: readonly PlanSource[]) => portfolioLineage(snapshotOf(records), planOf(sources), { keyOf }, AT);
const outcome = (records: readonly LedgerRecord[], sources: readonly PlanSource[]) => {
  const r = run(records, sources);
  if (E.isLeft(r)) throw new Error(lineageErrorText(r.left));
  return r.right;
};
const errorOf = (records: readonly LedgerRecord[], sources: readonly PlanSource[]): string | undefined => {
  const r = run(records, sources);
  return E.isLeft(r) ? lineageErrorText(r.left) : undefined;
};
const reviewedEvent = { at: AT, type: "reviewed", review_epoch: "rev-1" };

describe("error texts", () => {
  it.each<[LineageError, string]>([
    [{ _tag: "MissingSource", name: "a" }, "Missing tool review lineage source: a"],
    [{ _tag: "InvalidTarget", name: "b" }, "Invalid tool review target: b"],
    [{ _tag: "InvalidMergeGroup", lineage: "c" }, "Invalid merge lineage group: c"],
  ])("%j → %s", (e, text) => expect(lineageErrorText(e)).toBe(text));
});

describe("keep, evolve, demote", () => {
  it("keep records the review on the tool's own lineage", () => {
    const out = outcome([record("keep")], [source("keep", "keep", "none")]);
    const done = out.survivors.get("keep.json")!;
    expect(done.id).toBe("keep");
    expect(done.source.name).toBe("keep");
    expect(done.record).toStrictEqual({ ...record("keep"), review_epochs: ["rev-1"], reviewed_fingerprints: ["fp-keep"], events: [...record("keep").events, reviewedEvent] });
    expect(out.plan.writes.get("keep")).toStrictEqual(done.record);
  });

  it("evolve moves the lineage to the new name as a rename, then records the review", () => {
    const out = outcome([record("old")], [source("old", "evolve", "rename", "new", "/r/new.json")]);
    expect([...out.survivors.keys()]).toEqual(["new.json"]);
    const done = out.survivors.get("new.json")!;
    expect(done.id).toBe("new");
    expect(done.record).toMatchObject({ lineage_name: "new", current_path: "new.json", former_names: ["old"], former_paths: ["old.json"], review_epochs: ["rev-1"] });
    expect(done.record.events.slice(1)).toEqual([{ at: AT, type: "renamed", from: "old.json", to: "new.json" }, reviewedEvent]);
    expect(out.plan.index.paths).toEqual({ "new.json": { ledger: "new", fingerprint: "fp-old" } });
  });

  it("demote moves the lineage into the drafts and marks it demoted at its current content", () => {
    const base = record("dem", { revision: 3 });
    const out = outcome([base], [source("dem", "demote", "rename", "dem", "/r/drafts/dem.json")]);
    const done = out.survivors.get("drafts/dem.json")!;
    expect(done.record).toMatchObject({
      current_path: "drafts/dem.json",
      demoted_at: AT,
      demoted_fingerprint: "fp-dem",
      demoted_from_revision: 3,
      demoted_review_epoch: "rev-1",
      review_epochs: ["rev-1"],
    });
    expect(done.record.events.slice(1)).toEqual([{ at: AT, type: "demoted", from: "dem.json", to: "drafts/dem.json" }, reviewedEvent]);
    const evolved = outcome([base], [source("dem", "evolve", "rename", "dem2", "/r/dem2.json")]).survivors.get("dem2.json")!.record;
    expect(evolved).not.toHaveProperty("demoted_at");
  });
});

describe("merge", () => {
  const a = record("a", { lifetime_calls: 10, calls: 11, revision_calls: 3, former_names: ["old_a"], former_paths: ["old_a.json", "old_b.json"] });
  const b = record("b", { lifetime_calls: 20, calls: 21, revision_calls: 4, former_names: ["pair", "old_b"], former_paths: ["old_b.json"] });
  const c = record("c", { lifetime_calls: 30, calls: 31, revision_calls: 5 });

  it("a new name: the survivor is renamed and carries every member's usage, names and paths; the others end", () => {
    const out = outcome([a, b, c], [source("a", "merge", "rename", "pair", "/r/pair.json"), source("b", "merge", "quarantine", "pair"), source("c", "merge", "quarantine", "pair")]);
    expect([...out.survivors.keys()]).toEqual(["pair.json"]);
    const done = out.survivors.get("pair.json")!;
    expect(done.id).toBe("pair");
    expect(done.source.name).toBe("a");
    expect(done.record).toMatchObject({
      lineage_name: "pair",
      current_path: "pair.json",
      lifetime_calls: 60,
      calls: 63,
      revision_calls: 12,
      former_names: ["old_a", "a", "old_b", "b", "c"],
      former_paths: ["old_a.json", "old_b.json", "a.json", "b.json", "c.json"],
      review_epochs: ["rev-1"],
    });
    expect(done.record.events.slice(1)).toEqual([
      { at: AT, type: "renamed", from: "a.json", to: "pair.json" },
      { at: AT, type: "merged", from: "b.json,c.json", to: "pair.json", review_epoch: "rev-1" },
      reviewedEvent,
    ]);
    // the survivor's lineage is stored under its new name: its old ledger goes with the others'
    expect(out.plan.deletes).toEqual(["a", "b", "c"]);
    expect([...out.plan.writes.keys()]).toEqual(["pair"]);
    expect(Object.keys(out.plan.index.paths)).toEqual(["pair.json"]);
  });

  it("a member's name: that member stays in place and carries the others", () => {
    const out = outcome([a, b], [source("a", "merge", "quarantine", "b"), source("b", "merge", "none", "b")]);
    const done = out.survivors.get("b.json")!;
    expect(done.id).toBe("b");
    expect(done.record).toMatchObject({ lineage_name: "b", current_path: "b.json", lifetime_calls: 30, former_names: ["pair", "old_b", "old_a", "a"], former_paths: ["old_b.json", "old_a.json", "a.json"] });
    expect(done.record.events.slice(1)).toEqual([{ at: AT, type: "merged", from: "a.json", to: "b.json", review_epoch: "rev-1" }, reviewedEvent]);
    expect(out.plan.deletes).toEqual(["a"]);
  });

  it("groups are formed by lineage name, each with its own survivor", () => {
    const d = record("d");
    const out = outcome([a, b, c, d], [source("a", "merge", "none", "a"), source("b", "merge", "quarantine", "a"), source("c", "merge", "none", "c"), source("d", "merge", "quarantine", "c")]);
    expect([...out.survivors.keys()]).toEqual(["a.json", "c.json"]);
    expect(out.survivors.get("a.json")!.record.lifetime_calls).toBe(30);
    expect(out.survivors.get("c.json")!.record.lifetime_calls).toBe(30);
  });
});

describe("plans that cannot be carried out", () => {
  it("a source outside the recipe root or without a lineage is missing", () => {
    expect(errorOf([record("a")], [{ ...source("a", "keep", "none"), path: "/elsewhere/a.json" }])).toBe("Missing tool review lineage source: a");
    expect(errorOf([record("a")], [source("a", "keep", "none"), source("z", "keep", "none")])).toBe("Missing tool review lineage source: z");
  });

  it("a rename without a target inside the recipe root is invalid", () => {
    expect(errorOf([record("a")], [source("a", "evolve", "rename", "n")])).toBe("Invalid tool review target: a");
    expect(errorOf([record("a")], [source("a", "evolve", "rename", "n", "/elsewhere/n.json")])).toBe("Invalid tool review target: a");
    expect(errorOf([record("a"), record("b")], [source("a", "merge", "rename", "n"), source("b", "merge", "quarantine", "n")])).toBe("Invalid tool review target: a");
    expect(errorOf([record("a"), record("b")], [source("a", "merge", "rename", "n", "/elsewhere/n.json"), source("b", "merge", "quarantine", "n")])).toBe(
      "Invalid tool review target: a",
    );
  });

  it("a merge group needs a survivor and a second member", () => {
    expect(errorOf([record("a"), record("b")], [source("a", "merge", "quarantine", "n"), source("b", "merge", "quarantine", "n")])).toBe("Invalid merge lineage group: n");
    expect(errorOf([record("a")], [source("a", "merge", "none", "a")])).toBe("Invalid merge lineage group: a");
  });
});
