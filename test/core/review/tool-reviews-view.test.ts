// The tool review's part of view=reviews: a failure's texts are shown whole up to their limit
// (240 characters for the stage, 500 for the error and the retry action) and cut one character
// short of it with an ellipsis beyond, so the view stays bounded and never drops a text that fits.
import { describe, expect, it } from "vitest";
import { decodeToolState, toolFailed } from "../../../core/review/tool-admission.js";
import { toolReviewDetails } from "../../../core/review/tool-reviews-view.js";

const captured = decodeToolState({ phase: "captured", reviewId: "r-1", portfolioSha256: "s", tools: 36, updatedAt: "t" })!;

describe("the tool review's view of a failure", () => {
  it("texts at their limit are whole; one character over, they end in an ellipsis at the limit", () => {
    const at = toolReviewDetails(toolFailed(captured, "failed", "s".repeat(240), "e".repeat(500), "t"), undefined);
    expect(at).toMatchObject({ failed_stage: "s".repeat(240), last_error: "e".repeat(500) });
    const over = toolReviewDetails(toolFailed(captured, "failed", "s".repeat(241), "e".repeat(501), "t"), undefined);
    expect(over).toMatchObject({ failed_stage: `${"s".repeat(239)}…`, last_error: `${"e".repeat(499)}…` });
    expect(toolReviewDetails(undefined, undefined)).toEqual({ phase: "idle" });
  });

  it("evidence appears only with an activation record whose actions are counts by kind", () => {
    const approved = decodeToolState({ phase: "approved", reviewId: "r-1", portfolioSha256: "s", approvedSha256: "a", tools: 36, updatedAt: "t" })!;
    expect(toolReviewDetails(approved, undefined)).not.toHaveProperty("evidence");
    for (const actions of [undefined, null, "keep", ["keep"]]) expect(toolReviewDetails(approved, { actions } as never)).not.toHaveProperty("evidence");
    expect(toolReviewDetails(approved, { actions: { keep: 35, evolve: 1 }, at: "2026-01-01T00:00:00.000Z" })["evidence"]).toEqual({
      actions: { keep: 35, evolve: 1 },
      activated_at: "2026-01-01T00:00:00.000Z",
      lineage_phase: "committed",
    });
    expect(toolReviewDetails(approved, { actions: { keep: 36 } }, true)["evidence"]).toEqual({ actions: { keep: 36 }, activated_at: null, lineage_phase: "pending" });
  });
});
