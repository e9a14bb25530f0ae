import { describe, expect, it } from "vitest";
import { isRight } from "fp-ts/lib/Either.js";
import { LedgerRecord } from "../../../core/ledger/codec.js";
import { appendBounded, appendCapped, LEDGER_LIMITS } from "../../../core/ledger/bounds.js";
import { freshLedger, launched, moved, moveType, RESET_REASON, revise, reviewed, rolledBack } from "../../../core/ledger/transitions.js";
import { allocateId, ledgerFileName, lineageName, pathKey } from "../../../core/ledger/keys.js";

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T03:04:05.000Z";
const T2 = "2026-01-03T03:04:05.000Z";
const fresh = freshLedger({ name: "docs_review", key: "docs_review.json", fingerprint: "f1", at: T0 });

describe("fresh lineage", () => {
  it("has zero calls, revision 1 and a created event: no fabricated launch", () => {
    expect(fresh).toEqual({
      lineage_name: "docs_review",
      current_path: "docs_review.json",
      fingerprint: "f1",
      first_seen: T0,
      last_seen: T0,
      lifetime_calls: 0,
      calls: 0,
      revision: 1,
      revision_calls: 0,
      revisions: [{ revision: 1, fingerprint: "f1", first_seen: T0 }],
      former_names: [],
      former_paths: [],
      events: [{ at: T0, type: "created" }],
      review_epochs: [],
      reviewed_fingerprints: [],
    });
    expect(isRight(LedgerRecord.decode(fresh))).toBe(true);
  });
});

describe("launch", () => {
  it("adds one to lifetime, calls and revision_calls and stamps the launch times", () => {
    const one = launched(fresh, { fingerprint: "f1", at: T1 });
    const two = launched(one, { fingerprint: "f1", at: T2 });
    expect(two).toMatchObject({ lifetime_calls: 2, calls: 2, revision_calls: 2, revision: 1, first_launch_at: T1, last_launch_at: T2, last_called: T2 });
    expect(two.events.map((e) => e.type)).toEqual(["created"]);
  });

  it("a hand-edited ledger whose calls and lifetime_calls differ goes on from the larger", () => {
    expect(launched({ ...fresh, lifetime_calls: 3, calls: 7 }, { fingerprint: "f1", at: T1 })).toMatchObject({ lifetime_calls: 8, calls: 8 });
    expect(launched({ ...fresh, lifetime_calls: 9, calls: 2 }, { fingerprint: "f1", at: T1 })).toMatchObject({ lifetime_calls: 10, calls: 10 });
  });

  it("says in the ledger why a revision restarted its calls", () => {
    expect(launched(fresh, { fingerprint: "f2", at: T1 }).reset_reason).toBe("recipe content fingerprint changed");
  });

  it("an out-of-order older launch keeps the later last_launch_at", () => {
    const r = launched(launched(fresh, { fingerprint: "f1", at: T2 }), { fingerprint: "f1", at: T1 });
    expect(r).toMatchObject({ last_launch_at: T2, first_launch_at: T1, lifetime_calls: 2 });
  });

  it("after a content change: a new revision whose calls restart while lifetime continues", () => {
    const before = launched(launched(fresh, { fingerprint: "f1", at: T1 }), { fingerprint: "f1", at: T1 });
    const after = launched(before, { fingerprint: "f2", at: T2 });
    expect(after).toMatchObject({ lifetime_calls: 3, calls: 3, revision: 2, revision_calls: 1, fingerprint: "f2", reset_at: T2, reset_reason: RESET_REASON });
    expect(after.revisions).toEqual([
      { revision: 1, fingerprint: "f1", first_seen: T0 },
      { revision: 2, fingerprint: "f2", first_seen: T2 },
    ]);
    expect(after.events.map((e) => e.type)).toEqual(["created", "revised"]);
  });
});

describe("revision without a launch", () => {
  it("is a no-op for the same fingerprint and resets only revision counters otherwise", () => {
    const used = launched(fresh, { fingerprint: "f1", at: T1 });
    expect(revise(used, "f1", T2)).toBe(used);
    expect(revise(used, "f2", T2)).toMatchObject({ lifetime_calls: 1, calls: 1, revision_calls: 0, revision: 2, last_launch_at: T1 });
  });
});

describe("moves", () => {
  it("rename keeps history and the former name and path", () => {
    const used = launched(fresh, { fingerprint: "f1", at: T1 });
    const r = moved(used, { name: "docs", key: "docs.json", type: "renamed", at: T2 });
    expect(r).toMatchObject({ lineage_name: "docs", current_path: "docs.json", lifetime_calls: 1, former_names: ["docs_review"], former_paths: ["docs_review.json"] });
    expect(r.events.at(-1)).toEqual({ at: T2, type: "renamed", from: "docs_review.json", to: "docs.json" });
  });

  it("a new name at the same path keeps the former name only", () => {
    const r = moved(fresh, { name: "docs", key: "docs_review.json", type: "renamed", at: T1 });
    expect(r).toMatchObject({ lineage_name: "docs", current_path: "docs_review.json", former_names: ["docs_review"], former_paths: [] });
    expect(r.events.at(-1)).toEqual({ at: T1, type: "renamed", from: "docs_review.json", to: "docs_review.json" });
    expect(moved(fresh, { name: "docs_review", key: "docs_review.json", type: "renamed", at: T1 })).toBe(fresh);
  });

  it("a move to the same name keeps former_names as they were", () => {
    const r = moved(fresh, { name: "docs_review", key: "drafts/docs_review.json", type: "demoted", at: T1 });
    expect(r.former_names).toEqual([]);
    expect(r.former_paths).toEqual(["docs_review.json"]);
  });

  it("names moves by where they go", () => {
    expect(moveType("drafts/a.json", "a.json", "a", "a")).toBe("promoted");
    expect(moveType("a.json", "drafts/a.json", "a", "a")).toBe("demoted");
    expect(moveType("a.json", "b.json", "a", "b")).toBe("renamed");
    expect(moveType("a.json", "a.md", "a", "a")).toBe("moved");
  });
});

describe("reviews and rollbacks", () => {
  it("a review epoch is recorded once", () => {
    const r = reviewed(reviewed(fresh, "draft-review-001", T1), "draft-review-001", T2);
    expect(r.review_epochs).toEqual(["draft-review-001"]);
    expect(r.reviewed_fingerprints).toEqual(["f1"]);
    expect(r.events.map((e) => e.type)).toEqual(["created", "reviewed"]);
  });

  it("a rollback is a revision with its marker", () => {
    const r = rolledBack(revise(fresh, "f2", T1), { revision: 1, fingerprint: "f1", at: T2 });
    expect(r).toMatchObject({ revision: 3, rollback_of_revision: 1, fingerprint: "f1" });
    expect(r.events.map((e) => e.type)).toEqual(["created", "revised", "revised", "rolled_back"]);
  });
});

describe("bounds", () => {
  it("every list stays within its limit", () => {
    let r = fresh;
    for (let i = 0; i < 300; i++) {
      r = launched(r, { fingerprint: `f${i}`, at: T1 });
      r = moved(r, { name: `n${i}`, key: `n${i}.json`, type: "renamed", at: T1 });
      r = reviewed(r, `e${i}`, T1);
    }
    expect(r.former_names).toHaveLength(LEDGER_LIMITS.formerNames);
    expect(r.former_paths).toHaveLength(LEDGER_LIMITS.formerPaths);
    expect(r.events).toHaveLength(LEDGER_LIMITS.events);
    expect(r.revisions).toHaveLength(LEDGER_LIMITS.revisions);
    expect(r.review_epochs).toHaveLength(LEDGER_LIMITS.reviewEpochs);
    expect(r.reviewed_fingerprints).toHaveLength(LEDGER_LIMITS.reviewedFingerprints);
    expect(r.lifetime_calls).toBe(300);
    expect(r.former_names.at(-1)).toBe("n298");
  });

  it("bounded append moves a repeated value to the end; capped append keeps duplicates", () => {
    expect(appendBounded(["a", "b", "c"], "a", 3)).toEqual(["b", "c", "a"]);
    expect(appendBounded(["a", "b", "c"], "d", 3)).toEqual(["b", "c", "d"]);
    expect(appendCapped(["a", "a"], "a", 2)).toEqual(["a", "a"]);
    expect(appendBounded(["a", "b"], "a", 5)).toEqual(["b", "a"]);
    expect(appendCapped(["a", "b"], "a", 5)).toEqual(["a", "b", "a"]);
  });
});

describe("keys", () => {
  it("path keys are relative to the root; outside paths and the store itself have none", () => {
    expect(pathKey("/a/recipes", "/a/recipes/x.json")).toBe("x.json");
    expect(pathKey("/a/recipes/", "/a/recipes/drafts/x.md")).toBe("drafts/x.md");
    expect(pathKey("/a/recipes", "/a/recipes-old/x.json")).toBeUndefined();
    expect(pathKey("/a/recipes", "/pkg/recipes/x.json")).toBeUndefined();
    expect(pathKey("/a/recipes", "/a/recipes/../x.json")).toBeUndefined();
    expect(pathKey("/a/recipes", "/a/recipes/.usage/recipes/x.json")).toBeUndefined();
  });

  it("empty and dot segments, and the root itself, have no path key", () => {
    expect(pathKey("/a/recipes", "/a/recipes/./x.json")).toBeUndefined();
    expect(pathKey("/a/recipes", "/a/recipes//x.json")).toBeUndefined();
    expect(pathKey("/a/recipes", "/a/recipes/")).toBeUndefined();
    expect(pathKey("/a/recipes", "/a/recipes/sub/.usage/x.json")).toBe("sub/.usage/x.json");
  });

  it("a bare extension is a name of its own; only the last extension goes", () => {
    expect(lineageName(".json")).toBe(".json");
    expect(lineageName("drafts/.md")).toBe(".md");
    expect(lineageName("a.json.md")).toBe("a.json");
    expect(lineageName("notes.txt")).toBe("notes.txt");
    expect(lineageName("x.json")).toBe("x");
  });

  it("a free name is its own id; a hidden name's file does not start with a dot", () => {
    expect(allocateId("x", () => false)).toBe("x");
    expect(allocateId("x", (id) => id === "x")).toBe("x/2");
    expect(ledgerFileName(".hidden")).toBe("%2Ehidden.json");
    expect(ledgerFileName("a.b")).toBe("a.b.json");
  });

  it("names, file names and ids", () => {
    expect(lineageName("drafts/memory.json")).toBe("memory");
    expect(lineageName("memory.md")).toBe("memory");
    expect(ledgerFileName("a b/2")).toBe("a%20b%2F2.json");
    expect(ledgerFileName("..")).toBe("%2E..json");
    expect(allocateId("x", (id) => id === "x" || id === "x/2")).toBe("x/3");
  });
});
