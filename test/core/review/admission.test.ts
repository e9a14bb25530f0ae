// The draft review's admission state as read back from its file: only a state of a known phase
// with a well-formed batch id, digest and sources is believed (anything else reads as idle), and
// counts that are not whole non-negative numbers read as 0. A failure records its stage, its
// error and how to retry it; a batch is parked after three attempts of either kind.
import { describe, expect, it } from "vitest";
import { decodeState, failed, isParked, MAX_ATTEMPTS, moved, RETRY_ACTION } from "../../../core/review/admission.js";

const good = { phase: "captured", batchId: "b-1", batchSha256: "s", sources: ["/a"], updatedAt: "t" };

describe("reading the admission state", () => {
  it.each(["captured", "failed", "executing", "processing_failed", "completed"])("phase %s is known", (phase) => {
    expect(decodeState({ ...good, phase })?.phase).toBe(phase);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["a text", "captured"],
    ["an unknown phase", { ...good, phase: "idle" }],
    ["a phase that is not text", { ...good, phase: 1 }],
    ["a batch id with other characters", { ...good, batchId: "b 1" }],
    ["an empty batch id", { ...good, batchId: "" }],
    ["a batch id over 80 characters", { ...good, batchId: "b".repeat(81) }],
    ["a digest that is not text", { ...good, batchSha256: 1 }],
    ["sources that are not a list", { ...good, sources: "/a" }],
    ["a source that is not text", { ...good, sources: ["/a", 2] }],
  ])("%s reads as idle", (_what, raw) => expect(decodeState(raw)).toBeUndefined());

  it("a batch id of 80 characters is fine; counts are whole non-negative numbers, else 0; texts only when text", () => {
    expect(decodeState({ ...good, batchId: "b".repeat(80) })?.batchId).toHaveLength(80);
    expect(decodeState({ ...good, attempts: 2, processingAttempts: 1 })).toStrictEqual({ ...good, attempts: 2, processingAttempts: 1 });
    for (const bad of [-1, 1.5, "2", null]) expect(decodeState({ ...good, attempts: bad, processingAttempts: bad })).toMatchObject({ attempts: 0, processingAttempts: 0 });
    const { updatedAt: _u, ...noTime } = good;
    expect(decodeState(noTime)?.updatedAt).toBe("");
    expect(decodeState({ ...good, failedStage: "review_run", lastError: "boom", nextAction: "retry" })).toMatchObject({ failedStage: "review_run", lastError: "boom", nextAction: "retry" });
    expect(decodeState({ ...good, failedStage: 1, lastError: null })).not.toHaveProperty("failedStage");
  });
});

describe("failures and parking", () => {
  const captured = decodeState(good)!;

  it("a failure records its stage, error, time and the retry action; a move forgets them", () => {
    const f = failed(captured, "failed", "review_run", "boom", "t2");
    expect(f).toStrictEqual({ ...captured, phase: "failed", attempts: 1, failedStage: "review_run", lastError: "boom", nextAction: RETRY_ACTION, updatedAt: "t2" });
    expect(RETRY_ACTION).toBe('message to=tool:pi-actors type=review.retry body={"scope":"draft"}');
    expect(moved(f, "captured", "t3")).toStrictEqual({ ...captured, attempts: 1, phase: "captured", updatedAt: "t3" });
  });

  it("parked after three attempts of the failed kind, or three processing attempts", () => {
    expect(MAX_ATTEMPTS).toBe(3);
    let r = captured;
    let p = captured;
    const parked: boolean[][] = [];
    for (let i = 0; i < 4; i++) {
      r = failed(r, "failed", "review_run", "x", "t");
      p = failed(p, "processing_failed", "transaction", "x", "t");
      parked.push([isParked(r), isParked(p)]);
    }
    expect(parked).toEqual([[false, false], [false, false], [true, true], [true, true]]);
    // the count of the other kind does not park a phase
    expect(isParked({ ...captured, phase: "failed", processingAttempts: 3 })).toBe(false);
    expect(isParked({ ...captured, phase: "processing_failed", attempts: 3 })).toBe(false);
    expect(isParked({ ...captured, attempts: 3, processingAttempts: 3 })).toBe(false);
  });
});
