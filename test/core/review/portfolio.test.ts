// The tool portfolio review's contract: eligibility and capture, the value-free projection, the
// reply grammar, decision validation (every error listed) and the approval plan (the golden
// tool-review cases of the recipe format, adapted where this registry differs: errors name occurrence ids, renames keep
// the source's bytes, merges need canonically identical members).
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../core/model.js";
import { approvalSha256, approve, parsePortfolioReply as parseTagged, validatePortfolioDecisions, type ApprovalPlan } from "../../../core/review/portfolio-decide.js";
import { replyErrorText } from "../../../core/review/reply.js";

import {
  capturePortfolio,
  contentGroups,
  eligibilityCount,
  eligibleTools,
  ineligibility,
  portfolioReviewerInput,
  portfolioSha256,
  projectPortfolio,
  type Portfolio,
  type ToolCandidate,
} from "../../../core/review/portfolio.js";
import { portfolioDecisions, toolCandidate } from "./fixtures.js";

/** the reply's error as the text the review records */
const parsePortfolioReply = (stdout: string) => E.mapLeft((e: Parameters<typeof replyErrorText>[1]) => replyErrorText("Tool", e))(parseTagged(stdout));

const tool = (i: number, extra: Partial<ToolCandidate> = {}): ToolCandidate => toolCandidate(i, extra);
const thirtySix = Array.from({ length: 36 }, (_, i) => tool(i));
const portfolio = capturePortfolio(thirtySix, [...thirtySix.map((t) => t.name), "outside_tool"], "review-1", "2026-02-01T00:00:00.000Z")!;

const decisionsFor = portfolioDecisions;
const reply = (p: Portfolio, overrides: Record<number, object> = {}): JsonObject => ({ reviewId: p.reviewId, decisions: decisionsFor(p, overrides) as unknown as JsonObject[] });

describe("eligibility and capture", () => {
  it("36 eligible tools make a portfolio, oldest lineage first; 35 do not", () => {
    expect(portfolio.tools.map((t) => t.name)).toEqual(thirtySix.map((t) => t.name));
    const shuffled = [...thirtySix].reverse();
    expect(capturePortfolio(shuffled, [], "r", "t")!.tools.map((t) => t.name)).toEqual(thirtySix.map((t) => t.name));
    expect(capturePortfolio(thirtySix.slice(1), [], "r", "t")).toBeUndefined();
    expect(eligibilityCount(thirtySix.slice(1))).toEqual({ eligible: 35, needed: 36 });
  });

  it("the same first_seen orders by name; the 37th waits", () => {
    const same = [...thirtySix, tool(36)].map((t) => ({ ...t, usage: { ...t.usage!, first_seen: "2026" } }));
    expect(capturePortfolio([...same].reverse(), [], "r", "t")!.tools.map((t) => t.name)).toEqual(thirtySix.map((t) => t.name));
  });

  it("nine sensitive tools leave 27 eligible and no capture (G37)", () => {
    const sensitive: JsonObject[] = [
      { defaults: { accessToken: "x" }, template: "echo {accessToken}" },
      { defaults: { clientSecret: "x" }, template: "echo {clientSecret}" },
      { defaults: { secretAccessKey: "x" }, template: "echo {secretAccessKey}" },
      { template: "echo '-----BEGIN OPENSSH PRIVATE KEY-----'" },
      { template: "cat ~/.aws/credentials" },
      { template: "echo AWS_SECRET_ACCESS_KEY" },
      { template: "vault kv get secret/production" },
      { template: `echo ghp_${"a".repeat(36)}` },
      { defaults: { api_key: "literal-secret" }, template: "echo {api_key}" },
    ];
    const tools = thirtySix.map((t, i) => (i < 9 ? { ...t, recipe: sensitive[i]! } : t));
    const eligible = eligibleTools(tools).map((t) => t.name);
    expect(eligible).toHaveLength(27);
    expect(eligible.some((n) => tools.slice(0, 9).some((t) => t.name === n))).toBe(false);
    expect(capturePortfolio(tools, [], "r", "t")).toBeUndefined();
  });

  it("a reviewed fingerprint waits for a content revision; lifetime usage goes on", () => {
    const reviewed = tool(0, { usage: { ...tool(0).usage!, reviewed_fingerprints: ["f0"] } });
    expect(ineligibility(reviewed)).toBe("reviewed");
    const revised = tool(0, { usage: { ...tool(0).usage!, fingerprint: "f0b", revision: 2, lifetime_calls: 9, reviewed_fingerprints: ["f0"] } });
    expect(ineligibility(revised)).toBeUndefined();
    const p = capturePortfolio([revised, ...thirtySix.slice(1)], [], "r", "t")!;
    expect(p.tools[0]!.usage).toEqual({ lifetime_calls: 9, revision: 2, revision_calls: 0, fingerprint: "f0b" });
  });

  it("invalid tools, tools without a lineage and unsafe tools are not reviewed", () => {
    expect(ineligibility(tool(0, { valid: false }))).toBe("invalid");
    const { usage: _u, ...noLineage } = tool(0);
    expect(ineligibility(noLineage)).toBe("no_lineage");
    expect(ineligibility(tool(0, { recipe: { template: "cat /tmp/x" } }))).toBe("unsafe");
    expect(ineligibility(tool(0, { riskLabels: ["risk.secret_touching"] }))).toBe("sensitive");
  });

  it("a tool another recipe imports or delegates to is not reviewed: its name is their contract", () => {
    expect(ineligibility(tool(0, { referenced: true }))).toBe("referenced");
    expect(ineligibility(tool(0, { referenced: false }))).toBeUndefined();
    const many = Array.from({ length: 37 }, (_, i) => tool(i, i === 0 ? { referenced: true } : {}));
    const p = capturePortfolio(many, [], "r", "t")!;
    expect(p.tools.map((t) => t.name)).not.toContain(many[0]!.name);
    expect(p.tools).toHaveLength(36);
  });
});

describe("projection", () => {
  it("shows ids, content groups, usage, risk labels and contract only (G67)", () => {
    const tools = projectPortfolio(portfolio)["tools"] as JsonObject[];
    expect(tools).toHaveLength(36);
    expect(tools[1]).toEqual({
      tool: "tool_02",
      sha256: "content_group_02",
      riskLabels: [],
      usage: { lifetime_calls: 1, revision: 1, revision_calls: 1 },
      contract: expect.objectContaining({ template_shape: { kind: "command", nodes: 1 } }),
    });
    const text = portfolioReviewerInput(portfolio);
    expect(text).not.toMatch(/echo|Tool 1|\/r\/|tool_00|"sha\d{1,2}"|outside_tool|"f\d+"/);
  });

  it("canonically identical tools share a content group; nothing else does", () => {
    const twin = tool(1, { recipe: { template: "echo 0", description: "Tool 0" }, sha256: "other-bytes" });
    const p = capturePortfolio([thirtySix[0]!, twin, ...thirtySix.slice(2)], [], "r", "t")!;
    const g = contentGroups(p);
    expect(g.get("tool_01")).toBe(g.get("tool_02"));
    expect(new Set(g.values()).size).toBe(35);
  });
});

describe("reply grammar", () => {
  it("takes the JSON object after the last marker, refuses everything else", () => {
    const obj = { reviewId: "review-1", decisions: [] };
    expect(parsePortfolioReply(`thinking TOOL_REVIEW_RESULT\nTOOL_REVIEW_RESULT\n${JSON.stringify(obj)}\n`)).toEqual(E.right(obj));
    expect(parsePortfolioReply(JSON.stringify(obj))).toEqual(E.left("Tool reviewer output marker is missing."));
    expect(parsePortfolioReply(`TOOL_REVIEW_RESULT\n${JSON.stringify(obj)}\ntrailing`)).toEqual(E.left("Tool reviewer output must end with one JSON object."));
    expect(parsePortfolioReply("TOOL_REVIEW_RESULT [1]")).toEqual(E.left("Tool reviewer output must end with one JSON object."));
    expect(parsePortfolioReply(`TOOL_REVIEW_RESULT\nhere it is: ${JSON.stringify(obj)}`)).toEqual(E.left("Tool reviewer output must end with one JSON object."));
    expect(parsePortfolioReply("TOOL_REVIEW_RESULT {1}")).toMatchObject(E.left(expect.stringMatching(/^Tool reviewer output must end with one JSON object \(/)));
    expect(parsePortfolioReply(`TOOL_REVIEW_RESULT ${"x".repeat(16 * 1024 * 1024)}`)).toEqual(E.left("Tool reviewer output exceeds the approval limit."));
  });
});

describe("decision validation", () => {
  it("all keep passes; an evolve to a new name passes; a merge of identical tools passes (G33)", () => {
    expect(E.isRight(validatePortfolioDecisions(portfolio, reply(portfolio)))).toBe(true);
    const evolved = validatePortfolioDecisions(portfolio, reply(portfolio, { 0: { action: "evolve", target: "renamed_tool" } }));
    expect(E.isRight(evolved) && evolved.right[0]).toMatchObject({ action: "evolve", target: "renamed_tool" });
    const twin = capturePortfolio([thirtySix[0]!, tool(1, { recipe: { description: "Tool 0", template: "echo 0" } }), ...thirtySix.slice(2)], [], "r", "t")!;
    const merged = validatePortfolioDecisions(twin, reply(twin, { 0: { action: "merge", target: "tool_01" }, 1: { action: "merge", target: "tool_01" } }));
    expect(E.isRight(merged) && merged.right.slice(0, 2).map((d) => d.target)).toEqual(["tool_00", "tool_00"]);
  });

  it("collects every fault: stale group, wrong counts, replace, missing decisions (G35)", () => {
    const first = { source: "tool_01", sha256: "stale", action: "replace", rationale: "x", assessment: { lifetimeCalls: 99, revisionCalls: 5 } };
    const r = validatePortfolioDecisions(portfolio, { reviewId: "review-1", decisions: [first, ...decisionsFor(portfolio).slice(1, 35)] as unknown as JsonObject[] });
    expect(E.isLeft(r) && r.left).toEqual([
      "reviewed tool changed: tool_01",
      "tool lifetime calls differ from lineage: tool_01",
      "tool revision calls differ from lineage: tool_01",
      "replace requires explicit operator-authored recipe mutation: tool_01",
      "missing tool decision: tool_36",
    ]);
  });

  it("refuses unknown actions, recipe content, bad targets and collisions, all listed", () => {
    const r = validatePortfolioDecisions(portfolio, {
      reviewId: "other",
      decisions: decisionsFor(portfolio, {
        0: { action: "promote" },
        1: { action: "evolve", target: "renamed", recipe: { template: "rm -rf /" } },
        2: { action: "evolve", template: "echo pwned", target: "x" },
        3: { action: "keep", target: "x" },
        4: { action: "evolve", target: "has space" },
        5: { action: "evolve", target: "tool_10" },
        6: { action: "evolve", target: "outside_tool" },
        7: { action: "evolve", target: "tool_08" },
        8: { action: "evolve", target: "twice" },
        9: { action: "evolve", target: "twice" },
        10: { action: "merge", target: "lonely" },
        11: { action: "split", rationale: " " },
        12: { action: "keep", extra: 1 },
        13: { action: "demote", assessment: { lifetimeCalls: -1, revisionCalls: 0 } },
      }) as unknown as JsonObject[],
    });
    expect(E.isLeft(r) && r.left).toEqual([
      "tool review identity mismatch",
      "invalid tool review action: tool_01",
      "tool review must not supply executable recipe content: tool_02",
      "tool review must not supply executable recipe content: tool_03",
      "keep declares a target: tool_04",
      "evolve requires a valid tool name target: tool_05",
      "evolve target collides with active tool: tool_10",
      "evolve target collides with active tool: outside_tool",
      "evolve must rename: tool_08",
      "duplicate tool review target: twice",
      "missing tool rationale: tool_12",
      "split requires explicit operator-authored recipe mutation: tool_12",
      "invalid tool decision shape: tool_13",
      expect.stringMatching(/^invalid tool assessment: tool_14 \(/),
      "merge target requires at least two sources: lonely",
      expect.stringMatching(/^\(an assessment is /),
    ]);
  });

  it("a merge of tools whose recipes differ, or onto an unrelated tool, is refused", () => {
    const r = validatePortfolioDecisions(portfolio, reply(portfolio, { 0: { action: "merge", target: "tool_05" }, 1: { action: "merge", target: "tool_05" } }));
    expect(E.isLeft(r) && r.left).toEqual(["merge target collides with unrelated active tool: tool_05", "merge target recipes differ: tool_05"]);
  });

  it("unknown sources and duplicates are named; a non-array stops", () => {
    const d = decisionsFor(portfolio);
    const r = validatePortfolioDecisions(portfolio, { reviewId: "review-1", decisions: [...d, d[0]!, { source: "tool_99" }, 7] as unknown as JsonObject[] });
    expect(E.isLeft(r) && r.left).toEqual(["duplicate tool decision: tool_01", "unknown reviewed tool: tool_99", "invalid tool decision shape"]);
    expect(validatePortfolioDecisions(portfolio, { reviewId: "x", decisions: {} })).toEqual(E.left(["tool review identity mismatch", "tool review decisions must be an array"]));
  });
});

describe("approval", () => {
  const roots = { recipeRoot: "/r", draftRoot: "/r/drafts" };
  const present = (p: Portfolio, extra: Record<string, string> = {}) => (path: string) => p.tools.find((t) => t.path === path)?.sha256 ?? extra[path];
  const approved = (p: Portfolio, overrides: Record<number, object>, observed = present(p)): ApprovalPlan => {
    const d = validatePortfolioDecisions(p, reply(p, overrides));
    if (E.isLeft(d)) throw new Error(d.left.join("; "));
    const plan = approve(p, portfolioSha256(p), d.right, roots, observed, "2026-02-02T00:00:00.000Z");
    if (E.isLeft(plan)) throw new Error(plan.left.join("; "));
    return plan.right;
  };

  it("evolve renames, demote goes to drafts, keep stays; 36 sources in portfolio order (G39)", () => {
    const plan = approved(portfolio, { 0: { action: "evolve", target: "renamed_tool" }, 1: { action: "demote" } });
    expect(plan.sources).toHaveLength(36);
    expect(plan.sources[0]).toEqual({ name: "tool_00", path: "/r/tool_00.json", sha256: "sha0", action: "evolve", rationale: "useful", lineage: "renamed_tool", move: "rename", to: "/r/renamed_tool.json" });
    expect(plan.sources[1]).toMatchObject({ action: "demote", lineage: "tool_01", move: "rename", to: "/r/drafts/tool_01.json" });
    expect(plan.sources.slice(2).every((s) => s.action === "keep" && s.move === "none")).toBe(true);
    expect(plan.portfolioSha256).toBe(portfolioSha256(portfolio));
    expect(approvalSha256(plan)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a merge keeps one survivor: the member named by the target, else the first renamed", () => {
    const twin = capturePortfolio([thirtySix[0]!, tool(1, { recipe: { description: "Tool 0", template: "echo 0" } }), tool(2, { recipe: { description: "Tool 0", template: "echo 0" } }), ...thirtySix.slice(3)], [], "r", "t")!;
    const onMember = approved(twin, { 0: { action: "merge", target: "tool_02" }, 1: { action: "merge", target: "tool_02" }, 2: { action: "merge", target: "tool_02" } });
    expect(onMember.sources.slice(0, 3).map((s) => [s.move, s.lineage])).toEqual([["quarantine", "tool_01"], ["none", "tool_01"], ["quarantine", "tool_01"]]);
    const onNew = approved(twin, { 0: { action: "merge", target: "echo_zero" }, 1: { action: "merge", target: "echo_zero" } });
    expect(onNew.sources.slice(0, 2).map((s) => [s.move, s.lineage, s.to])).toEqual([["rename", "echo_zero", "/r/echo_zero.json"], ["quarantine", "echo_zero", undefined]]);
  });

  it("refuses a tool changed since capture and a target that appeared, all listed", () => {
    const d = validatePortfolioDecisions(portfolio, reply(portfolio, { 0: { action: "evolve", target: "renamed_tool" }, 1: { action: "demote" } }));
    if (E.isLeft(d)) throw new Error("valid");
    const observed = (path: string) => (path === "/r/tool_05.json" ? "edited" : present(portfolio, { "/r/renamed_tool.json": "x", "/r/drafts/tool_01.json": "y" })(path));
    expect(approve(portfolio, "s", d.right, roots, observed, "t")).toEqual(
      E.left(["Reviewed tool changed after capture: tool_05", "Tool review target is taken: /r/renamed_tool.json (a file of that name is there; a review never replaces one)", "Tool review target is taken: /r/drafts/tool_01.json (a file of that name is there; a review never replaces one)"]),
    );
  });
});

describe("capture, exactly", () => {
  it("a tool with no recipe or no template is invalid; validity is asked before the lineage, the lineage before secrets", () => {
    const { recipe: _r, ...noRecipe } = tool(0);
    expect(ineligibility(noRecipe)).toBe("invalid");
    expect(ineligibility(tool(0, { recipe: { description: "d" } }))).toBe("invalid");
    const { usage: _u, ...noLineage } = tool(0, { valid: false });
    expect(ineligibility(noLineage)).toBe("invalid");
    const { usage: _v, ...secretNoLineage } = tool(0, { riskLabels: ["risk.secret_touching"] });
    expect(ineligibility(secretNoLineage)).toBe("no_lineage");
    expect(ineligibility(tool(0, { recipe: { template: "cat ~/.aws/credentials /tmp/x" } }))).toBe("sensitive");
  });

  it("the oldest lineage comes first whatever the names; names order only equal ages", () => {
    const aged = thirtySix.map((t, i) => ({ ...t, name: `z_${String(99 - i)}` }));
    expect(capturePortfolio([...aged].reverse(), [], "r", "t")!.tools.map((t) => t.name)).toEqual(aged.map((t) => t.name));
  });

  it("records each tool exactly, with usage counts that are whole and never negative", () => {
    const odd = tool(0, { riskLabels: ["risk.network"], usage: { ...tool(0).usage!, lifetime_calls: 1.5, revision: -1, revision_calls: 4 } });
    const p = capturePortfolio([odd, ...thirtySix.slice(1)], ["b_tool", "a_tool", "b_tool"], "r-9", "2026-03-01T00:00:00.000Z")!;
    expect(p.reviewId).toBe("r-9");
    expect(p.createdAt).toBe("2026-03-01T00:00:00.000Z");
    expect(p.activeTools).toEqual(["a_tool", "b_tool"]);
    expect(p.tools[0]).toStrictEqual({
      occurrence: "tool_01",
      name: "tool_00",
      path: "/r/tool_00.json",
      sha256: "sha0",
      riskLabels: ["risk.network"],
      recipe: { description: "Tool 0", template: "echo 0" },
      usage: { lifetime_calls: 0, revision: 0, revision_calls: 4, fingerprint: "f0" },
    });
    expect(p.tools.map((t) => t.occurrence).slice(8, 11)).toEqual(["tool_09", "tool_10", "tool_11"]);
    const projected = projectPortfolio(p);
    expect([projected["reviewId"], projected["createdAt"], projected["active_tool_count"]]).toEqual(["r-9", "2026-03-01T00:00:00.000Z", 2]);
    expect((projected["tools"] as JsonObject[])[0]!["riskLabels"]).toEqual(["risk.network"]);
  });

  it("a smaller size captures that many tools", () => {
    expect(capturePortfolio(thirtySix.slice(0, 3), [], "r", "t", 3)!.tools.map((t) => t.name)).toEqual(["tool_00", "tool_01", "tool_02"]);
    expect(capturePortfolio(thirtySix.slice(0, 2), [], "r", "t", 3)).toBeUndefined();
  });

  it("the reviewer reads the instructions, a blank line, then the projection as indented JSON", () => {
    const instructions = [
      "You review a portfolio of 36 persistent tools (command templates agents call) and decide how the portfolio should evolve.",
      "The JSON below describes each tool by structure and usage only. Treat tool ids and sha256 content groups as opaque and return them verbatim.",
      "Make exactly one decision per tool. The actions are:",
      '  "keep": the tool stays as it is;',
      '  "evolve": the tool is renamed to "target" (its content stays unchanged);',
      '  "demote": the tool leaves the tool set and becomes a draft again (its content stays unchanged);',
      '  "merge": tools with the same content group become one tool named "target" (a new name, or the id of one of them to keep that one).',
      "Never return recipe content. Do not run or change anything.",
      'Each decision: {"source": <tool id>, "sha256": <content group>, "action", "rationale" (non-empty),',
      '"assessment": {"lifetimeCalls": <usage.lifetime_calls>, "revisionCalls": <usage.revision_calls>}} and, for evolve and merge,',
      '"target": a tool name matching ^[A-Za-z0-9_-]{1,64}$.',
      'End your output with the line TOOL_REVIEW_RESULT followed by one JSON object: {"reviewId", "decisions": [...]}.',
    ].join("\n");
    expect(portfolioReviewerInput(portfolio)).toBe(`${instructions}\n\n${JSON.stringify(projectPortfolio(portfolio), null, 2)}\n`);
  });
});
