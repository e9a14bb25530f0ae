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
});
