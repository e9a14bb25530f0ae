// The draft review's capture: which drafts are eligible, their order, and the exact batch drafts
// (occurrence ids, promotability, bounded usage, suggested names) and active tools it records.
import { describe, expect, it } from "vitest";
import { captureBatch, eligibleDrafts, isEligible, UNCONFINED_DRAFT, type DraftCandidate } from "../../../core/review/batch.js";
import { draftCandidate } from "./fixtures.js";

const draft = (i: number, extra: Partial<DraftCandidate> = {}): DraftCandidate => draftCandidate(i, extra);
const twelve = Array.from({ length: 12 }, (_, i) => draft(i));
const named = (path: string): DraftCandidate => draft(0, { path, stem: path.slice(3) });

describe("eligibility", () => {
  it("the secret-touching label keeps a draft out, with or without a recipe", () => {
    expect(isEligible(draft(0, { riskLabels: ["risk.secret_touching"] }))).toBe(false);
    const { recipe: _, ...unloaded } = draft(0, { riskLabels: ["risk.secret_touching"] });
    expect(isEligible(unloaded)).toBe(false);
    const { recipe: __, ...plain } = draft(0, { riskLabels: ["risk.network"] });
    expect(isEligible(plain)).toBe(true);
  });

  it("a draft with no usage, or never demoted, is eligible; only a demotion of its current content waits", () => {
    const { usage: _, ...unused } = draft(0);
    expect(isEligible(unused)).toBe(true);
    expect(isEligible(draft(0, { usage: { lifetime_calls: 0, revision: 0, revision_calls: 0 } }))).toBe(true);
    expect(isEligible(draft(0, { usage: { lifetime_calls: 0, revision: 0, revision_calls: 0, demoted_fingerprint: "f0" } }))).toBe(true);
    expect(isEligible(draft(0, { usage: { lifetime_calls: 0, revision: 0, revision_calls: 0, fingerprint: "f0", demoted_fingerprint: "f0" } }))).toBe(false);
  });

  it("a secret scan finding keeps a draft out, an unsafe but secret-free one does not", () => {
    expect(isEligible(draft(0, { recipe: { template: "cat ~/.aws/credentials" } }))).toBe(false);
    expect(isEligible(draft(0, { recipe: { template: "cat /tmp/x" } }))).toBe(true);
  });
});

describe("file-name order", () => {
  it("a `.md` draft sorts right after the `.json` of its stem, before longer names", () => {
    const order = eligibleDrafts([named("/d/a.md"), named("/d/a.k.json"), named("/d/b.json"), named("/d/a.json")]).map((d) => d.path);
    expect(order).toEqual(["/d/a.json", "/d/a.md", "/d/a.k.json", "/d/b.json"]);
  });

  it("only a `.md` name moves: a stem with a dot in it keeps its place among the `.json` names", () => {
    // `a.j.md` (stem `a.j`) sorts as `a.j.json`, before `a.json`; `a.json` is no `.md` and stays as it is
    const order = eligibleDrafts([named("/d/a.json"), named("/d/a.j.md"), named("/d/a.md")]).map((d) => d.path);
    expect(order).toEqual(["/d/a.j.md", "/d/a.json", "/d/a.md"]);
  });

  it("takes the first twelve eligible drafts in that order", () => {
    const b = captureBatch([draft(12), ...twelve.slice().reverse(), draft(13, { riskLabels: ["risk.secret_touching"] })], [], "b", "t")!;
    expect(b.drafts.map((d) => d.stem)).toEqual(twelve.map((d) => d.stem));
  });
});

describe("the captured batch", () => {
  it("records its identity, the active tools once each in order, and drafts numbered draft_01 … draft_12", () => {
    const b = captureBatch(twelve, ["b_tool", "a_tool", "b_tool"], "b-7", "2026-01-01T00:00:00.000Z")!;
    expect(b.batchId).toBe("b-7");
    expect(b.createdAt).toBe("2026-01-01T00:00:00.000Z");
    expect(b.activeTools).toEqual(["a_tool", "b_tool"]);
    expect(b.drafts.map((d) => d.occurrence)).toEqual(["draft_01", "draft_02", "draft_03", "draft_04", "draft_05", "draft_06", "draft_07", "draft_08", "draft_09", "draft_10", "draft_11", "draft_12"]);
  });

  it("a safe, valid draft with a template is promotable and keeps its recipe", () => {
    const b = captureBatch([draft(0, { stem: "My Draft.v2", riskLabels: ["risk.network"], usage: { lifetime_calls: 3, revision: 2, revision_calls: 1 } }), ...twelve.slice(1)], [], "b", "t")!;
    expect(b.drafts[0]).toStrictEqual({
      occurrence: "draft_01",
      path: "/r/drafts/draft_00.json",
      stem: "My Draft.v2",
      sha256: "sha0",
      valid: true,
      promotable: true,
      riskLabels: ["risk.network"],
      recipe: { description: "Draft 0", template: "echo 0" },
      usage: { lifetime_calls: 3, revision: 2, revision_calls: 1 },
      suggestedName: "My_Draft_v2",
    });
  });

  it("an invalid draft keeps no recipe, an unsafe one records why, and neither, nor one without a template, is promotable", () => {
    const { recipe: _, ...unloaded } = draft(3);
    const b = captureBatch([draft(0, { valid: false }), draft(1, { recipe: { template: "cat /tmp/x" } }), draft(2, { recipe: { description: "d" } }), unloaded, ...twelve.slice(4)], [], "b", "t")!;
    const [invalid, unsafe, noTemplate, noRecipe] = b.drafts;
    expect(invalid).toMatchObject({ valid: false, promotable: false });
    expect(invalid).not.toHaveProperty("recipe");
    expect(invalid).not.toHaveProperty("unsafe");
    expect(unsafe).toMatchObject({ valid: true, promotable: false, unsafe: "temporary path", recipe: { template: "cat /tmp/x" } });
    expect(noTemplate).toMatchObject({ valid: true, promotable: false, recipe: { description: "d" } });
    expect(noTemplate).not.toHaveProperty("unsafe");
    expect(noRecipe).toMatchObject({ valid: true, promotable: false });
    expect(noRecipe).not.toHaveProperty("recipe");
    expect(captureBatch([draft(0, { valid: false, recipe: { template: "cat /tmp/x" } }), ...twelve.slice(1)], [], "b", "t")!.drafts[0]).toMatchObject({ promotable: false, unsafe: "temporary path" });
  });

  it("a draft that opts out of confinement (`sandbox: false`) is not promotable by a review; `sandbox: true` is", () => {
    const b = captureBatch([draft(0, { recipe: { template: "echo 0", sandbox: false } }), draft(1, { recipe: { template: "echo 1", sandbox: true } }), ...twelve.slice(2)], [], "b", "t")!;
    expect(b.drafts[0]).toMatchObject({ valid: true, promotable: false, unsafe: UNCONFINED_DRAFT });
    expect(b.drafts[1]).toMatchObject({ valid: true, promotable: true });
    expect(b.drafts[1]).not.toHaveProperty("unsafe");
  });

  it("usage counts are whole and never negative; missing or unusable ones count 0", () => {
    const usage = { lifetime_calls: 2.7, revision: -1, revision_calls: Number.POSITIVE_INFINITY } as const;
    const { usage: _, ...unused } = draft(1);
    const b = captureBatch([draft(0, { usage }), unused, draft(2, { usage: { lifetime_calls: Number.NaN, revision: 0, revision_calls: 5 } }), ...twelve.slice(3)], [], "b", "t")!;
    expect(b.drafts.slice(0, 3).map((d) => d.usage)).toStrictEqual([
      { lifetime_calls: 2, revision: 0, revision_calls: 0 },
      { lifetime_calls: 0, revision: 0, revision_calls: 0 },
      { lifetime_calls: 0, revision: 0, revision_calls: 5 },
    ]);
  });
});
