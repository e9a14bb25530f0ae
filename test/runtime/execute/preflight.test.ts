// The pre-flight of a call: a value missing for a command the run is certain to reach is found
// before any command starts (so the call is refused and no launch is counted), and nothing is
// refused that the run could still carry out. Each case is also run through the real executor:
// what the pre-flight refuses, the run fails on too; what it lets through, the run carries out.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import { createContextCache } from "../../../core/template/context.js";
import { programOf } from "../../../core/tool/program.js";
import { missingBeforeStart } from "../../../runtime/execute/preflight.js";
import { run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

// `x` is a required argument the call leaves out
const preflight = (template: Json, values: Record<string, unknown> = {}): string | undefined =>
  missingBeforeStart(programOf(template), values, ["x"], { cwd: box.dir, home: box.dir }, createContextCache());

describe("pre-flight of a call's missing values", () => {
  it("refuses a value missing for a later step of a sequence before the first step runs", async () => {
    const marker = join(box.dir, "marker");
    const template = [`touch ${marker}`, "echo {x}"];
    expect(preflight(template)).toBe("Missing command template value: x");
    expect(existsSync(marker)).toBe(false);
    // the run itself would have touched the marker, then failed on the same value
    const { execution } = await run(box, template);
    expect(execution).toMatchObject({ kind: "error", message: "Missing command template value: x", argument: true });
    expect(existsSync(marker)).toBe(true);
  });

  it("refuses a step every path reaches: nested, after a skipped or failing step, in a leaf with its own timeout", async () => {
    for (const template of [
      ["printf a", { template: ["printf b", "echo {x}"] }],
      [{ when: "{go??}", template: "printf skipped" }, "echo {x}"],
      [{ template: "false", failure: "continue" }, "echo {x}"],
      ["printf a", { template: "echo {x}", timeout: 5000 }],
      ["printf a", { args: ["y=1"], template: "echo {y} {x}" }],
    ] as Json[]) {
      expect(preflight(template)).toBe("Missing command template value: x");
      const { execution } = await run(box, template);
      expect(execution).toMatchObject({ kind: "error", message: "Missing command template value: x" });
    }
  });

  it("lets through a call whose missing value the run may never need, or fills in", async () => {
    for (const template of [
      // a `when` branch not taken
      ["printf a", { when: "{go??}", template: "echo {x}" }, "printf done"],
      // a nullish fallback, a placeholder default, an `args` default, a `defaults` value
      ["printf a", "echo {x??none}"],
      ["printf a", "echo {x=d}"],
      ["printf a", { args: ["x=d"], template: "echo {x}" }],
      ["printf a", { defaults: { x: "d" }, template: "echo {x}" }],
    ] as Json[]) {
      expect(preflight(template)).toBeUndefined();
      const { result } = await run(box, template);
      expect(result.ok).toBe(true);
    }
    // a sequence under a deadline may be ended before its later step, and the call go on
    const bounded = [{ timeout: 200, template: ["sleep 2", "echo {x}"] }, "printf done"];
    expect(preflight(bounded)).toBeUndefined();
    const { result } = await run(box, bounded);
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(/^done\n/);
  });

  it("says nothing inside nodes that may not reach their commands: parallel, repeat, group retry, delay", () => {
    for (const template of [
      ["printf a", { parallel: true, template: ["printf b", "echo {x}"] }],
      ["printf a", { repeat: 2, template: "echo {x}" }],
      ["printf a", { retry: 2, template: ["printf b", "echo {x}"] }],
      ["printf a", { delay: 1, template: "echo {x}" }],
    ] as Json[]) expect(preflight(template)).toBeUndefined();
  });

  it("walks nothing when every required argument is given", () => {
    expect(preflight(["printf a", "echo {y}"], { x: "1" })).toBeUndefined();
  });
});
