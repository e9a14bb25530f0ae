// The tool portfolio review's capture and what its reviewer sees. Thirty-six tools make a
// portfolio: the oldest lineages first (lineage `first_seen`, then name), among the active user
// tools whose current content no review has passed yet. A tool that touches secrets or is unsafe
// to act on automatically is never reviewed; a content revision (a new fingerprint) makes a
// reviewed tool eligible again. Like the draft review's, the projection is identity-opaque and
// value-free: occurrence ids (`tool_01` …), batch-local content groups that only tell which tools
// are canonically identical, counts, risk labels, bounded usage and the shape of the command
// graph; never a name, path, text or value.
import type { Json, JsonObject } from "../model.js";
import { canonicalJson } from "../ledger/canonical-json.js";
import { sha256Hex } from "../ledger/sha256.js";
import { contentGroupNames, contract } from "./projection.js";
import { findUnsafe, secretReason } from "./unsafe.js";
import { compareText } from "../text-order.js";

export const PORTFOLIO_SIZE = 36;

export interface ToolUsage {
  readonly lifetime_calls: number;
  readonly revision: number;
  readonly revision_calls: number;
  readonly fingerprint: string;
  /** the lineage's creation time: the portfolio's age key */
  readonly first_seen: string;
  readonly reviewed_fingerprints: readonly string[];
}

/** An active user tool as the runtime found it. */
export interface ToolCandidate {
  readonly name: string;
  readonly path: string;
  /** digest of the file's bytes */
  readonly sha256: string;
  readonly valid: boolean;
  readonly riskLabels: readonly string[];
  readonly recipe?: JsonObject;
  /** its lineage; a tool without one is not reviewed (yet) */
  readonly usage?: ToolUsage;
  /** another recipe of the root imports or delegates to it: its name is their contract, so a
   *  review never renames, demotes or merges it (it is not reviewed) */
  readonly referenced?: boolean;
}

export interface PortfolioTool {
  /** the opaque id the reviewer sees: tool_01 … tool_36 */
  readonly occurrence: string;
  readonly name: string;
  readonly path: string;
  readonly sha256: string;
  readonly riskLabels: readonly string[];
  readonly recipe: JsonObject;
  readonly usage: { readonly lifetime_calls: number; readonly revision: number; readonly revision_calls: number; readonly fingerprint: string };
}

export interface Portfolio {
  readonly reviewId: string;
  readonly createdAt: string;
  readonly tools: readonly PortfolioTool[];
  /** every tool name that exists at capture (targets must avoid the ones outside the portfolio) */
  readonly activeTools: readonly string[];
}

/** Why a tool is not eligible, or undefined when it is. */
export function ineligibility(c: ToolCandidate): string | undefined {
  if (!c.valid || c.recipe === undefined || c.recipe["template"] === undefined) return "invalid";
  if (c.usage === undefined) return "no_lineage";
  if (c.referenced === true) return "referenced";
  // the secret-touching label counts as a secret finding
  if (secretReason(c.recipe, c.riskLabels) !== undefined) return "sensitive";
  if (findUnsafe(c.recipe) !== undefined) return "unsafe";
  if (c.usage.reviewed_fingerprints.includes(c.usage.fingerprint)) return "reviewed";
  return undefined;
}

// only eligible tools are ordered, and an eligible tool has a lineage
const byAge = (a: ToolCandidate, b: ToolCandidate): number => compareText(a.usage!.first_seen, b.usage!.first_seen) || compareText(a.name, b.name);

export const eligibleTools = (candidates: readonly ToolCandidate[]): ToolCandidate[] =>
  candidates.filter((c) => ineligibility(c) === undefined).sort(byAge);

/** How far the portfolio is from a review: `eligible` of `needed`. */
export const eligibilityCount = (candidates: readonly ToolCandidate[]): { readonly eligible: number; readonly needed: number } => ({
  eligible: eligibleTools(candidates).length,
  needed: PORTFOLIO_SIZE,
});

const count = (n: number): number => (Number.isInteger(n) && n >= 0 ? n : 0);
const occurrence = (i: number): string => `tool_${String(i + 1).padStart(2, "0")}`;

/** The portfolio to review now: the 36 oldest eligible tools, or undefined while fewer are eligible.
 *  (`size` is smaller only where a test needs a small portfolio, e.g. to crash at every operation.) */
export function capturePortfolio(candidates: readonly ToolCandidate[], activeTools: readonly string[], reviewId: string, createdAt: string, size: number = PORTFOLIO_SIZE): Portfolio | undefined {
  const eligible = eligibleTools(candidates);
  if (eligible.length < size) return undefined;
  return {
    reviewId,
    createdAt,
    tools: eligible.slice(0, size).map((c, i) => ({
      occurrence: occurrence(i),
      name: c.name,
      path: c.path,
      sha256: c.sha256,
      riskLabels: [...c.riskLabels],
      recipe: c.recipe!,
      usage: { lifetime_calls: count(c.usage!.lifetime_calls), revision: count(c.usage!.revision), revision_calls: count(c.usage!.revision_calls), fingerprint: c.usage!.fingerprint },
    })),
    activeTools: [...new Set(activeTools)].sort(),
  };
}

/** The portfolio's identity: a digest of its canonical JSON, kept in the admission state. */
export const portfolioSha256 = (p: Portfolio): string => sha256Hex(canonicalJson(p as unknown as Json));

/** The canonical digest of a recipe: two tools with the same digest may merge. */
export const recipeDigest = (recipe: JsonObject): string => sha256Hex(canonicalJson(recipe));

/** content group per canonical recipe: canonically identical tools share one, nothing else is revealed */
export function contentGroups(p: Portfolio): Map<string, string> {
  const digests = p.tools.map((t) => recipeDigest(t.recipe));
  const names = contentGroupNames(digests);
  return new Map(p.tools.map((t, i) => [t.occurrence, names.get(digests[i]!)!]));
}

export function projectPortfolio(p: Portfolio): JsonObject {
  const groups = contentGroups(p);
  return {
    reviewId: p.reviewId,
    createdAt: p.createdAt,
    active_tool_count: p.activeTools.length,
    tools: p.tools.map((t) => ({
      tool: t.occurrence,
      sha256: groups.get(t.occurrence)!,
      riskLabels: [...t.riskLabels],
      usage: { lifetime_calls: t.usage.lifetime_calls, revision: t.usage.revision, revision_calls: t.usage.revision_calls },
      contract: contract(t.recipe),
    })),
  };
}

export const TOOL_REVIEW_MARKER = "TOOL_REVIEW_RESULT";

/** Instructions that travel with the projection to any reviewer. */
export const TOOL_REVIEW_INSTRUCTIONS = [
  "You review a portfolio of 36 persistent tools (command templates agents call) and decide how the portfolio should evolve.",
  "The JSON below describes each tool by structure and usage only. Treat tool ids and sha256 content groups as opaque and return them verbatim.",
  "Make exactly one decision per tool. The actions are:",
  "  \"keep\": the tool stays as it is;",
  "  \"evolve\": the tool is renamed to \"target\" (its content stays unchanged);",
  "  \"demote\": the tool leaves the tool set and becomes a draft again (its content stays unchanged);",
  "  \"merge\": tools with the same content group become one tool named \"target\" (a new name, or the id of one of them to keep that one).",
  "Never return recipe content. Do not run or change anything.",
  "Each decision: {\"source\": <tool id>, \"sha256\": <content group>, \"action\", \"rationale\" (non-empty),",
  "\"assessment\": {\"lifetimeCalls\": <usage.lifetime_calls>, \"revisionCalls\": <usage.revision_calls>}} and, for evolve and merge,",
  "\"target\": a tool name matching ^[A-Za-z0-9_-]{1,64}$.",
  `End your output with the line ${TOOL_REVIEW_MARKER} followed by one JSON object: {"reviewId", "decisions": [...]}.`,
].join("\n");

/** The text a reviewer gets: its instructions, then the projection. */
export const portfolioReviewerInput = (p: Portfolio): string => `${TOOL_REVIEW_INSTRUCTIONS}\n\n${JSON.stringify(projectPortfolio(p), null, 2)}\n`;
