// The portfolio reviewer's decisions and the approval plan, fault by fault: every error text, the
// assessment's bounds, target names compared without case, merge groups, the plan's exact
// sources and its size limit.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../core/model.js";
import { APPROVAL_LIMIT, ASSESSMENT_SHAPE, approve, parsePortfolioReply, validatePortfolioDecisions, type ToolDecision } from "../../../core/review/portfolio-decide.js";
import { capturePortfolio, type Portfolio, type ToolCandidate } from "../../../core/review/portfolio.js";
import { portfolioReply, toolCandidate } from "./fixtures.js";

const tool = (i: number, extra: Partial<ToolCandidate> = {}): ToolCandidate => toolCandidate(i, extra);
const thirtySix = Array.from({ length: 36 }, (_, i) => tool(i));
const portfolio = capturePortfolio(thirtySix, [...thirtySix.map((t) => t.name), "outside_tool"], "review-1", "t")!;
const same = { description: "Same", template: "echo same" };
/** tools 0–3 share one recipe (so they may merge), tool 3 is a `.md` file */
const twins = capturePortfolio(
  [tool(0, { recipe: same }), tool(1, { recipe: same }), tool(2, { recipe: same }), tool(3, { recipe: same, path: "/r/tool_03.md" }), ...thirtySix.slice(4)],
  ["outside_tool"],
  "review-1",
  "t",
)!;

const reply = portfolioReply;
const errorsOf = (p: Portfolio, r: JsonObject): readonly string[] => {
  const v = validatePortfolioDecisions(p, r);
  return E.isLeft(v) ? v.left : [];
};
const decisionsOf = (p: Portfolio, overrides: Record<number, object>): readonly ToolDecision[] => {
  const v = validatePortfolioDecisions(p, reply(p, overrides));
  if (E.isLeft(v)) throw new Error(v.left.join("\n"));
  return v.right;
};

describe("the reply's size", () => {
  it("a reply of exactly the limit is parsed; one character more is refused", () => {
    const head = 'TOOL_REVIEW_RESULT\n{"reviewId":"r","pad":"';
    const text = `${head}${"x".repeat(APPROVAL_LIMIT - head.length - 2)}"}`;
    expect(text).toHaveLength(APPROVAL_LIMIT);
    expect(E.isRight(parsePortfolioReply(text))).toBe(true);
    expect(parsePortfolioReply(`${text} `)).toEqual(E.left({ _tag: "TooLarge" }));
  });
});

describe("one decision's faults", () => {
  it.each(["recipe", "recipes", "outputs", "output", "template", "content", "args", "defaults", "imports"])("%s is recipe content", (key) => {
    expect(errorsOf(portfolio, reply(portfolio, { 0: { [key]: "x" } }))).toEqual(["tool review must not supply executable recipe content: tool_01"]);
  });

  it.each([
    [{ rationale: 5 }, "missing tool rationale: tool_01"],
    [{ action: "demote", target: "x" }, "demote declares a target: tool_01"],
    [{ action: "evolve" }, "evolve requires a valid tool name target: tool_01"],
    [{ action: "evolve", target: 5 }, "evolve requires a valid tool name target: tool_01"],
    [{ action: "evolve", target: "TOOL_00" }, "evolve must rename: tool_01"],
    [{ action: "evolve", target: "Outside_Tool" }, "evolve target collides with active tool: Outside_Tool"],
    [{ action: "merge" }, "merge requires a valid tool name target: tool_01"],
    [{ action: "merge", target: "has space" }, "merge requires a valid tool name target: tool_01"],
  ])("%j → %s", (override, error) => {
    expect(errorsOf(portfolio, reply(portfolio, { 0: override }))).toEqual([error]);
  });

  it.each([[null], [[]]])("a decision that is not an object (%j) is refused by shape", (item) => {
    const r = reply(portfolio);
    (r["decisions"] as unknown[]).push(item);
    expect(errorsOf(portfolio, r)).toEqual(["invalid tool decision shape"]);
  });

  it("names are compared in lower case, as active tool names are listed", () => {
    const p = capturePortfolio(thirtySix, ["\u212Aelvin"], "review-1", "t")!;
    expect(errorsOf(p, reply(p, { 0: { action: "evolve", target: "kelvin" } }))).toEqual(["evolve target collides with active tool: kelvin"]);
  });

  it("a decision without an assessment is accepted; a keep carries no target", () => {
    const [first] = decisionsOf(portfolio, { 0: { assessment: undefined } });
    expect(first).toStrictEqual({ tool: portfolio.tools[0], action: "keep", rationale: "useful" });
  });
});

describe("the assessment", () => {
  const assessed = (assessment: unknown) => errorsOf(portfolio, reply(portfolio, { 1: { assessment } }));

  it("takes every known key with values in bounds", () => {
    expect(assessed({ lifetimeCalls: 1, revisionCalls: 1, adaptability: 0, futureUsefulness: 1, redundancy: 0.5, safety: "reads only" })).toEqual([]);
  });

  it.each([
    [null],
    [[]],
    [""],
    [{ lifetimeCalls: 1, revisionCalls: 1, other: 1 }],
    [{ revisionCalls: 1 }],
    [{ lifetimeCalls: 1 }],
    [{ lifetimeCalls: 1.5, revisionCalls: 1 }],
    [{ lifetimeCalls: 1, revisionCalls: -1 }],
    [{ lifetimeCalls: "1", revisionCalls: 1 }],
    [{ lifetimeCalls: 1, revisionCalls: 1, adaptability: -0.01 }],
    [{ lifetimeCalls: 1, revisionCalls: 1, adaptability: 1.01 }],
    [{ lifetimeCalls: 1, revisionCalls: 1, futureUsefulness: Number.POSITIVE_INFINITY }],
    [{ lifetimeCalls: 1, revisionCalls: 1, futureUsefulness: "1" }],
    [{ lifetimeCalls: 1, revisionCalls: 1, redundancy: Number.NaN }],
    [{ lifetimeCalls: 1, revisionCalls: 1, redundancy: 2 }],
    [{ lifetimeCalls: 1, revisionCalls: 1, safety: "  " }],
    [{ lifetimeCalls: 1, revisionCalls: 1, safety: 1 }],
  ])("%j is refused", (a) => {
    const errors = assessed(a);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^invalid tool assessment: tool_02 \(.+\)$/);
    expect(errors[1]).toBe(`(${ASSESSMENT_SHAPE})`);
  });

  it("the refusal says what is wrong, and the name a snake_case key is written with; the shape once", () => {
    const shape = `)`;
    const once = `(${ASSESSMENT_SHAPE})`;
    expect(assessed({ lifetime_calls: 1, revision_calls: 1 })).toEqual([
      `invalid tool assessment: tool_02 ("lifetime_calls" is written "lifetimeCalls", "revision_calls" is written "revisionCalls"${shape}`,
      once,
    ]);
    expect(assessed({ launches: 0 })).toEqual([`invalid tool assessment: tool_02 (unknown key "launches"${shape}`, once]);
    expect(assessed({ lifetimeCalls: 1.5, redundancy: 2 })).toEqual([
      `invalid tool assessment: tool_02 ("lifetimeCalls" is no whole number, "revisionCalls" is missing, "redundancy" is not from 0 to 1${shape}`,
      once,
    ]);
    expect(assessed([])).toEqual([`invalid tool assessment: tool_02 (not an object${shape}`, once]);
  });
});

describe("targets and merge groups", () => {
  it("a merge target may not be an evolve target, nor an evolve target a merge target, whatever the case", () => {
    expect(errorsOf(twins, reply(twins, { 0: { action: "merge", target: "shared" }, 1: { action: "merge", target: "shared" }, 4: { action: "evolve", target: "Shared" } }))).toEqual([
      "duplicate tool review target: Shared",
    ]);
    expect(errorsOf(twins, reply(twins, { 0: { action: "evolve", target: "Shared" }, 1: { action: "merge", target: "shared" }, 2: { action: "merge", target: "shared" } }))).toEqual([
      "duplicate tool review target: shared",
      "duplicate tool review target: shared",
    ]);
    expect(errorsOf(twins, reply(twins, { 0: { action: "evolve", target: "twice" }, 1: { action: "evolve", target: "TWICE" } }))).toEqual(["duplicate tool review target: TWICE"]);
  });

  it("a faulty merge decision joins no group", () => {
    expect(errorsOf(twins, reply(twins, { 0: { action: "merge", target: "solo", sha256: "stale" } }))).toEqual(["reviewed tool changed: tool_01"]);
  });

  it("targets differing in case form one group, named as its first member wrote it", () => {
    const ds = decisionsOf(twins, { 0: { action: "merge", target: "Pair" }, 1: { action: "merge", target: "pair" } });
    expect(ds.slice(0, 2).map((d) => d.target)).toEqual(["Pair", "pair"]);
    expect(errorsOf(twins, reply(twins, { 0: { action: "merge", target: "Solo" }, 1: { action: "merge", target: "solo" }, 2: { action: "merge", target: "lone" } }))).toEqual([
      "merge target requires at least two sources: lone",
    ]);
    expect(errorsOf(twins, reply(twins, { 0: { action: "merge", target: "Outside_tool" }, 1: { action: "merge", target: "outside_TOOL" } }))).toEqual([
      "merge target collides with unrelated active tool: Outside_tool",
    ]);
  });
});

describe("the approval plan", () => {
  const roots = { recipeRoot: "/r", draftRoot: "/d" };
  const present = (p: Portfolio, extra: Record<string, string> = {}) => (path: string) => p.tools.find((t) => t.path === path)?.sha256 ?? extra[path];
  const approved = (p: Portfolio, ds: readonly ToolDecision[], observed = present(p)) => approve(p, "digest", ds, roots, observed, "2026-02-02T00:00:00.000Z");
  const planOf = (p: Portfolio, overrides: Record<number, object>) => {
    const r = approved(p, decisionsOf(p, overrides));
    if (E.isLeft(r)) throw new Error(r.left.join("\n"));
    return r.right;
  };

  it("records its identity and every source exactly", () => {
    const plan = planOf(twins, { 3: { action: "demote", rationale: "unused" }, 4: { action: "evolve", target: "five" } });
    expect(plan.reviewId).toBe("review-1");
    expect(plan.createdAt).toBe("2026-02-02T00:00:00.000Z");
    expect(plan.portfolioSha256).toBe("digest");
    expect(plan.sources.slice(2, 5)).toStrictEqual([
      { name: "tool_02", path: "/r/tool_02.json", sha256: "sha2", action: "keep", rationale: "useful", lineage: "tool_02", move: "none" },
      { name: "tool_03", path: "/r/tool_03.md", sha256: "sha3", action: "demote", rationale: "unused", lineage: "tool_03", move: "rename", to: "/d/tool_03.md" },
      { name: "tool_04", path: "/r/tool_04.json", sha256: "sha4", action: "evolve", rationale: "useful", lineage: "five", move: "rename", to: "/r/five.json" },
    ]);
  });

  it("each merge group keeps its own survivor", () => {
    const plan = planOf(twins, { 0: { action: "merge", target: "pair_a" }, 1: { action: "merge", target: "pair_a" }, 2: { action: "merge", target: "pair_b" }, 3: { action: "merge", target: "pair_b" } });
    expect(plan.sources.slice(0, 4).map((s) => [s.move, s.lineage, s.to])).toEqual([
      ["rename", "pair_a", "/r/pair_a.json"],
      ["quarantine", "pair_a", undefined],
      ["rename", "pair_b", "/r/pair_b.json"],
      ["quarantine", "pair_b", undefined],
    ]);
  });

  it("merge targets differing in case make one group: the renamed survivor and the quarantined members share its lineage", () => {
    const plan = planOf(twins, { 0: { action: "merge", target: "Pair" }, 1: { action: "merge", target: "pair" }, 2: { action: "merge", target: "PAIR" } });
    expect(plan.sources.slice(0, 3).map((s) => [s.move, s.lineage, s.to])).toEqual([
      ["rename", "Pair", "/r/Pair.json"],
      ["quarantine", "Pair", undefined],
      ["quarantine", "Pair", undefined],
    ]);
  });

  it("a merge target naming a member in another case keeps that member in place", () => {
    const plan = planOf(twins, { 2: { action: "merge", target: "TOOL_03" }, 3: { action: "merge", target: "Tool_03" } });
    expect(plan.sources.slice(2, 4).map((s) => [s.move, s.lineage, s.to])).toEqual([
      ["quarantine", "tool_03", undefined],
      ["none", "tool_03", undefined],
    ]);
  });

  it("a target is blocked by a file of its name in either format, never by a captured tool's own file", () => {
    const json = decisionsOf(twins, { 0: { action: "evolve", target: "fresh" }, 3: { action: "evolve", target: "other" } });
    expect(approved(twins, json, present(twins, { "/r/fresh.md": "x", "/r/other.json": "y" }))).toEqual(
      E.left(["Tool review target is taken: /r/fresh.json (a file of that name is there; a review never replaces one)", "Tool review target is taken: /r/other.md (a file of that name is there; a review never replaces one)"]),
    );
    const toSource: ToolDecision[] = twins.tools.map((t, i) => ({ tool: t, action: i === 0 ? "evolve" : "keep", rationale: "r", ...(i === 0 ? { target: "tool_01" } : {}) }));
    expect(E.isRight(approved(twins, toSource))).toBe(true);
  });

  it("a tool that moves away with a shadowed recipe of the other format beside it is refused: the twin would take its name", () => {
    const demote = decisionsOf(portfolio, { 5: { action: "demote" } });
    const moved = portfolio.tools[5]!;
    const twin = moved.path.replace(/\.json$/, ".md");
    expect(approved(portfolio, demote, present(portfolio, { [twin]: "old" }))).toEqual(
      E.left([`Tool review would bring back a shadowed recipe: ${twin} takes the name ${moved.name} once ${moved.path} moves; remove or rename it first`]),
    );
    // kept, it still covers the twin
    expect(E.isRight(approved(portfolio, decisionsOf(portfolio, {}), present(portfolio, { [twin]: "old" })))).toBe(true);
  });

  it("a recipe that reads a tool the plan moves away is named, unless it leaves too; a kept or surviving tool's readers are not", () => {
    const ds = decisionsOf(twins, { 0: { action: "evolve", target: "fresh" }, 1: { action: "demote" }, 2: { action: "merge", target: "pair" }, 3: { action: "merge", target: "pair" } });
    const [t0, t1, t2, t3, t4] = twins.tools;
    const reads: Record<string, string[]> = {
      // an outside recipe reads the renamed tool; the demoted tool reads the first (it leaves: no break)
      [t0!.path]: ["/r/outside.json", t1!.path],
      // the renamed tool reads the demoted one: it keeps its content under the new name, so it breaks
      [t1!.path]: [t0!.path],
      // the merge's renamed survivor and its quarantined member
      [t2!.path]: ["/r/outside.json"],
      [t3!.path]: ["/r/outside.json"],
      // a kept tool's reader is no break
      [t4!.path]: ["/r/outside.json"],
    };
    const r = approve(twins, "digest", ds, roots, present(twins), "t", (p) => reads[p] ?? []);
    const broken = (reader: string, t: { name: string; path: string }, what: string): string =>
      `Tool review would break ${reader}: it imports or delegates to ${t.name} (${t.path}), which the plan ${what}; nothing was changed`;
    expect(r).toEqual(E.left([
      broken("/r/outside.json", t0!, "renames to fresh.json"),
      broken(t0!.path, t1!, "demotes to a draft"),
      broken("/r/outside.json", t2!, "renames to pair.json"),
      broken("/r/outside.json", t3!, "merges away"),
    ]));
    // without readers the same decisions are approved
    expect(E.isRight(approve(twins, "digest", ds, roots, present(twins), "t"))).toBe(true);
  });

  it("two sources sent to one file are refused", () => {
    const ds: ToolDecision[] = twins.tools.map((t, i) => ({ tool: t, action: i < 2 ? "evolve" : "keep", rationale: "r", ...(i < 2 ? { target: "same" } : {}) }));
    expect(approved(twins, ds)).toEqual(E.left(["Duplicate tool review target: /r/same.json"]));
  });

  it("a plan of exactly the limit is approved; one character more is refused", () => {
    const keepAll = (rationale: string): ToolDecision[] => twins.tools.map((t, i) => ({ tool: t, action: "keep", rationale: i === 0 ? rationale : "r" }));
    const small = approved(twins, keepAll(""));
    if (E.isLeft(small)) throw new Error("valid");
    const room = APPROVAL_LIMIT - JSON.stringify(small.right).length;
    expect(E.isRight(approved(twins, keepAll("x".repeat(room))))).toBe(true);
    expect(approved(twins, keepAll("x".repeat(room + 1)))).toEqual(E.left(["Tool review approved plan exceeds the persistence limit."]));
  });
});
