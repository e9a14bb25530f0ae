// The commands a template stands for as written (core/template/command-count.ts).
import { describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import { measureTemplate } from "../../../core/template/command-count.js";

/** the commands `template` stands for, measured without a depth limit */
function commandCount(template: Json, limit: number): number {
  const m = measureTemplate(template, limit, Number.POSITIVE_INFINITY);
  if (m.kind !== "measured") throw new Error("no depth limit was given");
  return m.commands;
}

describe("measureTemplate", () => {
  it("counts leaves, steps, recover and literal repeats; a repeat the call gives counts once", () => {
    expect(commandCount("echo", 100)).toBe(1);
    expect(commandCount(["a", "b", { template: "c", recover: ["d", "e"] }], 100)).toBe(5);
    expect(commandCount({ repeat: 3, template: ["a", { repeat: "4", template: "b" }] }, 100)).toBe(15);
    expect(commandCount({ repeat: "{items.length}", template: ["a", "b"] }, 100)).toBe(2);
    expect(commandCount({ repeat: 5, template: [] }, 100)).toBe(0);
    expect(commandCount({ repeat: "9".repeat(400), template: [] }, 100)).toBe(0);
  });

  it("stops past the limit, and counts a node reached along many paths once: 2^200 commands in 200 nodes", () => {
    let node: Json = "echo end";
    for (let i = 0; i < 200; i++) node = [node, { template: node }];
    expect(commandCount(node, 10_000)).toBe(10_001);
    expect(commandCount({ repeat: 10_000, template: ["a", "b"] }, 10_000)).toBe(10_001);
    expect(commandCount({ repeat: 10_000, template: "a" }, 10_000)).toBe(10_000);
  });

  it("measures depth under every key without the call stack: 100,000 levels are too deep, not a stack overflow", () => {
    let deep: Json = { template: "echo" };
    for (let i = 0; i < 100_000; i++) deep = { template: deep, defaults: { d: [i] } };
    expect(measureTemplate(deep, 10_000, 512)).toEqual({ kind: "too-deep" });
    let shallow: Json = "echo";
    for (let i = 0; i < 100; i++) shallow = { template: shallow };
    expect(measureTemplate(shallow, 10_000, 512)).toEqual({ kind: "measured", commands: 1, depth: 100 });
    // a value nested under another key counts too
    expect(measureTemplate({ template: "echo", defaults: { a: { b: [1] } } }, 10_000, 512)).toEqual({ kind: "measured", commands: 1, depth: 4 });
    // a wide node is no deep one
    expect(measureTemplate(Array.from({ length: 5_000 }, () => ({ template: "x" })), 10_000, 512)).toEqual({ kind: "measured", commands: 5_000, depth: 2 });
  });
});
