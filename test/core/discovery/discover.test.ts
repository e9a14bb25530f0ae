import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { file, root, snapshot, userRoot } from "../../support/snapshot.js";

const P = "/P";

describe("discovery", () => {
  it("the tool name is the file basename; a name field is ignored", () => {
    const d = discover(snapshot([userRoot({ "docs-review.json": { name: "ignored-docs-review", description: "Docs review", template: "echo review" } })]));
    const entry = d.active.get("docs-review");
    expect(entry?.tool).toBe(true);
    expect(entry?.config?.name).toBe("docs-review");
    expect(d.tools.map((t) => t.name)).toEqual(["docs-review"]);
    expect(d.tools[0]?.description).toBe("Docs review");
  });

  it("Markdown recipes; JSON shadows Markdown in one layer", () => {
    const d = discover(
      snapshot([
        userRoot({
          "literate.md": "---\ndescription: Literate\n---\n\n```template\necho md\n```\n",
          "same.md": "---\ndescription: md\n---\n\n```template\necho same md\n```\n",
          "same.json": { template: "echo same json" },
        }),
      ]),
    );
    expect(d.active.get("literate")?.config?.template).toBe("echo md");
    expect(d.active.get("same")?.path).toBe("/A/recipes/same.json");
    const md = d.entries.find((e) => e.path === "/A/recipes/same.md");
    expect(md?.shadowed).toBe(true);
    expect(md?.shadowedBy).toBe("/A/recipes/same.json");
    expect(d.diagnostics).toContain("Markdown recipe /A/recipes/same.md is shadowed by JSON recipe /A/recipes/same.json");
    expect(d.diagnostics).toContain("Recipe same shadows 1 lower-priority recipe(s)");
  });

  it("JSON shadows Markdown only within one layer: a Markdown recipe in a lower layer is just shadowed", () => {
    const d = discover(
      snapshot([
        userRoot({ "same.json": { template: "echo json" } }),
        root(P, { "same.md": "---\ndescription: md\n---\n\n```template\necho md\n```\n" }),
      ]),
    );
    const md = d.entries.find((e) => e.path === "/P/same.md");
    expect(md?.shadowedBy).toBe("/A/recipes/same.json");
    expect(md?.diagnostics).toEqual([]);
    expect(d.diagnostics).toEqual(["Recipe same shadows 1 lower-priority recipe(s)"]);
  });

  it("an invalid winner blocks its lower-priority fallback", () => {
    const d = discover(snapshot([userRoot({ "repo-health.json": {} }), root(P, { "repo-health.json": { template: "echo low" } })]));
    const winner = d.active.get("repo-health");
    expect(winner?.path).toBe("/A/recipes/repo-health.json");
    expect(winner?.invalid).toBe(true);
    expect(winner?.tool).toBe(false);
    expect(d.tools).toEqual([]);
    expect(d.diagnostics.some((m) => m.includes("blocks lower-priority"))).toBe(true);
    expect(d.diagnostics).toContain("Invalid recipe: /A/recipes/repo-health.json: recipe must define template");
  });

  it("a disabled winner blocks its fallback too", () => {
    const d = discover(snapshot([userRoot({ "x.json": { disabled: true, template: "echo hi" } }), root(P, { "x.json": { template: "echo low" } })]));
    expect(d.tools).toEqual([]);
    expect(d.active.get("x")?.disabled).toBe(true);
    expect(d.diagnostics).toEqual(["Recipe x is disabled and blocks lower-priority recipes", "Recipe x shadows 1 lower-priority recipe(s)"]);
  });

  it("ad hoc files rank between the user root and packaged; components are not tools", () => {
    const adhoc = { kind: "file" as const, root: "/adhoc", present: true, tool: false, mutableUsage: false, files: [file("/adhoc/same-name.json", { template: "echo adhoc" })] };
    const d = discover(snapshot([userRoot({ "same-name.json": { template: "echo user" } }), adhoc, root(P, { "same-name.json": { template: "echo pkg" } })]));
    expect(d.active.get("same-name")?.path).toBe("/A/recipes/same-name.json");
    expect(d.active.get("same-name")?.shadows).toEqual(["/adhoc/same-name.json", "/P/same-name.json"]);
    const only = discover(snapshot([adhoc]));
    expect(only.active.get("same-name")?.tool).toBe(false);
    expect(only.tools).toEqual([]);
  });

  it("files over 1 MiB fail to load with the exact message", () => {
    const big = file("/A/recipes/big.json", "{}", { size: 1_048_577, bytes: undefined as never });
    const { bytes: _b, ...noBytes } = big;
    const d = discover(snapshot([{ ...userRoot({}), files: [noBytes] }]));
    expect(d.diagnostics).toContain(
      "Failed to load recipe /A/recipes/big.json: Recipe file exceeds size limit 1048576 bytes: /A/recipes/big.json",
    );
  });

  it("reserved names are not tools", () => {
    const d = discover(snapshot([userRoot({ "bash.json": { template: "echo x" }, "Bash.json": { template: "echo y" } })]));
    expect(d.tools.map((t) => t.name)).toEqual(["Bash"]);
    expect(d.diagnostics).toContain("Reserved tool name: bash");
  });

  it("an invalid recipe never hides the valid ones", () => {
    const d = discover(snapshot([userRoot({ "a.json": "{ nope", "b.json": { template: "echo b" }, "c.md": "# no frontmatter" })]));
    expect(d.tools.map((t) => t.name)).toEqual(["b"]);
    expect(d.diagnostics).toContain("Invalid recipe: /A/recipes/c.md: Markdown recipe must start with frontmatter");
  });

  it("root permission diagnostics come first", () => {
    const d = discover(snapshot([userRoot({ "a.json": { template: "echo a" } }, { rootMode: 0o40777 })]));
    expect(d.diagnostics.slice(0, 2)).toEqual([
      "Recipe root is world-writable; review permissions: /A/recipes",
      "Recipe root is group-writable; review ownership and permissions: /A/recipes",
    ]);
  });

  it("a missing root discovers nothing without error", () => {
    const d = discover(snapshot([userRoot({}, { present: false })]));
    expect(d).toMatchObject({ tools: [], diagnostics: [] });
  });

  it("drafts are listed, never tools", () => {
    const d = discover(
      snapshot(
        [userRoot({})],
        [file("/A/recipes/drafts/d.json", { description: "Captured from spawn run r-17: x", template: "echo {x}" }), file("/A/recipes/drafts/bad.json", "{")],
      ),
    );
    expect(d.tools).toEqual([]);
    expect(d.drafts.map((x) => [x.id, x.valid])).toEqual([
      ["bad", false],
      ["d", true],
    ]);
    expect(d.drafts[1]).toMatchObject({ source_run: "r-17", template_preview: "echo {x}", description: "Captured from spawn run r-17: x" });
  });
});

describe("load-time checks name the file and field", () => {
  const diag = (files: Record<string, string | object>): readonly string[] => discover(snapshot([userRoot(files)])).diagnostics;

  it("an unterminated quote makes the recipe invalid", () => {
    expect(diag({ "q.json": { template: "say 'oops" } })).toContain(
      "Invalid recipe: /A/recipes/q.json: Unterminated ' quote in command template: say 'oops",
    );
  });

  it("an unknown argument type is named", () => {
    expect(diag({ "t.json": { args: ["n:integer"], template: "seq {n}" } })).toContain(
      'Invalid recipe: /A/recipes/t.json: field "args" declares unknown type "integer" for n; use string, path, int, number, bool, array or enum(a,b)',
    );
  });

  it("a default that its own type rejects is named", () => {
    expect(diag({ "d.json": { args: ["mode:enum(check,fix)"], defaults: { mode: "delete" }, template: "c {mode}" } })).toContain(
      'Invalid recipe: /A/recipes/d.json: field "defaults.mode": Argument mode must be one of: check, fix.',
    );
    expect(diag({ "e.json": { args: ["n:int=abc"], template: "c {n}" } })).toContain(
      'Invalid recipe: /A/recipes/e.json: field "args": Invalid default for n:int',
    );
  });

  it("a mistyped field is named", () => {
    expect(diag({ "f.json": { async: "yes", template: "c" } })).toContain(
      'Invalid recipe: /A/recipes/f.json: field "async" must be a boolean (got string)',
    );
  });

  it("non-UTF-8 bytes are named", () => {
    const d = discover(snapshot([{ ...userRoot({}), files: [file("/A/recipes/u.json", new Uint8Array([0x7b, 0xff, 0x7d]))] }]));
    expect(d.diagnostics.join("\n")).toMatch(/Invalid recipe: \/A\/recipes\/u\.json: file is not valid UTF-8 text/);
  });
});
