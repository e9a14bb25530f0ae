// Candidates the review tests capture: a draft (numbered, under /r/drafts) and a tool of the
// portfolio (numbered, under /r), each loadable and safe unless a test says otherwise.
import type { DraftCandidate } from "../../../core/review/batch.js";
import type { JsonObject } from "../../../core/model.js";
import { contentGroups, type Portfolio, type ToolCandidate } from "../../../core/review/portfolio.js";

const two = (i: number): string => String(i).padStart(2, "0");

/** `draft_<i>` with one launch (or `lifetimeCalls`), its own digest and fingerprint */
export const draftCandidate = (i: number, extra: Partial<DraftCandidate> = {}, lifetimeCalls = 1): DraftCandidate => ({
  path: `/r/drafts/draft_${two(i)}.json`,
  stem: `draft_${two(i)}`,
  sha256: `sha${i}`,
  valid: true,
  riskLabels: [],
  recipe: { description: `Draft ${i}`, template: `echo ${i}` },
  usage: { lifetime_calls: lifetimeCalls, revision: 1, revision_calls: 1, fingerprint: `f${i}` },
  ...extra,
});

export const toolName = (i: number): string => `tool_${two(i)}`;

/** `tool_<i>`: i lifetime launches, i mod 3 in this revision, first seen i seconds into 2026 */
export const toolCandidate = (i: number, extra: Partial<ToolCandidate> = {}): ToolCandidate => ({
  name: toolName(i),
  path: `/r/${toolName(i)}.json`,
  sha256: `sha${i}`,
  valid: true,
  riskLabels: [],
  recipe: { description: `Tool ${i}`, template: `echo ${i}` },
  usage: { lifetime_calls: i, revision: 1, revision_calls: i % 3, fingerprint: `f${i}`, first_seen: `2026-01-01T00:00:${two(i)}.000Z`, reviewed_fingerprints: [] },
  ...extra,
});

/** A portfolio reviewer's decisions: keep every tool, with its usage as the assessment, except
 *  where `overrides` (by position) says otherwise. */
export const portfolioDecisions = (p: Portfolio, overrides: Record<number, object> = {}) =>
  p.tools.map((t, i) => ({
    source: t.occurrence,
    sha256: contentGroups(p).get(t.occurrence) ?? "",
    action: "keep",
    rationale: "useful",
    assessment: { lifetimeCalls: t.usage.lifetime_calls, revisionCalls: t.usage.revision_calls },
    ...overrides[i],
  }));

export const portfolioReply = (p: Portfolio, overrides: Record<number, object> = {}): JsonObject => ({
  reviewId: p.reviewId,
  decisions: portfolioDecisions(p, overrides) as unknown as JsonObject[],
});
