// The order discovery gives entries in, and who wins a name: the higher-priority source first,
// whatever its path; within a source by path, a Markdown file sorting as its JSON twin would,
// JSON first.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { root, snapshot, userRoot } from "../../support/snapshot.js";

const md = (text: string): string => `---\ndescription: ${text}\n---\n\n\`\`\`template\necho ${text}\n\`\`\`\n`;

describe("discovery order", () => {
  it("a lower-priority source whose path sorts first neither wins nor comes first", () => {
    const d = discover(snapshot([userRoot({ "t.json": { template: "echo user" }, "z.json": { template: "echo z" } }), root("/0", { "t.json": { template: "echo low" }, "a.json": { template: "echo a" } }, { tool: true })]));
    expect(d.active.get("t")?.path).toBe("/A/recipes/t.json");
    expect(d.entries.map((e) => e.path)).toEqual(["/A/recipes/t.json", "/0/t.json", "/A/recipes/z.json", "/0/a.json"]);
  });

  it("within a lower source by path, whatever order it was listed in", () => {
    const low = root("/P", { "c.json": { template: "echo c" }, "b.json": { template: "echo b" }, "a.json": { template: "echo a" }, "d.json": { template: "echo d" } });
    const d = discover(snapshot([userRoot({ "y.json": { template: "echo y" }, "x.json": { template: "echo x" } }), low]));
    expect(d.entries.map((e) => e.path)).toEqual(["/A/recipes/x.json", "/A/recipes/y.json", "/P/a.json", "/P/b.json", "/P/c.json", "/P/d.json"]);
  });

  it("in a source, a Markdown file sorts where its JSON twin would, after it", () => {
    const d = discover(snapshot([userRoot({ "a.json": { template: "echo a" }, "a.md": md("a"), "a.j.md": md("aj"), "a.k.json": { template: "echo ak" } })]));
    expect(d.entries.map((e) => e.path)).toEqual(["/A/recipes/a.j.md", "/A/recipes/a.json", "/A/recipes/a.md", "/A/recipes/a.k.json"]);
    // alone, too: b.md sorts as b.json would, before b.k.json
    const alone = discover(snapshot([userRoot({ "b.k.json": { template: "echo bk" }, "b.md": md("b") })]));
    expect(alone.entries.map((e) => e.path)).toEqual(["/A/recipes/b.md", "/A/recipes/b.k.json"]);
  });

  it("of two tool sources with the same name, only the winner is the tool", () => {
    const d = discover(snapshot([userRoot({ "t.json": { description: "mine", template: "echo user" } }), root("/P", { "t.json": { description: "theirs", template: "echo low" } }, { tool: true })]));
    expect(d.tools.map((t) => [t.name, t.path, t.description])).toEqual([["t", "/A/recipes/t.json", "mine"]]);
    expect(d.entries.map((e) => e.tool)).toEqual([true, false]);
  });
});
