// The commands a template stands for as written (core/template/command-count.ts).
import { describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import { commandCount } from "../../../core/template/command-count.js";

describe("commandCount", () => {
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
});
