// A reviewer's reply is untrusted text: whatever JSON it holds, validation answers with errors or
// decisions and never throws. Objects with their own `toString` or `valueOf` (which make String()
// throw) are mixed in everywhere a value can go.
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { expect } from "vitest";
import type { JsonObject } from "../../../core/model.js";
import { captureBatch } from "../../../core/review/batch.js";
import { validateDecisions } from "../../../core/review/decide.js";
import { contentGroupOf } from "../../../core/review/projection.js";
import { capturePortfolio } from "../../../core/review/portfolio.js";
import { validatePortfolioDecisions } from "../../../core/review/portfolio-decide.js";
import { draftCandidate, toolCandidate } from "./fixtures.js";

const batch = captureBatch(Array.from({ length: 12 }, (_, i) => draftCandidate(i, {}, i)), [], "b-1", "t")!;
const thirtySix = Array.from({ length: 36 }, (_, i) => toolCandidate(i, {}));
const portfolio = capturePortfolio(thirtySix, thirtySix.map((t) => t.name), "review-1", "t")!;

const poison = fc.constantFrom<unknown>({ toString: 1 }, { valueOf: 1 }, { toString: {}, valueOf: [] });
const value = fc.oneof(fc.jsonValue(), poison);
const decisionKeys = ["draft", "source", "sha256", "action", "rationale", "target", "targetSha256", "recipe", "assessment"];
const decision = fc.oneof(value, fc.dictionary(fc.constantFrom(...decisionKeys), value));

test.prop([fc.array(decision, { maxLength: 14 }), fc.boolean()])("a hostile reply is refused with errors, never a throw", (decisions, keepIds) => {
  // half the time the decisions name real drafts and tools, so validation goes past the id check
  const named = keepIds
    ? decisions.map((d, i) => (typeof d === "object" && d !== null && !Array.isArray(d) ? { ...d, draft: batch.drafts[i % 12]!.occurrence, source: portfolio.tools[i % 36]!.occurrence } : d))
    : decisions;
  const draftReply = { batchId: "b-1", decisions: named } as unknown as JsonObject;
  const toolReply = { reviewId: "review-1", decisions: named } as unknown as JsonObject;
  expect(() => validateDecisions(batch, draftReply)).not.toThrow();
  expect(() => validatePortfolioDecisions(portfolio, toolReply)).not.toThrow();
});

test.prop([poison])("a poisoned field of an otherwise valid reply is one error naming it", (bad) => {
  for (const field of ["draft", "rationale", "target", "action"]) {
    const decisions = batch.drafts.map((d) => ({ draft: d.occurrence, sha256: contentGroupOf(batch, d), action: "discard", rationale: "one-off" }));
    (decisions[0] as Record<string, unknown>)[field] = bad;
    const r = validateDecisions(batch, { batchId: "b-1", decisions } as unknown as JsonObject);
    expect(E.isLeft(r), field).toBe(true);
  }
});
