// The one compile step: every kind of recipe file goes through compileRecipe, and the registry's
// facts about it (config, surface, risk labels, warnings, problems, the tool) are read from the
// result.
import * as E from "fp-ts/lib/Either.js";
import type { Json } from "../../../core/model.js";
import { describe, expect, it } from "vitest";
import { compileRecipe, type CompiledConfig, type CompiledRecipe } from "../../../core/compile/compile-recipe.js";
import { toolOf } from "../../../core/compile/tool.js";
import { draftEntry } from "../../../core/discovery/drafts.js";
import { formatOfPath, idOfPath } from "../../../core/recipe/posix.js";
import { ROOT, type Files, contextOf } from "../recipe/imports-support.js";

function compile(files: Files, path: string, digest?: string): CompiledRecipe {
  const ctx = contextOf(files);
  const file = ctx.readFile(path);
  if (file === undefined) throw new Error(`test setup: no file ${path}`);
  return compileRecipe({ file, id: idOfPath(path), format: formatOfPath(path) }, digest === undefined ? ctx : { ...ctx, digest: () => digest });
}

function recipe(c: CompiledRecipe): CompiledConfig {
  if (c.kind !== "recipe") throw new Error(`expected a recipe, got ${JSON.stringify(c)}`);
  return c;
}

describe("compileRecipe", () => {
  it("a JSON recipe: config, argument surface, labels, warnings and its tool", () => {
    const path = `${ROOT}/clean.json`;
    const c = recipe(compile({ [path]: { description: "Clean", args: ["dir:path"], template: "bash -c 'rm -rf {dir}' {mode=fast}" } }, path));
    expect(c.disabled).toBe(false);
    expect(c.config.description).toBe("Clean");
    expect(c.surface.names).toEqual(["dir", "mode"]);
    expect(c.surface.required).toEqual(["dir"]);
    expect(c.riskLabels).toEqual(["risk.shell", "risk.eval", "risk.option_injection"]);
    expect(c.optionInjection).toEqual(["mode"]);
    // the trusted boundary, and {mode} missing from the explicit args
    expect(c.warnings.map((w) => w.kind)).toEqual(["shell", "authoring"]);
    expect(c.warnings[1]?.text).toBe('placeholder {mode} is not declared in "args"; add it so the tool\'s schema is complete');
    expect(c.diagnostics).toEqual(c.warnings.map((w) => `Recipe ${path}: ${w.text}`));
    const tool = toolOf(c);
    expect(E.isRight(tool) && tool.right.schema).toEqual({
      additionalProperties: false,
      properties: { dir: expect.any(Object), mode: expect.any(Object) },
      required: ["dir"],
      type: "object",
    });
    // a plain value: every property is data (no getter), and a structured copy is equal to it
    if (E.isLeft(tool)) throw new Error("expected a tool");
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(tool.right))) expect([key, d.get]).toEqual([key, undefined]);
    expect(structuredClone(tool.right)).toEqual(tool.right);
  });

  it("the tool carries the schema the model is shown: one property per argument with its type, description and default, the required names, and for an async tool the properties that steer its run", () => {
    const path = `${ROOT}/count.json`;
    const config = {
      description: "Count",
      args: ["file:path", "n:int", "mode:enum(words,lines)=words", "dry:bool"],
      arg_descriptions: { file: "The file to count in" },
      defaults: { n: "3" },
      template: "wc {file} {n} {mode} {dry} {extra}",
    };
    const properties = {
      file: { description: "The file to count in", type: "string" },
      n: { description: "Int argument: n", type: "integer", default: 3 },
      mode: { description: "Enum argument: mode", enum: ["words", "lines"], type: "string", default: "words" },
      dry: { description: "Bool argument: dry", type: "boolean" },
      extra: { description: "Argument: extra", type: "string" },
    };
    const foreground = toolOf(recipe(compile({ [path]: config }, path)));
    expect(E.isRight(foreground) && foreground.right.schema).toStrictEqual({ additionalProperties: false, properties, required: ["file", "dry", "extra"], type: "object" });
    const background = toolOf(recipe(compile({ [path]: { ...config, async: true } }, path)));
    expect(E.isRight(background) && background.right.schema).toStrictEqual({
      additionalProperties: false,
      properties: {
        ...properties,
        run_id: { description: "Optional run id override for this async template recipe invocation.", type: "string" },
        correlation_id: { description: "Optional workflow correlation id preserved in terminal follow-up delivery.", type: "string" },
      },
      required: ["file", "dry", "extra"],
      type: "object",
    });
    // the schema travels with the tool as plain data: a structured copy of the tool keeps it
    if (E.isLeft(background)) throw new Error("expected a tool");
    expect(structuredClone(background.right).schema).toStrictEqual(background.right.schema);
  });

  it("a declared argument nothing in the template reads is warned of; one read in any form is not", () => {
    const path = `${ROOT}/decl.json`;
    const warnings = (raw: Record<string, unknown>): string[] => recipe(compile({ [path]: { description: "D", ...raw } }, path)).warnings.map((w) => w.text);
    const unused = (name: string): string => `"args" declares "${name}", which nothing in the template reads: the tool takes it and does nothing with it; remove it or use {${name}}`;
    expect(warnings({ args: ["x", "y:int"], template: "echo {x}" })).toEqual([unused("y")]);
    // the declaration itself (here or on an inner node) is no read
    expect(warnings({ args: ["x", "y"], template: { args: ["y"], template: "echo {x}" } })).toEqual([unused("y")]);
    for (const [args, template, extra] of [
      [["flag:bool"], { when: "flag", template: "echo on" }, {}],
      [["flag:bool"], { when: "!flag", template: "echo off" }, {}],
      [["xs:array"], { repeat: "{xs.length}", template: "echo {xs[index]}" }, {}],
      [["n:int"], { repeat: 3, template: "echo {_(index+n)}" }, {}],
      [["t:int"], { timeout: "{t}", template: "sleep 1" }, {}],
      [["who", "label"], "echo {label}", { defaults: { label: "hi {who}" } }],
      [["who"], "echo {greeting}", { values: { greeting: "hi {who}" } }],
      [["mode"], "echo {mode?fast:slow}", {}],
    ] as const)
      expect(warnings({ args, template, ...extra }).filter((w) => w.includes("nothing in the template reads")), JSON.stringify(template)).toEqual([]);
  });

  it("a recover that can never run (no retry of 2 or more beside it) is warned of; one with such a retry, or a retry by placeholder, is not", () => {
    const path = `${ROOT}/recover.json`;
    const warnings = (raw: Record<string, unknown>): string[] =>
      recipe(compile({ [path]: { description: "D", ...raw } }, path)).warnings.map((w) => w.text).filter((t) => t.startsWith('"recover"'));
    const idle = (where: string): string => `"recover" ${where} without a "retry" of 2 or more: it runs only between the attempts of a retry, so it never runs; add "retry": 2 (or more) beside it`;
    expect(warnings({ template: "false", recover: "true" })).toEqual([idle("is on a node")]);
    expect(warnings({ template: { template: "false", recover: "true", retry: 1 } })).toEqual([idle("is on a node")]);
    expect(warnings({ template: { template: "false", recover: "true", retry: "1" } })).toEqual([idle("is on a node")]);
    expect(warnings({ template: { template: "false", recover: "true", retry: "3" } })).toEqual([]);
    expect(warnings({ template: ["true", { template: "false", recover: "true" }, { template: "false", recover: "true" }] })).toEqual([idle("is on 2 nodes")]);
    for (const raw of [{ template: "false", recover: "true", retry: 2 }, { args: ["n:int"], template: "false", recover: "true", retry: "{n}" }, { template: "false" }])
      expect(warnings(raw), JSON.stringify(raw)).toEqual([]);
  });

  it("with recipe args, names the root node declares elsewhere are warned of too, once each", () => {
    const path = `${ROOT}/root-args.json`;
    const c = recipe(compile({ [path]: { description: "R", args: ["a"], template: { args: ["b", "b", ""], template: "x {a} {b} {c}" } } }, path));
    expect(c.surface.names).toEqual(["a", "b", "c"]);
    expect(c.warnings.map((w) => w.text)).toEqual([
      'placeholder {b} is not declared in "args"; add it so the tool\'s schema is complete',
      'placeholder {c} is not declared in "args"; add it so the tool\'s schema is complete',
    ]);
    // a name the root node declares and no placeholder mentions is warned of too
    const only = `${ROOT}/root-only.json`;
    const d = recipe(compile({ [only]: { description: "R", args: ["a"], template: { args: ["b"], template: "x {a}" } } }, only));
    expect(d.surface.names).toEqual(["a"]);
    expect(d.warnings.map((w) => w.text)).toEqual(['placeholder {b} is not declared in "args"; add it so the tool\'s schema is complete']);
  });

  it("a Markdown recipe compiles like the JSON it stands for", () => {
    const md = `${ROOT}/greet.md`;
    const json = `${ROOT}/greet.json`;
    const fromMd = recipe(compile({ [md]: "---\ndescription: Greet\nasync: true\n---\n\n```template\necho {who}\n```\n" }, md));
    const fromJson = recipe(compile({ [json]: { description: "Greet", async: true, template: "echo {who}" } }, json));
    expect(fromMd.format).toBe("md");
    expect(fromMd.surface).toEqual(fromJson.surface);
    expect(fromMd.riskLabels).toEqual(["risk.long_running", "risk.option_injection"]);
    expect(fromMd.riskLabels).toEqual(fromJson.riskLabels);
  });

  it("an invalid recipe is a problem naming the file, with no tool", () => {
    const path = `${ROOT}/bad.json`;
    const c = compile({ [path]: { template: "echo 'open" } }, path);
    expect(c.kind).toBe("problem");
    expect(c.kind === "problem" && c.problem.field).toBe("template");
    expect(c.diagnostics[0]).toMatch(new RegExp(`^Invalid recipe: ${path}: `));
  });

  it("a file that is not JSON is a problem", () => {
    const path = `${ROOT}/broken.json`;
    expect(compile({ [path]: "{ nope" }, path).kind).toBe("problem");
  });

  it("imports are resolved: the surface and labels are those of the expanded template", () => {
    const files: Files = {
      [`${ROOT}/base.json`]: { defaults: { host: "example.org" }, template: "curl {url}" },
      [`${ROOT}/use.json`]: { imports: { base: "base.json" }, template: "echo {base.defaults.host} {n:int}" },
    };
    const c = recipe(compile(files, `${ROOT}/use.json`));
    expect(c.config.template).toBe("echo example.org {n:int}");
    expect(c.surface.names).toEqual(["n"]);
    expect(c.surface.types["n"]).toEqual({ kind: "int" });
  });

  it("a broken import makes an enabled recipe a problem", () => {
    const path = `${ROOT}/use.json`;
    const c = compile({ [path]: { imports: { base: "missing.json" }, template: "echo hi" } }, path);
    expect(c.kind === "problem" && c.problem.message).toBe("Recipe import not found: base");
  });

  it("a disabled recipe is not resolved or checked: a broken import or template does not make it a problem", () => {
    const path = `${ROOT}/off.json`;
    const c = recipe(compile({ [path]: { disabled: true, imports: { base: "missing.json" }, template: "rm -rf / 'open" } }, path));
    expect(c.disabled).toBe(true);
    // still labelled from the template as written
    expect(c.riskLabels).toContain("risk.destructive_fs");
  });

  it("a literal repeat above 10,000 copies is a problem when the recipe loads, not an out-of-memory end at the call", () => {
    const path = `${ROOT}/rep.json`;
    const tooMany = "Command template expands to more than 10000 commands.";
    for (const raw of [{ repeat: 100_000_000, template: "echo" }, { template: ["a", { repeat: "10001", template: "b" }] }]) {
      const c = compile({ [path]: raw }, path);
      expect(c.kind).toBe("problem");
      if (c.kind === "problem") expect(c.problem).toMatchObject({ message: tooMany });
    }
    expect(compile({ [path]: { repeat: 10_000, template: "echo" } }, path).kind).toBe("recipe");
  });

  it("repeats nested in one another count together: within the limit each, past it together", () => {
    const path = `${ROOT}/nest.json`;
    const nested = (inner: number, recover?: string): Json => ({ repeat: 100, template: { repeat: inner, template: "echo x", ...(recover === undefined ? {} : { recover }) } });
    expect(compile({ [path]: { template: nested(100) } }, path).kind).toBe("recipe");
    for (const template of [nested(101), nested(100, "echo again"), ["echo first", nested(100)]]) {
      const c = compile({ [path]: { template } }, path);
      expect(c.kind).toBe("problem");
      if (c.kind === "problem") expect(c.problem).toMatchObject({ message: "Command template expands to more than 10000 commands." });
    }
  });

  it("recipes that place the next one twice (imports or delegation) are counted as they expand: 2^29 commands are a problem, found at once", () => {
    const depth = 30;
    const chain = (place: (next: string) => object): Files => {
      const files: Files = {};
      for (let i = 0; i < depth; i++) files[`${ROOT}/lib/d${i}.json`] = i === depth - 1 ? { template: "echo end" } : place(`d${i + 1}.json`);
      return files;
    };
    const byImport = chain((next) => ({ imports: { a: next, b: next }, template: [{ name: "a" }, { name: "b" }] }));
    const byDelegation = chain((next) => ({ template: [next, next] }));
    for (const files of [byImport, byDelegation]) {
      const top = `${ROOT}/lib/d0.json`;
      const c = compile(files, top);
      expect(c.kind).toBe("problem");
      if (c.kind === "problem") expect(c.problem.message).toContain("Command template expands to more than 10000 commands.");
      // 2^13 = 8,192 commands are within the limit
      const within = compile(files, `${ROOT}/lib/d${depth - 14}.json`);
      expect(within.kind).toBe("recipe");
    }
  });

  it("recipes that each place the next 500 levels down are a problem past 512 levels, never a stack overflow", () => {
    const files: Files = { [`${ROOT}/lib/n0.json`]: { template: "true" } };
    const nested = (levels: number): object => {
      let node: object = { name: "x" };
      for (let i = 0; i < levels; i++) node = { template: node };
      return node;
    };
    for (let k = 1; k <= 16; k++) files[`${ROOT}/lib/n${k}.json`] = { imports: { x: `n${k - 1}.json` }, template: nested(500) };
    const c = compile(files, `${ROOT}/lib/n16.json`);
    expect(c.kind).toBe("problem");
    if (c.kind === "problem") expect(c.problem.message).toContain("Command template nests deeper than 512 levels with the recipes it imports or delegates to placed in it.");
    expect(compile(files, `${ROOT}/lib/n1.json`).kind).toBe("recipe");
  });

  it("a literal retry above 10,000 attempts is a problem when the recipe loads", () => {
    const path = `${ROOT}/retry.json`;
    const c = compile({ [path]: { template: { retry: 1e308, template: "false" } } }, path);
    expect(c.kind).toBe("problem");
    if (c.kind === "problem") expect(c.problem).toMatchObject({ message: "Command template retry must be at most 10000." });
    expect(compile({ [path]: { template: { retry: 10_000, template: "false" } } }, path).kind).toBe("recipe");
  });

  it("a repeat that is not safe keeps the recipe but not the tool", () => {
    const path = `${ROOT}/rep.json`;
    const c = recipe(compile({ [path]: { repeat: "{xs.length}", template: "echo {xs[index]}" } }, path));
    expect(c.toolProblem).toMatch(/repeat must be a positive integer or \{array\.length\}/);
    expect(E.isLeft(toolOf(c))).toBe(true);
  });

  it("an async recipe cannot take an argument the async run keeps for itself; a recipe that runs in the foreground can", () => {
    const path = `${ROOT}/job.json`;
    for (const name of ["run_id", "correlation_id", "transport_context"]) {
      const c = recipe(compile({ [path]: { async: true, template: `echo {${name}} {file}` } }, path));
      expect(c.toolProblem).toBe(`Argument ${name} is reserved in an async recipe (run_id, correlation_id, transport_context steer the run and never reach the template); rename it.`);
      expect(E.isLeft(toolOf(c))).toBe(true);
      const declared = recipe(compile({ [path]: { async: true, args: ["file", name], template: "echo {file}" } }, path));
      expect(declared.toolProblem).toMatch(new RegExp(`^Argument ${name} is reserved`));
      const foreground = recipe(compile({ [path]: { template: `echo {${name}}` } }, path));
      expect(foreground.toolProblem).toBeUndefined();
      expect(E.isRight(toolOf(foreground))).toBe(true);
    }
    const plain = recipe(compile({ [path]: { async: true, template: "echo {run}" } }, path));
    expect(plain.toolProblem).toBeUndefined();
  });

  it("a default written in the template or a node's args that its type refuses makes the recipe invalid, as in `args`", () => {
    const path = `${ROOT}/idef.json`;
    const bad = compile({ [path]: { template: "echo {n:int=abc}" } }, path);
    expect(bad.kind === "problem" && bad.problem.message).toBe('Invalid default for n:int in the template: "abc"');
    const node = compile({ [path]: { template: { args: ["mode:enum(a,b)=c"], template: "echo {mode}" } } }, path);
    expect(node.kind).toBe("problem");
    // a default its type takes, and one an explicit string declaration makes free text
    expect(recipe(compile({ [path]: { template: "echo {n:int=5}" } }, path)).surface.declaredDefaults).toEqual({ n: "5" });
    expect(compile({ [path]: { args: ["n:string"], template: "echo {n:int=abc}" } }, path).kind).toBe("recipe");
  });

  it("a sandbox path naming an argument the recipe does not take makes it invalid; a default or a fallback needs none", () => {
    const path = `${ROOT}/sb.json`;
    const bad = compile({ [path]: { template: "echo {a}", sandbox: { network: false, write: ["{out}"] } } }, path);
    expect(bad.kind === "problem" && bad.problem.message).toBe('field "sandbox.write": "{out}" names the argument out, which the recipe does not take: declare it in "args" (out:path)');
    expect(compile({ [path]: { template: "echo {a}", sandbox: { read_deny: ["{secret}"] } } }, path).kind).toBe("problem");
    expect(compile({ [path]: { args: ["out:path"], template: "echo {a}", sandbox: { write: ["{out}"] } } }, path).kind).toBe("recipe");
    expect(compile({ [path]: { template: "echo {a} > {out}", sandbox: { write: ["{out}"] } } }, path).kind).toBe("recipe");
    expect(compile({ [path]: { template: "echo {a}", sandbox: { write: ["{out=result.txt}", "{dir??.}"] } } }, path).kind).toBe("recipe");
  });

  it("when: \"true\" and \"false\" are booleans, not arguments named true and false", () => {
    const path = `${ROOT}/always.json`;
    for (const when of ["true", "false", " true "]) expect(recipe(compile({ [path]: { when, template: "echo x" } }, path)).surface.names).toEqual([]);
    expect(recipe(compile({ [path]: { when: "verbose", template: "echo x" } }, path)).surface.names).toEqual(["verbose"]);
  });

  it("templates: controls and sequences are checked, and every leaf counts", () => {
    const path = `${ROOT}/seq.json`;
    const ok = recipe(compile({ [path]: { template: [{ label: "fetch", template: "curl {url}" }, { template: "sleep {t:int}", timeout: 5 }] } }, path));
    expect(ok.surface.names).toEqual(["url", "t"]);
    expect(ok.riskLabels).toEqual(["risk.network", "risk.long_running", "risk.option_injection"]);
    expect(ok.optionInjection).toEqual(["url"]);
    const bad = compile({ [path]: { template: { template: "echo x", timeout: -1 } } }, path);
    expect(bad.kind === "problem" && bad.problem.message).toBe("Command template timeout must be a non-negative number.");
    const empty = compile({ [path]: { template: [] } }, path);
    expect(empty.kind).toBe("problem");
  });

  it("the result is plain data", () => {
    const path = `${ROOT}/plain.json`;
    const c = compile({ [path]: { args: ["n:int=2"], template: "echo {n} {mode:enum(a,b)}" } }, path);
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it("carries the source digest when the caller supplies one, and passes it to the tool", () => {
    const path = `${ROOT}/d.json`;
    const c = recipe(compile({ [path]: { template: "echo hi" } }, path, "abc123"));
    expect(c.sourceSha256).toBe("abc123");
    const tool = toolOf(c);
    expect(E.isRight(tool) && tool.right.sourceSha256).toBe("abc123");
  });
});

describe("drafts through the compile step", () => {
  const draftPath = `${ROOT}/drafts/cap.json`;
  const entryOf = (content: object | string): ReturnType<typeof draftEntry> => {
    const files: Files = { [draftPath]: content };
    const file = contextOf(files).readFile(draftPath)!;
    return draftEntry(compile(files, draftPath), file, "feed");
  };

  it("a valid draft lists its labels, description, source run and preview", () => {
    const e = entryOf({ description: "captured from spawn run r-1", template: "git push {remote}" });
    expect(e).toMatchObject({ id: "cap", valid: true, diagnostics: [], source_run: "r-1", template_preview: "git push {remote}", sha256: "feed" });
    expect(e.risk_labels).toEqual(["risk.external_side_effect", "risk.network", "risk.option_injection"]);
  });

  it("an invalid draft names its problem", () => {
    const e = entryOf({ template: "" });
    expect(e.valid).toBe(false);
    expect(e.diagnostics[0]).toMatch(new RegExp(`^Invalid recipe: ${draftPath}`));
  });

  it("a disabled draft follows the rules of a disabled recipe: a broken import is not checked", () => {
    const e = entryOf({ disabled: true, imports: { x: "missing.json" }, template: "echo {x.values.y}" });
    expect(e.valid).toBe(true);
    expect(e.diagnostics).toEqual([]);
  });
});
