import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { toolFingerprint } from "../../../core/discovery/fingerprint.js";
import { diffDiscoveries } from "../../../core/discovery/tool-set-change.js";
import type { Discovery } from "../../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../../core/tool/tool-spec.js";
import { snapshot, userRoot } from "../../support/snapshot.js";

const toolsOf = (files: Record<string, string | object>): Discovery => discover(snapshot([userRoot(files)]));
const tool = (content: string | object): ToolSpec => toolsOf({ "t.json": content }).tools[0]!;

describe("toolFingerprint (executable content only)", () => {
  const base = { description: "One", args: ["n:int"], defaults: { n: 3 }, template: "seq {n}" };

  it("ignores the description, usage metadata and the file's key order and formatting", () => {
    const fp = toolFingerprint(tool(base));
    expect(toolFingerprint(tool({ ...base, description: "Two" }))).toBe(fp);
    expect(toolFingerprint(tool({ ...base, usage: { calls: 4 } }))).toBe(fp);
    expect(toolFingerprint(tool(JSON.stringify({ template: "seq {n}", defaults: { n: 3 }, args: ["n:int"] }, null, 4)))).toBe(fp);
  });

  it.each([
    ["the template", { ...base, template: "seq -w {n}" }],
    ["the args", { ...base, args: ["n:number"] }],
    ["the defaults", { ...base, defaults: { n: 4 } }],
    ["async", { ...base, async: true }],
    ["a control flag", { ...base, timeout: 5000 }],
    ["values", { ...base, values: { m: "x" } }],
  ])("changes with %s", (_what, changed) => {
    expect(toolFingerprint(tool(changed))).not.toBe(toolFingerprint(tool(base)));
  });

  it("changes when an imported recipe changes, through the resolved template", () => {
    const user = { imports: { b: "base" }, template: { name: "b" } };
    const before = toolsOf({ "base.json": { template: "echo one" }, "user.json": user }).tools.find((t) => t.name === "user")!;
    const after = toolsOf({ "base.json": { template: "echo two" }, "user.json": user }).tools.find((t) => t.name === "user")!;
    expect(toolFingerprint(after)).not.toBe(toolFingerprint(before));
  });
});

describe("diffDiscoveries", () => {
  it("names added, changed and removed tools, and separates executable changes", () => {
    const before = toolsOf({ "a.json": { template: "echo a" }, "b.json": { template: "echo b" }, "c.json": { template: "echo c" } });
    const after = toolsOf({ "a.json": { description: "new words", template: "echo a" }, "b.json": { template: "echo B" }, "d.json": { template: "echo d" } });
    expect(diffDiscoveries(before, after)).toEqual({
      added: ["d"],
      changed: ["a", "b"],
      removed: ["c"],
      executableChanged: ["b"],
      diagnosticsChanged: false,
      draftsChanged: false,
    });
  });

  it("reports diagnostics that changed without any tool changing", () => {
    const before = toolsOf({ "a.json": { template: "echo a" } });
    const after = toolsOf({ "a.json": { template: "echo a" }, "bad.json": "{" });
    expect(diffDiscoveries(before, after)).toMatchObject({ added: [], changed: [], removed: [], diagnosticsChanged: true });
    expect(diffDiscoveries(after, after)).toMatchObject({ added: [], changed: [], removed: [], diagnosticsChanged: false });
  });
});
