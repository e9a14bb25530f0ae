// What a live registry tells its listeners after a pass: which tools came, went or changed, and
// whether the diagnostics or the draft listing changed.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { diffDiscoveries } from "../../../core/discovery/tool-set-change.js";
import { file, root, snapshot, userRoot } from "../../support/snapshot.js";

const NOTHING = { added: [], changed: [], removed: [], executableChanged: [], diagnosticsChanged: false, draftsChanged: false };

describe("diffDiscoveries", () => {
  it("a tool that now comes from another file with the same content executes differently", () => {
    // the second root's copy wins once the user's copy is gone (and "shadows 1 lower" goes with it)
    const before = discover(snapshot([userRoot({ "t.json": { template: "echo t" } }), root("/P", { "t.json": { template: "echo t" } }, { tool: true })]));
    const after = discover(snapshot([userRoot({}), root("/P", { "t.json": { template: "echo t" } }, { tool: true })]));
    expect(after.tools[0]?.path).toBe("/P/t.json");
    expect(diffDiscoveries(before, after)).toEqual({ ...NOTHING, changed: ["t"], executableChanged: ["t"], diagnosticsChanged: true });
  });

  it("a Markdown twin of the same content that replaces a JSON recipe is a changed tool", () => {
    const md = "---\ndescription: Same\n---\n\n```template\necho t\n```\n";
    const before = discover(snapshot([userRoot({ "t.json": { description: "Same", template: "echo t" } })]));
    const after = discover(snapshot([userRoot({ "t.md": md })]));
    expect(diffDiscoveries(before, after)).toEqual({ ...NOTHING, changed: ["t"], executableChanged: ["t"] });
  });

  it("the same discovery twice, or two equal ones, change nothing", () => {
    const files = { "a.json": { template: "echo a" }, "b.json": { template: "echo b" } };
    const drafts = [file("/A/recipes/drafts/d.json", { template: "echo d" })];
    const one = discover(snapshot([userRoot(files)], drafts));
    expect(diffDiscoveries(one, one)).toEqual(NOTHING);
    expect(diffDiscoveries(one, discover(snapshot([userRoot(files)], drafts)))).toEqual(NOTHING);
  });

  it("diagnostics compare by their texts: the same texts are no change, another text of the same count is", () => {
    const bad = (name: string) => discover(snapshot([userRoot({ "a.json": { template: "echo a" }, [name]: "{" })]));
    expect(diffDiscoveries(bad("x.json"), bad("x.json")).diagnosticsChanged).toBe(false);
    expect(diffDiscoveries(bad("x.json"), bad("y.json")).diagnosticsChanged).toBe(true);
  });

  it("the last tools by name removed, or added after every other", () => {
    const ab = discover(snapshot([userRoot({ "a.json": { template: "echo a" }, "b.json": { template: "echo b" } })]));
    const abcd = discover(snapshot([userRoot({ "a.json": { template: "echo a" }, "b.json": { template: "echo b" }, "c.json": { template: "echo c" }, "d.json": { template: "echo d" } })]));
    expect(diffDiscoveries(abcd, ab)).toEqual({ ...NOTHING, removed: ["c", "d"] });
    expect(diffDiscoveries(ab, abcd)).toEqual({ ...NOTHING, added: ["c", "d"] });
  });

  it("tools added or removed before and between the others by name", () => {
    const tools = (names: string[]) => discover(snapshot([userRoot(Object.fromEntries(names.map((n) => [`${n}.json`, { template: `echo ${n}` }])))]));
    const mz = tools(["m", "z"]);
    const amnz = tools(["a", "m", "n", "z"]);
    expect(diffDiscoveries(mz, amnz)).toEqual({ ...NOTHING, added: ["a", "n"] });
    expect(diffDiscoveries(amnz, mz)).toEqual({ ...NOTHING, removed: ["a", "n"] });
  });

  it("a draft added, removed or edited changes the draft listing; the tools stay", () => {
    const tools = userRoot({ "a.json": { template: "echo a" } });
    const d = (content: object) => file("/A/recipes/drafts/d.json", content);
    const none = discover(snapshot([tools]));
    const one = discover(snapshot([tools], [d({ template: "echo d" })]));
    const edited = discover(snapshot([tools], [d({ template: "echo e" })]));
    expect(diffDiscoveries(none, one)).toEqual({ ...NOTHING, draftsChanged: true });
    expect(diffDiscoveries(one, none)).toEqual({ ...NOTHING, draftsChanged: true });
    expect(diffDiscoveries(one, edited)).toEqual({ ...NOTHING, draftsChanged: true });
  });
});
