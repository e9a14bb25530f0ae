// The draft review's part of `inspect target=recipes view=reviews` and the lineages it lists:
// bounded (failure texts cut at 240/500 characters, the last five review epochs and former names,
// at most 100 lineages), and a lineage whose record cannot be read is still listed by its file's
// name.
import { describe, expect, it } from "vitest";
import { decodeState, failed } from "../../../core/review/admission.js";
import { draftReviewDetails, LINEAGE_LIMIT, reviewsDetails } from "../../../core/review/reviews-view.js";

const captured = decodeState({ phase: "captured", batchId: "b-1", batchSha256: "s", sources: ["/a", "/b"], updatedAt: "t" })!;

describe("the draft review's view", () => {
  it("idle without a state; the state's counts; failure texts whole at their limit, cut beyond", () => {
    expect(draftReviewDetails(undefined, undefined)).toStrictEqual({ phase: "idle" });
    expect(draftReviewDetails(captured, undefined)).toStrictEqual({ phase: "captured", attempts: 0, processing_attempts: 0, batch_id: "b-1", sources: 2, updated_at: "t" });
    const at = draftReviewDetails({ ...failed(captured, "failed", "s".repeat(240), "e".repeat(500), "t2"), nextAction: "n".repeat(500) }, undefined);
    expect(at).toMatchObject({ failed_stage: "s".repeat(240), last_error: "e".repeat(500), next_action: "n".repeat(500), attempts: 1 });
    const over = draftReviewDetails({ ...failed(captured, "processing_failed", "s".repeat(241), "e".repeat(501), "t2"), nextAction: "n".repeat(501) }, undefined);
    expect(over).toMatchObject({ failed_stage: `${"s".repeat(239)}…`, last_error: `${"e".repeat(499)}…`, next_action: `${"n".repeat(499)}…`, processing_attempts: 1 });
  });

  it("evidence: the actions and the clean-up of reviewed sources, pending until it ran", () => {
    expect(draftReviewDetails(captured, { actions: { promote: 2, discard: 10 }, garbageCollection: { reviewedSources: 12, status: "completed" } })["evidence"]).toStrictEqual({
      actions: { promote: 2, discard: 10 },
      garbage_collection: { reviewed_sources: 12, status: "completed" },
      reviewed_sources: 12,
    });
    for (const gc of [undefined, null, "done", [1]]) {
      expect(draftReviewDetails(captured, { garbageCollection: gc } as never)["evidence"]).toStrictEqual({ actions: {}, garbage_collection: { reviewed_sources: 0, status: "pending" }, reviewed_sources: 0 });
    }
  });
});

describe("the lineages of the view", () => {
  const facts = (lineages: Parameters<typeof reviewsDetails>[0]["lineages"]) => ({ draft: { phase: "idle" }, lineageFiles: lineages.map((l) => l.file), lineages });

  it("a record's fields as written, the last five epochs and former names; absent fields left out", () => {
    const record = {
      lineage_name: "deploy",
      current_path: "deploy.json",
      lifetime_calls: 9,
      revision: 7,
      revision_calls: 2,
      demoted_at: "t",
      demoted_from_revision: 6,
      rollback_of_revision: 3,
      former_names: ["a", "b", "c", "d", "e", "f"],
      review_epochs: [1, 2, 3, 4, 5, 6, 7],
    };
    // every field but the name is shown as written, in this order
    const { lineage_name: _name, former_names: _former, review_epochs: _epochs, ...shown } = record;
    expect(reviewsDetails(facts([{ file: "deploy.json", record }])).lineages).toStrictEqual([
      { name: "deploy", ...shown, former_names: ["b", "c", "d", "e", "f"], review_epochs: [3, 4, 5, 6, 7] },
    ]);
    expect(reviewsDetails(facts([{ file: "x.json", record: { lineage_name: "x", former_names: [], review_epochs: "1" } }])).lineages).toStrictEqual([{ name: "x" }]);
  });

  it("a lineage without a readable record is named by its file (decoded, without .json)", () => {
    expect(reviewsDetails(facts([{ file: "my%20tool.json" }, { file: "a.json.json", record: { lineage_name: 5 } }, { file: "b.json.v2.json" }])).lineages).toStrictEqual([{ name: "my tool" }, { name: "a.json" }, { name: "b.json.v2" }]);
  });

  it("at most LINEAGE_LIMIT lineages, all counted; no tool review or snapshots read as idle and 0", () => {
    expect(LINEAGE_LIMIT).toBe(100);
    const many = Array.from({ length: 101 }, (_, i) => ({ file: `t${i}.json`, record: { lineage_name: `t${i}` } }));
    const view = reviewsDetails(facts(many));
    expect(view.lineages).toHaveLength(100);
    expect(view.lineage_count).toBe(101);
    expect(view.tool_review).toStrictEqual({ phase: "idle" });
    expect(view.revision_snapshots).toBe(0);
    expect(view.draft_review).toStrictEqual({ phase: "idle" });
    expect(reviewsDetails({ ...facts([]), tool: { phase: "approved" }, revisionSnapshots: 4 })).toMatchObject({ tool_review: { phase: "approved" }, revision_snapshots: 4 });
  });
});
