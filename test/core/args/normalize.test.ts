import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { normalizeArgs } from "../../../core/args/normalize.js";
import { analyzeArgs } from "../../support/template-reads.js";
import type { ArgType } from "../../../core/model.js";

const g29Types = new Map<string, ArgType>([
  ["request_timeout", { kind: "int" }],
  ["speed", { kind: "number" }],
  ["dry_run", { kind: "bool" }],
  ["mode", { kind: "enum", values: ["check", "fix"] }],
  ["prompts", { kind: "array" }],
]);

describe("normalizeArgs", () => {
  it("normalizes typed values", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { request_timeout: 42, speed: 1.5, dry_run: false, mode: "fix", prompts: '["a","b"]' }))
      .toEqual(E.right({ request_timeout: "42", speed: "1.5", dry_run: "false", mode: "fix", prompts: ["a", "b"] }));
  });

  it("rejects an enum value outside the list", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { mode: "delete" })).toEqual(E.left("Argument mode must be one of: check, fix."));
  });

  it("leaves untyped values exactly as given", () => {
    const items = ["a"];
    const r = normalizeArgs({ types: Object.fromEntries(g29Types) }, { other: items, n: null });
    expect(r).toEqual(E.right({ other: ["a"], n: null }));
    expect(E.isRight(r) && r.right["other"]).toBe(items);
  });

  it("the first bad value in call order is reported", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { speed: "fast", request_timeout: "x" })).toEqual(E.left("Argument speed must be a number."));
  });

  it("explicit args types normalize after reload too", () => {
    const surface = analyzeArgs({ args: ["n:int", "items:array"], template: "t {n} {items[0]}" });
    expect(normalizeArgs(surface, { n: " 7 ", items: '["x"]' })).toEqual(E.right({ n: "7", items: ["x"] }));
    expect(normalizeArgs(surface, { n: "seven" })).toEqual(E.left("Argument n must be an integer."));
  });
});
