// The portfolio review's admission state: decoding, failures and their limit, and the operator's
// controls, where every phase leads somewhere (retry back to captured or approved, reset of any
// terminal phase).
import { describe, expect, it } from "vitest";
import { decodeToolState, isToolParked, mayCapture, toolControl, toolFailed, toolMoved, TOOL_RETRY_ACTION } from "../../../core/review/tool-admission.js";

const captured = decodeToolState({ phase: "captured", reviewId: "r-1", portfolioSha256: "s", tools: 36, updatedAt: "t" })!;
const approved = toolMoved(captured, "approved", "t1", { approvedSha256: "a" });

describe("tool review admission", () => {
  it("decodes a state, refuses a broken one, and an approved state needs its plan digest", () => {
    expect(captured).toEqual({ phase: "captured", reviewId: "r-1", portfolioSha256: "s", tools: 36, attempts: 0, processingAttempts: 0, updatedAt: "t" });
    expect(decodeToolState({ phase: "launched", reviewId: "r", portfolioSha256: "s" })).toBeUndefined();
    expect(decodeToolState({ phase: "captured", reviewId: "../x", portfolioSha256: "s" })).toBeUndefined();
    expect(decodeToolState({ phase: "approved", reviewId: "r", portfolioSha256: "s" })).toBeUndefined();
    expect(decodeToolState(JSON.parse(JSON.stringify(approved)))).toEqual(approved);
    // a state written without its time reads with an empty one; counts that are not whole
    // non-negative numbers read as 0
    expect(decodeToolState({ phase: "captured", reviewId: "r", portfolioSha256: "s", tools: -3, attempts: 1.5 })).toStrictEqual({
      phase: "captured", reviewId: "r", portfolioSha256: "s", tools: 0, attempts: 0, processingAttempts: 0, updatedAt: "",
    });
  });

  it("three failures park a review; the failure names the retry action", () => {
    let s = captured;
    for (let i = 0; i < 3; i++) s = toolFailed(s, "failed", "review_run", "boom", "t");
    expect(s).toMatchObject({ phase: "failed", attempts: 3, failedStage: "review_run", lastError: "boom", nextAction: TOOL_RETRY_ACTION });
    expect(isToolParked(s)).toBe(true);
    expect(isToolParked(toolFailed(captured, "failed", "x", "y", "t"))).toBe(false);
    expect(TOOL_RETRY_ACTION).toBe('message to=tool:pi-actors type=review.retry body={"scope":"tool"}');
  });

  it("a new capture only replaces nothing or a completed review", () => {
    expect(mayCapture(undefined)).toBe(true);
    expect(mayCapture(toolMoved(approved, "completed", "t"))).toBe(true);
    for (const s of [captured, approved, toolFailed(captured, "failed", "x", "y", "t")]) expect(mayCapture(s)).toBe(false);
  });

  it("retry leads a failed review to captured and a failed activation back to its approved plan", () => {
    const failed = toolFailed(captured, "failed", "result_validation", "bad", "t");
    expect(toolControl("review.retry", failed, "t2")).toMatchObject({ changed: true, phase: "captured", previous_phase: "failed", next: { phase: "captured", attempts: 0 } });
    const activation = toolFailed(approved, "processing_failed", "activation", "edited", "t");
    const retried = toolControl("review.retry", activation, "t2");
    expect(retried).toMatchObject({ changed: true, phase: "approved", next: { phase: "approved", approvedSha256: "a", processingAttempts: 0 } });
    expect(retried.next).not.toHaveProperty("lastError");
    // only an activation that failed has an approved plan to go back to: a review that failed
    // (even after an approval was recorded) and a processing failure before approval start over
    expect(toolControl("review.retry", toolFailed(approved, "failed", "result_validation", "bad", "t"), "t2")).toMatchObject({ changed: true, phase: "captured" });
    expect(toolControl("review.retry", toolFailed(captured, "processing_failed", "approval", "edited", "t"), "t2")).toMatchObject({ changed: true, phase: "captured" });
    expect(toolControl("review.retry", approved, "t")).toEqual({ changed: false, phase: "approved", reason: "review_state_not_retryable" });
    expect(toolControl("review.retry", undefined, "t")).toEqual({ changed: false, phase: "idle", reason: "review_state_unavailable" });
  });

  it("with no reviewer allowed, retry still carries out an approved plan again, and changes nothing that would need the reviewer", () => {
    const activation = toolFailed(approved, "processing_failed", "activation", "edited", "t");
    expect(toolControl("review.retry", activation, "t2", false)).toMatchObject({ changed: true, phase: "approved" });
    const failed = toolFailed(captured, "failed", "result_validation", "bad", "t");
    expect(toolControl("review.retry", failed, "t2", false)).toEqual({ changed: false, phase: "failed", reason: "review_disabled" });
  });

  it("reset forgets any terminal review, never one that is captured or approved", () => {
    for (const s of [toolFailed(captured, "failed", "x", "y", "t"), toolFailed(approved, "processing_failed", "activation", "y", "t"), toolMoved(approved, "completed", "t")])
      expect(toolControl("review.reset", s, "t")).toEqual({ changed: true, phase: "idle", previous_phase: s.phase, next: null });
    expect(toolControl("review.reset", captured, "t")).toEqual({ changed: false, phase: "captured", reason: "review_state_not_terminal" });
    expect(toolControl("review.reset", approved, "t")).toEqual({ changed: false, phase: "approved", reason: "review_state_not_terminal" });
  });
});
