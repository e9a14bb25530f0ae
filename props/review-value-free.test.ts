// What a reviewer sees is value-free: whatever a recipe carries (template text, defaults,
// argument names and descriptions, description, imports, paths, env, numbers) and whatever its
// file is called, none of it appears in the projection or in the prompt a reviewer is given.
// Generated recipes carry a marker in every field; no marker may come out.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { captureBatch, type DraftCandidate } from "../core/review/batch.js";
import { capturePortfolio, portfolioReviewerInput, projectPortfolio, type ToolCandidate } from "../core/review/portfolio.js";
import { project } from "../core/review/projection.js";
import { reviewerInput } from "../runtime/review/cycle.js";
import { leaks, markedRecipe, markedStem, marker } from "./support/marked-recipes.js";
import { numRuns } from "./support/runs.js";

const drafts = fc
  .array(fc.tuple(fc.nat(), fc.boolean(), fc.array(fc.constantFrom("risk.shell", "risk.network"), { maxLength: 2 })), { minLength: 12, maxLength: 14 })
  .chain((rows) =>
    fc.tuple(...rows.map(([, valid, riskLabels], i) =>
      markedRecipe(i).map((recipe): DraftCandidate => ({
        path: `/agent/recipes/drafts/${markedStem(i)}.json`,
        stem: markedStem(i),
        sha256: marker("sha", i),
        valid,
        riskLabels,
        recipe,
        usage: { lifetime_calls: i, revision: 1, revision_calls: i % 3, fingerprint: marker("fingerprint", i) },
      })),
    )),
  );

describe("the draft review's projection and prompt", () => {
  test.prop([drafts], { numRuns: numRuns(60) })("carry no marker of any recipe field, name or path", (candidates) => {
    const batch = captureBatch(candidates, [marker("activetool", 0)], "batch-1", "2026-01-01T00:00:00.000Z");
    expect(batch).toBeDefined();
    expect(leaks(JSON.stringify(project(batch!)))).toEqual([]);
    expect(leaks(reviewerInput(batch!))).toEqual([]);
  });
});

const tools = fc.array(fc.array(fc.constantFrom("risk.shell", "risk.network"), { maxLength: 2 }), { minLength: 36, maxLength: 38 }).chain((rows) =>
  fc.tuple(...rows.map((riskLabels, i) =>
    markedRecipe(i).map((recipe): ToolCandidate => ({
      name: markedStem(i),
      path: `/agent/recipes/${markedStem(i)}.json`,
      sha256: marker("sha", i),
      valid: true,
      riskLabels,
      recipe,
      usage: { lifetime_calls: i, revision: 1 + (i % 2), revision_calls: i % 3, fingerprint: marker("fingerprint", i), first_seen: marker("firstseen", i), reviewed_fingerprints: [marker("reviewed", i)] },
    })),
  )),
);

describe("the portfolio review's projection and prompt", () => {
  test.prop([tools], { numRuns: numRuns(30) })("carry no marker of any recipe field, name or path", (candidates) => {
    const portfolio = capturePortfolio(candidates, [...candidates.map((c) => c.name), marker("activetool", 0)], "review-1", "2026-01-01T00:00:00.000Z");
    expect(portfolio).toBeDefined();
    expect(leaks(JSON.stringify(projectPortfolio(portfolio!)))).toEqual([]);
    expect(leaks(portfolioReviewerInput(portfolio!))).toEqual([]);
  });
});
