// planRegister and planLocks as a caller sees them: the exact result (text and details) of a
// register_tool call, the file it writes, and the paths it locks.
import { describe, expect, it } from "vitest";
import { planLocks } from "../../../core/register/plan-register.js";
import { ROOT, world } from "./world.js";
import { markdownShadowedText } from "../../../core/register/texts.js";

const pretty = (o: unknown): string => `${JSON.stringify(o, null, 2)}\n`;
const roots = { userRoot: ROOT, cwd: "/proj" };

describe("planLocks", () => {
  it("no name and no field lists and locks nothing", () => {
    expect(planLocks({}, roots)).toStrictEqual({ kind: "list" });
    expect(planLocks({ name: "" }, roots)).toStrictEqual({ kind: "list" });
    expect(planLocks({ name: null, description: "", template: undefined }, roots)).toStrictEqual({ kind: "list" });
  });

  it("a field without a name is refused, naming the fields, and locks nothing: a list would read as the change done", () => {
    const refused = (params: Record<string, unknown>, fields: string[]): void =>
      expect(planLocks(params, roots)).toStrictEqual({
        kind: "answer",
        result: {
          ok: false,
          text: `Tool name is required: name=<tool> says which tool to create, update or delete (${fields.join(", ")} given without it). Without any field, register_tool lists the tools.`,
          details: { fields },
        },
      });
    refused({ name: "", draft: "drafts/x.json" }, ["draft"]);
    refused({ description: "d", template: "echo hi" }, ["description", "template"]);
    refused({ template: null, update: true }, ["update"]);
  });

  it("a name that is already normalized locks its one file", () => {
    expect(planLocks({ name: "tool" }, roots)).toStrictEqual({ kind: "lock", paths: [`${ROOT}/tool.json`] });
  });

  it("a name with only an exact candidate locks that file alone", () => {
    // `工具` normalizes to nothing, but is a safe basename
    expect(planLocks({ name: "工具" }, roots)).toStrictEqual({ kind: "lock", paths: [`${ROOT}/工具.json`] });
  });

  it("a blank or empty draft locks no draft path", () => {
    expect(planLocks({ name: "tool", draft: "   " }, roots)).toStrictEqual({ kind: "lock", paths: [`${ROOT}/tool.json`] });
    expect(planLocks({ name: "tool", draft: "" }, roots)).toStrictEqual({ kind: "lock", paths: [`${ROOT}/tool.json`] });
    // `drafts/…` is read against the recipe root, not the working directory
    expect(planLocks({ name: "tool", draft: "drafts/x.json" }, roots)).toStrictEqual({
      kind: "lock",
      paths: [`${ROOT}/tool.json`, `${ROOT}/drafts/x.json`],
    });
    // a relative path that lands in the drafts folder from no root is the working directory's
    expect(planLocks({ name: "tool", draft: "sub/x.json" }, roots)).toStrictEqual({
      kind: "lock",
      paths: [`${ROOT}/tool.json`, "/proj/sub/x.json"],
    });
  });
});

describe("failure details name the tool", () => {
  it("already registered", () => {
    const w = world({ [`${ROOT}/x.json`]: { description: "X", template: "echo x" } });
    expect(w.run({ name: "x", description: "X2", template: "echo y" })).toStrictEqual({
      ok: false,
      text: 'Tool "x" already registered. Use update=true to overwrite.',
      details: { tool: "x" },
    });
  });

  it("a stored file that parses but is no recipe is named with the loader's reason, not as a registered tool", () => {
    const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{ description: "no template" }, "recipe must define template", { template: "echo y" }],
      [{ template: "echo {x}", args: "x" }, 'field "args" must be an array of strings (got string)', { args: ["x"], description: "X" }],
    ];
    for (const [stored, reason, correction] of cases) {
      const w = world({ [`${ROOT}/x.json`]: stored });
      expect(w.run({ name: "x", template: "echo y" })).toStrictEqual({
        ok: false,
        text: `Tool "x" is not registered, but its recipe file ${ROOT}/x.json is there and is not a valid recipe (${reason}). Use update=true with the fields that correct it (they replace the file's own), or template=null to delete it.`,
        details: { tool: "x" },
      });
      // the way out the answer names works
      expect(w.run({ name: "x", ...correction, update: true })).toMatchObject({ ok: true });
    }
    // a disabled recipe is a recipe: already registered
    expect(world({ [`${ROOT}/x.json`]: { disabled: true, template: "echo x" } }).run({ name: "x", template: "echo y" })).toMatchObject({ text: 'Tool "x" already registered. Use update=true to overwrite.' });
  });

  it("update=true on a name no recipe has says there is nothing to update, and creates only with all a new tool needs", () => {
    const w = world();
    expect(w.run({ name: "ghost", update: true, template: "echo x" })).toStrictEqual({
      ok: false,
      text: 'Tool "ghost" not found, so update=true has nothing to update. To create it, give a description and a template (description missing).',
      details: { tool: "ghost" },
    });
    expect(w.run({ name: "ghost", update: true, description: "d" })).toMatchObject({ text: 'Tool "ghost" not found, so update=true has nothing to update. To create it, give a description and a template (template missing).' });
    expect(w.run({ name: "ghost", update: true })).toMatchObject({ text: expect.stringContaining("(description and template missing)") });
    expect(w.files.size).toBe(0);
    expect(w.run({ name: "ghost", update: true, description: "d", template: "echo x" })).toMatchObject({ ok: true, details: { updated: false } });
  });

  it("a hand-written file whose name is no valid tool name is not written, with or without update=true, nor promoted onto; it can be deleted", () => {
    const stored = { description: "x", template: "echo x" };
    const w = world({ [`${ROOT}/my tool.json`]: stored, [`${ROOT}/drafts/d.json`]: { description: "d", template: "echo d" } });
    const refusal = {
      ok: false,
      text:
        `Recipe file ${ROOT}/my tool.json cannot be written as a tool: "my tool" is not a valid tool name (tool names use only A-Z, a-z, 0-9, _ and -, at most 64 characters): ` +
        "rename it to my_tool.json, then update the tool by its new name. Nothing was written (template=null deletes the file).",
      details: { tool: "my tool", config: `${ROOT}/my tool.json` },
    };
    expect(w.run({ name: "my tool", description: "y", template: "echo y", update: true })).toStrictEqual(refusal);
    expect(w.run({ name: "my tool", description: "y", update: true })).toStrictEqual(refusal);
    expect(w.run({ name: "my tool", description: "y", template: "echo y" })).toStrictEqual(refusal);
    expect(w.run({ name: "my tool", draft: `${ROOT}/drafts/d.json`, update: true })).toStrictEqual(refusal);
    expect(JSON.parse(w.files.get(`${ROOT}/my tool.json`)!)).toStrictEqual(stored);
    expect(w.run({ name: "my tool", template: null })).toMatchObject({ ok: true, text: 'Deleted tool "my tool". Reload to remove it from the complete registry.' });
    // a new name of that shape is normalized, as ever
    expect(w.run({ name: "your tool", description: "y", template: "echo y" })).toMatchObject({ ok: true, details: { tool: "your_tool" } });
  });

  it("a template is required for a new tool", () => {
    expect(world().run({ name: "n", description: "N" })).toStrictEqual({
      ok: false,
      text: "Tool template is required for new registrations.",
      details: { tool: "n" },
    });
  });

  it("a stored recipe that cannot be read", () => {
    const w = world({ [`${ROOT}/broken.json`]: "[1]" });
    expect(w.run({ name: "broken", description: "B", update: true })).toStrictEqual({
      ok: false,
      text: `Stored recipe ${ROOT}/broken.json cannot be updated without a template: JSON recipe must be an object`,
      details: { tool: "broken" },
    });
    expect(w.files.get(`${ROOT}/broken.json`)).toBe("[1]");
  });

  it("the recipe cannot be built (no description)", () => {
    expect(world().run({ name: "nodesc", template: "echo" })).toStrictEqual({
      ok: false,
      text: "Tool description is required unless deleting.",
      details: { tool: "nodesc" },
    });
  });

  it("the recipe would be invalid: the path and the loader's problem too", () => {
    const w = world();
    expect(w.run({ name: "bad", description: "b", template: "echo {x}", timeout: [1] })).toStrictEqual({
      ok: false,
      text: 'Tool recipe is invalid: field "timeout" must be a number or a string (got array)',
      details: {
        tool: "bad",
        config: `${ROOT}/bad.json`,
        problem: { kind: "invalid", message: 'field "timeout" must be a number or a string (got array)', field: "timeout" },
      },
    });
    expect(w.files.has(`${ROOT}/bad.json`)).toBe(false);
  });

  it("a reserved name", () => {
    expect(world().run({ name: "bash", description: "b", template: "echo" })).toStrictEqual({
      ok: false,
      text: "Reserved tool name: bash",
      details: { tool: "bash" },
    });
  });

  it("a template of the wrong kind", () => {
    expect(world().run({ name: "t", description: "t", template: 5 })).toStrictEqual({
      ok: false,
      text: "Tool template must be a string, object, or sequence.",
      details: { tool: "t" },
    });
  });
});

describe("details of a write", () => {
  it("a plain recipe: empty defaults, no async, no warnings", () => {
    expect(world().run({ name: "p", description: "P", template: "echo {x}", args: "x" })).toStrictEqual({
      ok: true,
      text: 'Registered tool "p" (args: x).',
      details: { args: ["x"], config: `${ROOT}/p.json`, defaults: {}, template: "echo {x}", tool: "p", updated: false },
    });
  });

  it("defaults written are reported", () => {
    expect(world().run({ name: "d", description: "D", template: "echo {x} {y}", args: "x,y=2" })).toStrictEqual({
      ok: true,
      text: 'Registered tool "d" (args: x, y).',
      details: { args: ["x", "y"], config: `${ROOT}/d.json`, defaults: { y: "2" }, template: "echo {x} {y}", tool: "d", updated: false },
    });
  });

  it("a recipe that says async reports it with its recipe name", () => {
    expect(world().run({ name: "a", description: "A", template: "echo {x}", args: "x", async: false })).toStrictEqual({
      ok: true,
      text: 'Registered tool "a" (args: x).',
      details: { args: ["x"], config: `${ROOT}/a.json`, defaults: {}, async: false, recipeName: "a", template: "echo {x}", tool: "a", updated: false },
    });
  });

  it("template warnings are listed only when there are some", () => {
    const warning = 'placeholder {x} is not declared in "args"; add it so the tool\'s schema is complete';
    expect(world().run({ name: "w", description: "W", template: "echo {x} {y}", args: "y" })).toStrictEqual({
      ok: true,
      text: `Registered tool "w" (args: y, x).\nWarnings:\n- ${warning}`,
      details: { args: ["y", "x"], config: `${ROOT}/w.json`, defaults: {}, template: "echo {x} {y}", templateWarnings: [warning], tool: "w", updated: false },
    });
  });

  it("a name already normalized gets no note, even one that starts with tool_ and a digit", () => {
    const w = world();
    expect(w.run({ name: "tool_9lives", description: "d", template: "echo" })).toStrictEqual({
      ok: true,
      text: 'Registered tool "tool_9lives" (args: none).',
      details: { args: [], config: `${ROOT}/tool_9lives.json`, defaults: {}, template: "echo", tool: "tool_9lives", updated: false },
    });
    expect(w.read("tool_9lives.json")).toEqual({ description: "d", template: "echo" });
  });

  it("a Markdown source is rewritten as JSON in the default key order, not its frontmatter's", () => {
    const md = "---\nargs: file:path\ndescription: Count words\n---\n\nProse.\n\n```template\nwc -w {file}\n```\n";
    const w = world({ [`${ROOT}/m.md`]: md });
    expect(w.run({ name: "m", description: "Count", update: true })).toStrictEqual({
      ok: true,
      text: `Updated tool "m" (args: file).\n${markdownShadowedText(`${ROOT}/m.json`, `${ROOT}/m.md`)}`,
      details: { args: ["file"], config: `${ROOT}/m.json`, defaults: {}, shadows: `${ROOT}/m.md`, template: "wc -w {file}", tool: "m", updated: true },
    });
    expect(w.files.get(`${ROOT}/m.json`)).toBe(pretty({ description: "Count", args: ["file:path"], template: "wc -w {file}" }));
    expect(w.files.get(`${ROOT}/m.md`)).toBe(md);
  });
});

describe("normalized names and drafts", () => {
  it("a delete under a normalized name says so", () => {
    const w = world({ [`${ROOT}/my_tool.json`]: { description: "M", template: "echo m" } });
    expect(w.run({ name: "My Tool", template: null })).toStrictEqual({
      ok: true,
      text: 'Deleted tool "my_tool". Reload to remove it from the complete registry.\nName "My Tool" was normalized to "my_tool".',
      details: { config: `${ROOT}/my_tool.json`, tool: "my_tool", removed: [`${ROOT}/my_tool.json`], normalized_from: "My Tool" },
    });
    expect(w.files.has(`${ROOT}/my_tool.json`)).toBe(false);
  });

  it("a blank or empty draft is no promotion: the call registers from its template", () => {
    for (const draft of ["  ", ""]) {
      const w = world();
      expect(w.run({ name: "t", description: "T", template: "echo", draft })).toStrictEqual({
        ok: true,
        text: 'Registered tool "t" (args: none).',
        details: { args: [], config: `${ROOT}/t.json`, defaults: {}, template: "echo", tool: "t", updated: false },
      });
      expect(w.read("t.json")).toEqual({ description: "T", template: "echo" });
    }
  });
});
