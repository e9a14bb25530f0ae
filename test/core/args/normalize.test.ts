import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { normalizeArgs as normalizeTagged } from "../../../core/args/normalize.js";
import { argMismatchText } from "../../../core/args/arg-type.js";
import { analyzeArgs } from "../../support/template-reads.js";
import type { ArgType } from "../../../core/model.js";

/** the mismatch as the text the agent reads */
const normalizeArgs = (...args: Parameters<typeof normalizeTagged>) => E.mapLeft(argMismatchText)(normalizeTagged(...args));

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

  it("null for a typed argument in a call becomes the empty value, for every type", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { request_timeout: null, speed: null, dry_run: null, mode: null, prompts: null }))
      .toEqual(E.right({ request_timeout: "", speed: "", dry_run: "", mode: "", prompts: "" }));
    const surface = analyzeArgs({ args: ["n:int"], template: "t {n}" });
    expect(normalizeArgs(surface, { n: null })).toEqual(E.right({ n: "" }));
    // an in-process caller may pass undefined: the same empty value
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { request_timeout: undefined, speed: undefined, dry_run: undefined, mode: undefined, prompts: undefined }))
      .toEqual(E.right({ request_timeout: "", speed: "", dry_run: "", mode: "", prompts: "" }));
  });

  it("the first bad value in call order is reported", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { speed: "fast", request_timeout: "x" })).toEqual(E.left("Argument speed must be a number."));
  });

  it("the error names the first value that does not fit, even after values that do", () => {
    expect(normalizeArgs({ types: Object.fromEntries(g29Types) }, { request_timeout: 5, dry_run: "yes", speed: "fast", mode: "delete" })).toEqual(E.left("Argument speed must be a number."));
  });

  it("a typed argument named __proto__ stays an ordinary value of the call", () => {
    const call = JSON.parse('{"__proto__":" 7 ","other":"x"}') as Record<string, unknown>;
    const r = normalizeArgs({ types: JSON.parse('{"__proto__":{"kind":"int"}}') as Record<string, ArgType> }, call);
    if (E.isLeft(r)) throw new Error(r.left);
    expect(Object.getPrototypeOf(r.right)).toBe(Object.prototype);
    expect(Object.keys(r.right)).toEqual(["__proto__", "other"]);
    expect(Object.getOwnPropertyDescriptor(r.right, "__proto__")).toEqual({ value: "7", enumerable: true, writable: true, configurable: true });
  });

  it("explicit args types normalize after reload too", () => {
    const surface = analyzeArgs({ args: ["n:int", "items:array"], template: "t {n} {items[0]}" });
    expect(normalizeArgs(surface, { n: " 7 ", items: '["x"]' })).toEqual(E.right({ n: "7", items: ["x"] }));
    expect(normalizeArgs(surface, { n: "seven" })).toEqual(E.left("Argument n must be an integer."));
  });
});
