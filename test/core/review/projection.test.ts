// What a draft reviewer is shown of a recipe: counts and the shape of its command graph, never a
// value. The shape names each node's kind, counts its nodes and branches and says whether it has
// a condition, a repeat or a retry, so two recipes of different structure never look the same.
import { describe, expect, it } from "vitest";
import { contentGroupNames, contentGroupOf, contract, project, templateShape } from "../../../core/review/projection.js";
import type { Batch, BatchDraft } from "../../../core/review/batch.js";
import type { Json } from "../../../core/model.js";

describe("the template's shape", () => {
  it.each<[string, Json | undefined, object]>([
    ["a command", "echo hi", { kind: "command", nodes: 1 }],
    ["a sequence", ["a", "b"], { kind: "sequence", branches: 2, nodes: 3 }],
    ["an empty sequence", [], { kind: "sequence", branches: 0, nodes: 1 }],
    ["a nested sequence", [["a", "b"], "c"], { kind: "sequence", branches: 2, nodes: 5 }],
    ["an object with one command", { template: "a" }, { kind: "object", branches: 1, conditional: false, repeat: false, retry: false, nodes: 2 }],
    ["an object without a template", {}, { kind: "object", branches: 0, conditional: false, repeat: false, retry: false, nodes: 1 }],
    [
      "a parallel object with controls",
      { template: ["a", { template: ["b", "c"] }], parallel: true, when: "{x}", repeat: { over: "xs" }, retry: { attempts: 2 } },
      { kind: "parallel", branches: 2, conditional: true, repeat: true, retry: true, nodes: 5 },
    ],
    ["parallel only when it is true", { template: "a", parallel: "true" }, { kind: "object", branches: 1, conditional: false, repeat: false, retry: false, nodes: 2 }],
    ["null", null, { kind: "invalid", nodes: 0 }],
    ["a number", 5, { kind: "invalid", nodes: 0 }],
    ["nothing", undefined, { kind: "invalid", nodes: 0 }],
  ])("%s", (_what, template, shape) => expect(templateShape(template)).toStrictEqual(shape));

  it("a sequence's invalid member counts no node", () => {
    expect(templateShape(["a", null])).toStrictEqual({ kind: "sequence", branches: 2, nodes: 2 });
  });
});

describe("a recipe's contract", () => {
  it("counts arguments, artifacts, defaults, imports and mailbox entries, and gives the shape", () => {
    const recipe = {
      args: ["a", "b:int"],
      artifacts: { report: "out.txt" },
      async: true,
      defaults: { a: "1", b: "2", c: "3" },
      imports: { lib: "./lib.json" },
      mailbox: { accepts: ["x", "y"], emits: ["z"] },
      template: "echo {a}",
    };
    expect(contract(recipe)).toStrictEqual({
      argument_count: 2,
      artifact_count: 1,
      async: true,
      default_count: 3,
      import_count: 1,
      mailbox_accepts_count: 2,
      mailbox_emits_count: 1,
      template_shape: { kind: "command", nodes: 1 },
    });
  });

  it("counts the arguments a template's placeholders take, declared or not", () => {
    expect(contract({ template: "echo {x=1} {file:path}" })["argument_count"]).toBe(2);
    expect(contract({ args: ["a"], template: ["echo {a}", { template: "cat {b}" }] })["argument_count"]).toBe(2);
    expect(contract({ template: "echo hi" })["argument_count"]).toBe(0);
  });

  it("counts nothing it cannot count: a list where a map belongs, a text mailbox, async not true", () => {
    expect(contract({ args: "a b", defaults: ["a"], artifacts: null, imports: "x", mailbox: ["accepts"], async: "true" })).toStrictEqual({
      argument_count: 0,
      artifact_count: 0,
      async: false,
      default_count: 0,
      import_count: 0,
      mailbox_accepts_count: 0,
      mailbox_emits_count: 0,
      template_shape: { kind: "invalid", nodes: 0 },
    });
    expect(contract({ mailbox: null })).toMatchObject({ mailbox_accepts_count: 0, mailbox_emits_count: 0 });
  });
});

describe("content groups", () => {
  it("one name per distinct key in first-seen order, numbered with two digits and more", () => {
    const names = contentGroupNames(["x", "y", "x", "z"]);
    expect([...names]).toEqual([["x", "content_group_01"], ["y", "content_group_02"], ["z", "content_group_03"]]);
    expect(contentGroupNames(Array.from({ length: 100 }, (_, i) => `k${i}`)).get("k99")).toBe("content_group_100");
  });

  const draft = (n: number, sha256: string, recipe?: BatchDraft["recipe"]): BatchDraft => ({
    occurrence: `draft_0${n}`,
    path: `/r/drafts/d${n}.json`,
    stem: `d${n}`,
    sha256,
    valid: recipe !== undefined,
    promotable: recipe !== undefined,
    riskLabels: recipe === undefined ? [] : ["risk.network"],
    ...(recipe === undefined ? {} : { recipe }),
    usage: { lifetime_calls: n, revision: 1, revision_calls: n },
    suggestedName: `d${n}`,
  });

  it("the projection: opaque ids, groups for equal bytes, a contract only for a draft that loads", () => {
    const batch: Batch = { batchId: "b-1", createdAt: "t", activeTools: ["one", "two"], drafts: [draft(1, "s1", { template: "a" }), draft(2, "s2"), draft(3, "s1", { template: "a" })] };
    expect(project(batch)).toStrictEqual({
      batchId: "b-1",
      createdAt: "t",
      active_tool_count: 2,
      drafts: [
        { draft: "draft_01", sha256: "content_group_01", valid: true, promotable: true, riskLabels: ["risk.network"], usage: { lifetime_calls: 1, revision: 1, revision_calls: 1 }, contract: contract({ template: "a" }) },
        { draft: "draft_02", sha256: "content_group_02", valid: false, promotable: false, riskLabels: [], usage: { lifetime_calls: 2, revision: 1, revision_calls: 2 } },
        { draft: "draft_03", sha256: "content_group_01", valid: true, promotable: true, riskLabels: ["risk.network"], usage: { lifetime_calls: 3, revision: 1, revision_calls: 3 }, contract: contract({ template: "a" }) },
      ],
    });
    expect(contentGroupOf(batch, batch.drafts[2]!)).toBe("content_group_01");
    expect(contentGroupOf(batch, draft(9, "not-in-batch"))).toBe("");
  });
});
