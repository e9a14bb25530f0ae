import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { loadRecipe } from "../../../core/recipe/load.js";
import { recipeDependencies, resolveRecipe } from "../../../core/recipe/imports.js";
import { AGENT, CWD, PKG, ROOT, type Files, contextOf, problem, resolved, snapshotFile } from "./imports-support.js";

const failed = (message: string) => ({ kind: "failed", message });

const CHILD_MD = [
  "---", "description: Markdown child", "args:", "  - word:string", "defaults:", '  suffix: "!"',
  "mailbox:", "  accepts:", "    - control.kill", "---", "", "```template", "printf {word}{suffix}", "```", "",
].join("\n");

describe("imports: golden cases", () => {
  it("a Markdown parent imports a Markdown child and calls it by alias", () => {
    const parent = '---\nimports:\n  child: child\n---\n\n```json recipe\n{"template":{"name":"child","values":{"word":"hello"}}}\n```\n';
    const c = resolved({ [`${ROOT}/child.md`]: CHILD_MD, [`${ROOT}/parent.md`]: parent }, `${ROOT}/parent.md`);
    expect(c.imports).toEqual({ child: "child" });
    expect(c.template).toEqual({ args: ["word:string"], defaults: { suffix: "!", word: "hello" }, template: "printf {word}{suffix}" });
  });

  it("import references in defaults and the template", () => {
    const files: Files = {
      [`${ROOT}/base.json`]: { name: "base-recipe", defaults: { profile: "safe", nested: { level: 3 }, enabled: true }, template: "echo base" },
      [`${ROOT}/parent.json`]: {
        imports: { base: { from: "base.json", values: { target: "docs", empty: "" } } },
        defaults: {
          inherited_profile: "{base.defaults.profile}",
          inherited_level: "{base.defaults.nested.level}",
          target: "{base.values.target}",
          label: "{base.name}:{base.values.target}",
          fallback: "{base.defaults.missing=default-profile}",
          enabled_label: "{base.defaults.enabled?enabled:disabled}",
          empty_label: "{base.values.empty?present:empty}",
        },
        template: "run {base.defaults.profile} {base.values.target} {base.defaults.missing=fallback} {base.values.empty?yes:no} {label}",
      },
    };
    const c = resolved(files, `${ROOT}/parent.json`);
    expect(c.defaults).toEqual({
      inherited_profile: "safe",
      inherited_level: 3,
      target: "docs",
      label: "base:docs",
      fallback: "default-profile",
      enabled_label: "enabled",
      empty_label: "empty",
    });
    expect(c.template).toEqual({ defaults: c.defaults, template: "run safe docs fallback no {label}" });
    // the bindings are kept as written, for views
    expect(c.imports).toEqual({ base: { from: "base.json", values: { target: "docs", empty: "" } } });
    expect(c.raw["template"]).toContain("{base.defaults.profile}");
  });

  it("an import node naming an undeclared alias", () => {
    expect(problem({ [`${ROOT}/p.json`]: { imports: {}, template: [{ name: "missing" }] } }, `${ROOT}/p.json`)).toEqual(
      failed("Unknown recipe import: missing"),
    );
  });

  it("a cycle of imports names every file of the cycle", () => {
    const files: Files = {
      [`${ROOT}/a.json`]: { imports: { b: "b.json" }, template: { name: "b" } },
      [`${ROOT}/b.json`]: { imports: { a: "a.json" }, template: { name: "a" } },
    };
    expect(problem(files, `${ROOT}/a.json`)).toEqual(failed(`Cyclic recipe import: ${ROOT}/a.json -> ${ROOT}/b.json -> ${ROOT}/a.json`));
  });

  it("layering: node defaults beat node values when the imported template is an object", () => {
    const files: Files = {
      [`${ROOT}/child.md`]: CHILD_MD,
      [`${ROOT}/parent.json`]: {
        imports: { child: { from: "child.md", defaults: { suffix: "?" }, values: { word: "hi" } } },
        template: { name: "child", defaults: { suffix: ".", word: "nd" }, values: { word: "nv" }, timeout: 5, label: "L" },
      },
    };
    const c = resolved(files, `${ROOT}/parent.json`);
    expect(c.template).toEqual({ args: ["word:string"], defaults: { suffix: ".", word: "nd" }, template: "printf {word}{suffix}", timeout: 5, label: "L" });
    expect(Object.keys(c.template as object)).toEqual(["args", "defaults", "template", "timeout", "label"]);
  });

  it("import layering for a string template: binding defaults < binding values < node defaults < node values", () => {
    const files: Files = {
      [`${ROOT}/say.json`]: { template: "echo {a} {b} {c} {d}" },
      [`${ROOT}/p.json`]: {
        imports: { say: { from: "say", defaults: { a: 1, b: 1, c: 1, d: 1 }, values: { b: 2, c: 2, d: 2 } } },
        template: { name: "say", defaults: { c: 3, d: 3 }, values: { d: 4 }, label: "S" },
      },
    };
    expect(resolved(files, `${ROOT}/p.json`).template).toEqual({ label: "S", defaults: { a: 1, b: 2, c: 3, d: 4 }, template: "echo {a} {b} {c} {d}" });
  });
});

describe("delegation: golden cases", () => {
  const shared = {
    async: true,
    args: ["message:string"],
    defaults: { message: "user" },
    mailbox: { accepts: ["player.stop"] },
    retire_when: "children_terminal",
    template: "echo {message}",
  };
  const adhoc = "/tmp/adhoc/parent.json";
  const parent = { defaults: { message: "parent" }, template: "shared" };

  it("a wrapper whose template names a user recipe takes the recipe over", () => {
    const c = resolved({ [`${ROOT}/shared.json`]: shared, [`${PKG}/shared.json`]: { template: "echo packaged" }, [adhoc]: parent }, adhoc);
    expect(c).toMatchObject({
      async: true,
      args: ["message:string"],
      defaults: { message: "parent" },
      mailbox: { accepts: ["player.stop"] },
      retire_when: "children_terminal",
      template: { args: ["message:string"], defaults: { message: "parent" }, template: "echo {message}" },
    });
  });

  it("without the user file the packaged recipe is the target", () => {
    const c = resolved({ [`${PKG}/shared.json`]: { template: "echo {message}" }, [adhoc]: parent }, adhoc);
    expect(c.template).toEqual({ defaults: { message: "parent" }, template: "echo {message}" });
    expect(c.async).toBeUndefined();
  });

  it("a disabled target", () => {
    const files: Files = { [`${ROOT}/dis.json`]: { disabled: true, template: "echo d" }, [`${ROOT}/w.json`]: { template: "dis" } };
    expect(problem(files, `${ROOT}/w.json`)).toEqual(failed(`Template recipe is disabled: ${ROOT}/dis.json`));
  });

  it("a target without a template", () => {
    const files: Files = { [`${ROOT}/inv.json`]: { description: "x" }, [`${ROOT}/w.json`]: { template: "inv" } };
    expect(problem(files, `${ROOT}/w.json`)).toEqual(failed(`Template recipe must define template: ${ROOT}/inv.json`));
  });

  it("references inside a sequence are replaced in place; a node keeps its own keys", () => {
    const files: Files = {
      [`${ROOT}/shared.json`]: { template: "echo shared" },
      [`${ROOT}/w.json`]: { template: ["echo a", "shared", { label: "L", template: "shared" }] },
    };
    const c = resolved(files, `${ROOT}/w.json`);
    expect(c.template).toEqual(["echo a", "echo shared", { label: "L", template: "echo shared" }]);
  });

  it("the target's values become defaults of the placed template, under the wrapper's defaults", () => {
    const files: Files = {
      [`${ROOT}/t.json`]: { description: "T", args: ["a", "b"], defaults: { a: "ta" }, values: { b: "tv" }, template: "echo {a} {b}" },
      [`${ROOT}/w.json`]: { defaults: { a: "wa" }, timeout: 9, template: "t" },
    };
    const c = resolved(files, `${ROOT}/w.json`);
    expect(c.template).toEqual({ args: ["a", "b"], defaults: { a: "wa", b: "tv" }, template: "echo {a} {b}", timeout: 9 });
    expect(c.description).toBe("T");
    expect(c.defaults).toEqual({ a: "wa" });
    expect(c.timeout).toBe(9);
  });

  it("a self-reference is a cycle", () => {
    expect(problem({ [`${ROOT}/x.json`]: { template: "x" } }, `${ROOT}/x.json`)).toEqual(
      failed(`Cyclic recipe import: ${ROOT}/x.json -> ${ROOT}/x.json`),
    );
  });

  it("a cycle through bare names", () => {
    const files: Files = { [`${ROOT}/a.json`]: { template: "b" }, [`${ROOT}/b.json`]: { template: ["echo b", "a"] } };
    expect(problem(files, `${ROOT}/a.json`)).toEqual(failed(`Cyclic recipe import: ${ROOT}/a.json -> ${ROOT}/b.json -> ${ROOT}/a.json`));
  });

  it("a `.json` path is a reference even when the file is missing", () => {
    expect(problem({ [`${ROOT}/w.json`]: { template: "./gone.json" } }, `${ROOT}/w.json`)).toEqual(
      failed(`Template recipe must define template: ${CWD}/gone.json`),
    );
  });

  it("a reference inside `recover` is replaced too", () => {
    const files: Files = { [`${ROOT}/cleanup.json`]: { template: "rm -f tmp" }, [`${ROOT}/w.json`]: { recover: "cleanup", template: "make" } };
    expect(resolved(files, `${ROOT}/w.json`).template).toEqual({ recover: "rm -f tmp", template: "make" });
  });
});

describe("only .json/.md paths and bare recipe names are recipe references", () => {
  it.each(["/bin/ls", "./run.sh", "./run.sh -x", "~/bin/tool", "/bin/ls -la"])("%s runs as a command", (template) => {
    const files: Files = {
      "/bin/ls": "binary",
      [`${CWD}/run.sh`]: "#!/bin/sh",
      "/home/u/bin/tool": "#!/bin/sh",
      [`${ROOT}/w.json`]: { template },
    };
    expect(resolved(files, `${ROOT}/w.json`).template).toBe(template);
  });

  it("a bare word delegates only when <word>.json or <word>.md exists", () => {
    const files: Files = { [`${ROOT}/w.json`]: { template: ["make", "ls"] }, [`${ROOT}/make`]: "not a recipe" };
    expect(resolved(files, `${ROOT}/w.json`).template).toEqual(["make", "ls"]);
  });

  it.each([
    ["ROOT", `${ROOT}/tool.md`],
    ["the recipe's directory", "/proj/recipes/tool.json"],
    ["the packaged root", `${PKG}/tool.json`],
  ])("a bare name resolves in %s", (_where, path) => {
    const body = path.endsWith(".md") ? "---\ndescription: t\n---\n```template\necho found\n```\n" : { template: "echo found" };
    const files: Files = { [path]: body, "/proj/recipes/w.json": { template: "tool" } };
    expect(resolved(files, "/proj/recipes/w.json").template).toBe("echo found");
  });

  it("ROOT wins over the recipe's directory, which wins over the packaged root; .json before .md", () => {
    const files: Files = {
      [`${PKG}/tool.json`]: { template: "echo pkg" },
      "/proj/recipes/tool.json": { template: "echo dir" },
      "/proj/recipes/w.json": { template: "tool" },
    };
    expect(resolved(files, "/proj/recipes/w.json").template).toBe("echo dir");
    files[`${ROOT}/tool.md`] = "---\n---\n```template\necho root md\n```\n";
    expect(resolved(files, "/proj/recipes/w.json").template).toBe("echo root md");
    files[`${ROOT}/tool.json`] = { template: "echo root json" };
    expect(resolved(files, "/proj/recipes/w.json").template).toBe("echo root json");
  });
});

describe("imports: problems", () => {
  it.each([
    [{ "bad alias": "x" }, "Invalid recipe import alias: bad alias"],
    [{ a: 5 }, "Recipe import must be a string or object: a"],
    [{ a: ["x"] }, "Recipe import must be a string or object: a"],
    [{ a: { defaults: {} } }, "Recipe import must define from: a"],
    [{ a: { from: "  " } }, "Recipe import must define from: a"],
  ])("bindings %j", (imports, message) => {
    expect(problem({ [`${ROOT}/p.json`]: { imports, template: "echo" } }, `${ROOT}/p.json`)).toEqual(failed(message));
  });

  it("an import of a missing or invalid file is not found; an invalid one says which file and why", () => {
    const files: Files = { [`${ROOT}/broken.json`]: "{ not json", [`${ROOT}/notemplate.json`]: { description: "x" } };
    const cases: [string, string][] = [
      ["broken", `Recipe import not found: dep (${ROOT}/broken.json is not a valid recipe: Expected property name or '}' in JSON at position 2 (line 1 column 3))`],
      ["notemplate.json", `Recipe import not found: dep (${ROOT}/notemplate.json is not a valid recipe: recipe must define template)`],
      ["nowhere", "Recipe import not found: dep"],
    ];
    for (const [from, message] of cases) {
      files[`${ROOT}/p.json`] = { imports: { dep: from }, template: "echo" };
      expect(problem(files, `${ROOT}/p.json`)).toEqual(failed(message));
    }
  });

  it("an oversized import fails with its own message", () => {
    const big = JSON.stringify({ template: "echo", pad: "x".repeat(1048576) });
    const files: Files = { [`${ROOT}/big.json`]: big, [`${ROOT}/p.json`]: { imports: { big: "big" }, template: "echo" } };
    expect(problem(files, `${ROOT}/p.json`)).toEqual(failed(`Recipe file exceeds size limit 1048576 bytes: ${ROOT}/big.json`));
  });

  it("a problem deep in the graph surfaces unchanged", () => {
    const files: Files = {
      [`${ROOT}/a.json`]: { imports: { b: "b" }, template: { name: "b" } },
      [`${ROOT}/b.json`]: { template: [{ name: "nope" }] },
    };
    expect(problem(files, `${ROOT}/a.json`)).toEqual(failed("Unknown recipe import: nope"));
  });

  it("an unknown import reference without fallback", () => {
    const files: Files = {
      [`${ROOT}/base.json`]: { template: "echo" },
      [`${ROOT}/p.json`]: { imports: { base: "base" }, template: "echo {base.defaults.nope}" },
    };
    expect(problem(files, `${ROOT}/p.json`)).toEqual(failed("Unknown recipe import reference: base.defaults.nope"));
  });

  const chain = (n: number): Files => {
    const files: Files = {};
    for (let i = 0; i < n; i++) {
      files[`${ROOT}/r${i}.json`] = i === n - 1 ? { template: "echo end" } : { imports: { next: `r${i + 1}` }, template: { name: "next" } };
    }
    return files;
  };

  it("an import chain of 32 recipes resolves", () => {
    expect(resolved(chain(32), `${ROOT}/r0.json`).template).toBe("echo end");
  });

  it("an import chain of 33 recipes exceeds the depth limit", () => {
    const paths = Array.from({ length: 33 }, (_, i) => `${ROOT}/r${i}.json`).join(" -> ");
    expect(problem(chain(33), `${ROOT}/r0.json`)).toEqual(failed(`Recipe import depth exceeds limit 32: ${paths}`));
  });

  it("the depth limit counts the caller's stack", () => {
    const stack = Array.from({ length: 31 }, (_, i) => `/outer/s${i}.json`);
    expect(resolved(chain(1), `${ROOT}/r0.json`, { stack }).template).toBe("echo end");
    expect(problem(chain(2), `${ROOT}/r0.json`, { stack }).message).toMatch(/^Recipe import depth exceeds limit 32: \/outer\/s0.json -> /);
  });

  it("diamond-shaped imports load each file once and raise no false cycle", () => {
    const files: Files = { [`${ROOT}/leaf.json`]: { template: "echo leaf" } };
    for (let i = 0; i < 30; i++) {
      const next = i === 29 ? "leaf" : `d${i + 1}`;
      files[`${ROOT}/d${i}.json`] = { imports: { x: next, y: `${next}.json` }, template: [{ name: "x" }, { name: "y" }] };
    }
    const ctx = contextOf(files);
    let leafReads = 0;
    const counting = { ...ctx, readFile: (p: string) => (p === `${ROOT}/leaf.json` && leafReads++, ctx.readFile(p)) };
    const d0 = loadRecipe(ctx.readFile(`${ROOT}/d0.json`)!, "d0", "json");
    if (E.isLeft(d0)) throw new Error("setup");
    const r = resolveRecipe(d0.right, `${ROOT}/d0.json`, counting);
    // 2^31 commands: past the command limit, which is no cycle
    expect(r).toEqual(E.left({ _tag: "InvalidTemplate", message: "Command template expands to more than 10000 commands." }));
    expect(leafReads).toBeLessThanOrEqual(3);
    // ten levels (2^11 commands) resolve
    const d20 = loadRecipe(ctx.readFile(`${ROOT}/d20.json`)!, "d20", "json");
    if (E.isLeft(d20)) throw new Error("setup");
    expect(E.isRight(resolveRecipe(d20.right, `${ROOT}/d20.json`, ctx))).toBe(true);
  });
});

describe("a wrapper recipe over a skill's recipe", () => {
  it("imports a skill recipe through {agent} and calls it by alias", () => {
    const skill = `${AGENT}/skills/abcd-context/recipes/validate-context.json`;
    const files: Files = {
      [skill]: {
        description: "Validate ABCd context",
        args: ["path:path"],
        defaults: { path: "." },
        mailbox: { accepts: ["control.kill"] },
        template: "python3 {agent}/skills/abcd-context/scripts/validate.py {path}",
      },
      [`${ROOT}/validate_context.json`]: {
        description: "Run the ABCd context validator through its skill recipe.",
        imports: { validate_context: "{agent}/skills/abcd-context/recipes/validate-context.json" },
        args: ["path:path=."],
        template: { name: "validate_context" },
      },
    };
    const c = resolved(files, `${ROOT}/validate_context.json`);
    expect(c.description).toBe("Run the ABCd context validator through its skill recipe.");
    expect(c.args).toEqual(["path:path=."]);
    expect(c.imports).toEqual({ validate_context: "{agent}/skills/abcd-context/recipes/validate-context.json" });
    expect(c.template).toEqual({
      args: ["path:path=."],
      defaults: { path: "." },
      template: "python3 {agent}/skills/abcd-context/scripts/validate.py {path}",
    });
  });
});

describe("resolveRecipe contract", () => {
  it("returns the very same config when there is nothing to resolve", () => {
    const ctx = contextOf({});
    const file = snapshotFile(`${ROOT}/plain.json`, { description: "d", template: ["echo a", { label: "x", template: "echo b" }] });
    const loaded = loadRecipe(file, "plain", "json");
    if (E.isLeft(loaded)) throw new Error("setup");
    expect(resolveRecipe(loaded.right, file.path, ctx)).toEqual(E.right(loaded.right));
    expect(E.isRight(resolveRecipe(loaded.right, file.path, ctx)) && resolveRecipe(loaded.right, file.path, ctx)).toMatchObject({ right: loaded.right });
  });

  it("a substituted field that takes the wrong type makes the recipe invalid", () => {
    const files: Files = {
      [`${ROOT}/base.json`]: { defaults: { t: { no: 1 } }, template: "echo" },
      [`${ROOT}/p.json`]: { imports: { base: "base" }, label: "{base.defaults.t}", template: "echo" },
    };
    expect(problem(files, `${ROOT}/p.json`)).toMatchObject({ kind: "invalid", field: "label" });
  });

  it("a stack that already holds the recipe is a cycle", () => {
    expect(problem({ [`${ROOT}/p.json`]: { template: "echo" } }, `${ROOT}/p.json`, { stack: [`${ROOT}/p.json`] })).toEqual(
      failed(`Cyclic recipe import: ${ROOT}/p.json -> ${ROOT}/p.json`),
    );
  });
});

describe("recipeDependencies", () => {
  const files: Files = {
    [`${ROOT}/a.json`]: { imports: { b: "b" }, template: ["shared", { name: "b" }] },
    [`${ROOT}/b.json`]: { imports: { c: "/elsewhere/c.json" }, template: { name: "c" } },
    [`${PKG}/shared.json`]: { template: "echo shared" },
    "/elsewhere/c.json": { imports: { leaf: "leaf" }, template: "echo c" },
    "/elsewhere/leaf.json": { template: "echo leaf" },
  };
  const dependencies = (files: Files): string[] => {
    const ctx = contextOf(files);
    const a = loadRecipe(ctx.readFile(`${ROOT}/a.json`)!, "a", "json");
    if (E.isLeft(a)) throw new Error("setup");
    return recipeDependencies(a.right, `${ROOT}/a.json`, ctx);
  };

  it("lists imports and delegation targets transitively", () => {
    expect(dependencies(files)).toEqual([`${ROOT}/b.json`, "/elsewhere/c.json", "/elsewhere/leaf.json", `${PKG}/shared.json`]);
  });

  it("stops at the first missing file, which it includes (creating it triggers the next listing)", () => {
    const broken = { ...files, "/elsewhere/c.json": { imports: { gone: "gone" }, template: "echo c" } };
    expect(dependencies(broken)).toEqual([`${ROOT}/b.json`, "/elsewhere/c.json", `${ROOT}/gone.json`]);
  });

  it("is empty for a self-contained recipe", () => {
    const ctx = contextOf({});
    const p = loadRecipe(snapshotFile(`${ROOT}/p.json`, { template: "echo {x}" }), "p", "json");
    if (E.isLeft(p)) throw new Error("setup");
    expect(recipeDependencies(p.right, `${ROOT}/p.json`, ctx)).toEqual([]);
  });
});
