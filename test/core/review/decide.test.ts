// Decision validation and the execution plan, fault by fault: every error text a reviewer's reply
// can earn, the assessment's bounds, the names given to unnamed promotions, and the exact plan.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { captureBatch, type DraftCandidate } from "../../../core/review/batch.js";
import { draftCandidate } from "./fixtures.js";
import { planOf, validateDecisions, type Decision } from "../../../core/review/decide.js";
import { contentGroupOf } from "../../../core/review/projection.js";
import { sha256Hex } from "../../../core/ledger/sha256.js";
import type { JsonObject } from "../../../core/model.js";

const draft = (i: number, extra: Partial<DraftCandidate> = {}): DraftCandidate => draftCandidate(i, extra, i);
const twelve = Array.from({ length: 12 }, (_, i) => draft(i));
const batchOf = (drafts: readonly DraftCandidate[], active: readonly string[] = []) => captureBatch(drafts, active, "b-1", "t")!;
const batch = batchOf(twelve, ["existing_tool"]);

/** a valid discard for every draft of the batch, with the given decisions replaced */
const reply = (b = batch, overrides: Record<number, object> = {}): JsonObject => ({
  batchId: "b-1",
  decisions: b.drafts.map((d, i) => ({ draft: d.occurrence, sha256: contentGroupOf(b, d), action: "discard", rationale: "one-off", ...overrides[i] })),
});
const errorsOf = (b: typeof batch, r: JsonObject): readonly string[] => {
  const v = validateDecisions(b, r);
  return E.isLeft(v) ? v.left : [];
};
const decisionsOf = (b: typeof batch, r: JsonObject): readonly Decision[] => {
  const v = validateDecisions(b, r);
  if (E.isLeft(v)) throw new Error(v.left.join("\n"));
  return v.right;
};
const targets = (b: typeof batch, overrides: Record<number, object>) => decisionsOf(b, reply(b, overrides)).map((d) => d.target);

describe("the reply's frame", () => {
  it("decisions that are not an array end validation, after the identity fault", () => {
    expect(errorsOf(batch, { batchId: "other", decisions: { draft_01: "discard" } })).toEqual(["review result batch identity mismatch", "review decisions must be an array"]);
    expect(errorsOf(batch, { batchId: "b-1" })).toEqual(["review decisions must be an array"]);
  });

  it.each([[null], [""], [[]], [7]])("a decision that is not an object (%j) is refused by shape", (item) => {
    const r = reply();
    (r["decisions"] as unknown[])[0] = item;
    expect(errorsOf(batch, r)).toEqual(["invalid review decision shape", "missing review decision: draft_01"]);
  });

  it("a decision with an unknown key is refused by shape and nothing else is checked in it", () => {
    expect(errorsOf(batch, reply(batch, { 0: { extra: 1, sha256: "stale" } }))).toEqual(["invalid review decision shape", "missing review decision: draft_01"]);
  });

  it("a decision naming no draft, or naming it with no string, is refused by shape", () => {
    const r = reply();
    (r["decisions"] as unknown[]).push({ action: "discard" }, { draft: 7, action: "discard" });
    expect(errorsOf(batch, r)).toEqual(["invalid review decision shape: draft must be a string", "invalid review decision shape: draft must be a string"]);
  });
});

describe("one decision's faults", () => {
  it.each([
    [{ rationale: "  " }, "missing review rationale: draft_01"],
    [{ rationale: 5 }, "missing review rationale: draft_01"],
    [{ rationale: undefined }, "missing review rationale: draft_01"],
    [{ action: "keep" }, "invalid review action: draft_01"],
    [{ action: undefined }, "invalid review action: draft_01"],
    [{ target: "x" }, "discard decision declares promotion fields: draft_01"],
    [{ targetSha256: null }, "discard decision declares promotion fields: draft_01"],
    [{ recipe: {} }, "discard decision declares promotion fields: draft_01"],
    [{ action: "promote", targetSha256: "abc" }, "promotion must bind an absent target: draft_01"],
    [{ action: "promote", target: 5 }, "promotion target is not a valid tool name: draft_01"],
    [{ action: "promote", target: "EXISTING_TOOL" }, "promotion target is not uniquely absent: EXISTING_TOOL"],
  ])("%j → %s", (override, error) => {
    expect(errorsOf(batch, reply(batch, { 0: override }))).toEqual([error]);
  });

  it("a promotion may bind its absent target with null", () => {
    expect(targets(batch, { 0: { action: "promote", target: "t", targetSha256: null } })[0]).toBe("t");
  });

  it("an invalid draft may only be discarded; a draft without a template is an incomplete recipe", () => {
    const invalid = batchOf([draft(0, { valid: false }), ...twelve.slice(1)]);
    expect(errorsOf(invalid, reply(invalid, { 0: { action: "promote" } }))).toEqual(["invalid draft may only be discarded: draft_01"]);
    const noTemplate = batchOf([draft(0, { recipe: { description: "d" } }), ...twelve.slice(1)]);
    expect(errorsOf(noTemplate, reply(noTemplate, { 0: { action: "promote" } }))).toEqual(["unsafe promotion source (incomplete recipe): draft_01"]);
  });

  it("two promotions may not share a target, whatever its case", () => {
    expect(errorsOf(batch, reply(batch, { 0: { action: "promote", target: "Tool" }, 1: { action: "promote", target: "tOOL" } }))).toEqual([
      "promotion target is not uniquely absent: tOOL",
    ]);
  });
});

describe("the assessment", () => {
  const assessed = (assessment: unknown, b = batch) => errorsOf(b, reply(b, { 1: { assessment } }));

  it("takes every known key with values in bounds", () => {
    expect(assessed({ launches: 1, flexibility: 0, futureUsefulness: 1, universality: 0.5, safety: "reads only" })).toEqual([]);
    expect(assessed({ launches: 0 }, batch)).toEqual(["assessment launch count differs from lineage: draft_02"]);
    expect(errorsOf(batch, reply(batch, { 0: { assessment: { launches: 0 } } }))).toEqual([]);
  });

  it.each([[null], [[]], [""], [5], [{ launches: 1, other: 1 }]])("%j is not an assessment", (a) => {
    expect(assessed(a)).toEqual(["invalid assessment shape: draft_02"]);
  });

  it.each([
    [{}],
    [{ launches: "1" }],
    [{ launches: 1.5 }],
    [{ launches: -1 }],
    [{ launches: 1, flexibility: -0.01 }],
    [{ launches: 1, flexibility: 1.01 }],
    [{ launches: 1, flexibility: "0.5" }],
    [{ launches: 1, futureUsefulness: Number.POSITIVE_INFINITY }],
    [{ launches: 1, futureUsefulness: 2 }],
    [{ launches: 1, universality: Number.NaN }],
    [{ launches: 1, universality: -1 }],
    [{ launches: 1, safety: " " }],
    [{ launches: 1, safety: 1 }],
  ])("%j has invalid values", (a) => {
    expect(assessed(a)).toEqual(["invalid assessment values: draft_02"]);
  });
});

describe("names for unnamed promotions", () => {
  it("the suggestion when free, else the first free `_n`, compared without case", () => {
    const b = batchOf(twelve, ["DRAFT_01", "draft_01_2", "Draft_02"]);
    expect(targets(b, { 1: { action: "promote" }, 2: { action: "promote" }, 3: { action: "promote" } }).slice(1, 4)).toEqual(["draft_01_3", "draft_02_2", "draft_03"]);
  });

  it("a reviewer's target takes the name first; unnamed drafts with one suggestion get distinct names", () => {
    const b = batchOf([draft(0, { stem: "My Tool" }), draft(1, { stem: "my.tool" }), ...twelve.slice(2)]);
    expect(targets(b, { 0: { action: "promote" }, 1: { action: "promote" }, 2: { action: "promote", target: "my_tool_3" } }).slice(0, 3)).toEqual(["My_Tool", "my_tool_2", "my_tool_3"]);
    expect(targets(b, { 0: { action: "promote" }, 1: { action: "promote" }, 2: { action: "promote", target: "MY_TOOL" } }).slice(0, 3)).toEqual(["My_Tool_2", "my_tool_3", "MY_TOOL"]);
  });

  it("a numbered name stays within 64 characters", () => {
    const long = "x".repeat(64);
    const taken = [long, ...Array.from({ length: 8 }, (_, k) => `${long.slice(0, 62)}_${k + 2}`)];
    const b = batchOf([draft(0, { stem: "x".repeat(80) }), draft(1, { stem: "x".repeat(70) }), ...twelve.slice(2)], taken.slice(0, 1));
    expect(targets(b, { 0: { action: "promote" }, 1: { action: "promote" } }).slice(0, 2)).toEqual([`${"x".repeat(62)}_2`, `${"x".repeat(62)}_3`]);
    const full = batchOf([draft(0, { stem: "x".repeat(80) }), ...twelve.slice(1)], taken);
    expect(targets(full, { 0: { action: "promote" } })[0]).toBe(`${"x".repeat(61)}_10`);
  });

  it("a name whose lineage outlives its tool (deleted, its history kept) is no target: refused when named, avoided when not", () => {
    const b = captureBatch(twelve, ["existing_tool"], "b-1", "t", ["gone_tool", "draft_01", "existing_tool"])!;
    // a name active as well is only active
    expect(b.formerNames).toEqual(["draft_01", "gone_tool"]);
    expect(errorsOf(b, reply(b, { 0: { action: "promote", target: "Gone_Tool" } }))).toEqual([
      "promotion target keeps the usage history of a former tool of that name (the draft's launches would not come along): Gone_Tool",
    ]);
    expect(errorsOf(b, reply(b, { 0: { action: "promote", target: "existing_tool" } }))).toEqual(["promotion target is not uniquely absent: existing_tool"]);
    expect(targets(b, { 1: { action: "promote" } })[1]).toBe("draft_01_2");
    expect(captureBatch(twelve, [], "b-1", "t")).not.toHaveProperty("formerNames");
  });

  it("a discard carries no target", () => {
    const [d] = decisionsOf(batch, reply(batch, { 0: { rationale: "dup", assessment: { launches: 0 } } }));
    expect(d).toStrictEqual({ draft: batch.drafts[0], action: "discard", rationale: "dup" });
  });
});

describe("the plan", () => {
  it("numbers every item, quarantines it by position and file name, and writes promotions as indented JSON", () => {
    const b = batchOf([...twelve.slice(0, 9), draft(9, { path: "/r/drafts/draft_09.md" }), ...twelve.slice(10)]);
    const plan = planOf(b, decisionsOf(b, reply(b, { 1: { action: "promote", rationale: "reused" }, 9: { action: "promote" } })), "/recipes");
    expect(plan.batchId).toBe("b-1");
    expect(plan.items).toHaveLength(12);
    const content = '{\n  "description": "Draft 1",\n  "template": "echo 1"\n}\n';
    expect(plan.items[0]).toStrictEqual({ position: 1, action: "discard", source: "/r/drafts/draft_00.json", sha256: "sha0", quarantine: "0001-draft_00.json", rationale: "one-off" });
    expect(plan.items[1]).toStrictEqual({
      position: 2,
      action: "promote",
      source: "/r/drafts/draft_01.json",
      sha256: "sha1",
      quarantine: "0002-draft_01.json",
      rationale: "reused",
      target: { name: "draft_01", path: "/recipes/draft_01.json", content, sha256: sha256Hex(content) },
    });
    expect(plan.items[9]).toMatchObject({ position: 10, quarantine: "0010-draft_09.md", target: { name: "draft_09", path: "/recipes/draft_09.json" } });
  });

  it("only a promotion with a target and a recipe has something to write", () => {
    const [first, second, third] = batchOf([draft(0, { valid: false }), ...twelve.slice(1)]).drafts;
    const plan = planOf(
      batch,
      [
        { draft: first!, action: "promote", rationale: "r", target: "t" },
        { draft: second!, action: "promote", rationale: "r" },
        { draft: third!, action: "discard", rationale: "r", target: "t" },
      ],
      "/recipes",
    );
    expect(plan.items.map((i) => "target" in i)).toEqual([false, false, false]);
  });
});
