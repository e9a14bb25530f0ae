import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeRecipeObject, templateEnvelope } from "../../../core/recipe/decode.js";
import type { JsonObject, RecipeConfig, RecipeProblem } from "../../../core/model.js";

const PATH = "/agent/recipes/x.json";
const decode = (raw: unknown) => decodeRecipeObject(raw, PATH, "x");
const config = (raw: unknown): RecipeConfig => {
  const r = decode(raw);
  if (E.isLeft(r)) throw new Error(`expected a config, got: ${JSON.stringify(r.left)}`);
  return r.right;
};
const problem = (raw: unknown): RecipeProblem => {
  const r = decode(raw);
  if (E.isRight(r)) throw new Error(`expected a problem, got: ${JSON.stringify(r.right)}`);
  return r.left;
};

describe("decodeRecipeObject: shape", () => {
  it("the given name always wins over a name field", () => {
    const c = config({ name: "ignored-docs-review", description: "Docs review", template: "echo review" });
    expect(c.name).toBe("x");
    expect(c.description).toBe("Docs review");
    expect(c.template).toBe("echo review");
  });

  it("keeps raw as written, ignores unknown keys, trims the description", () => {
    const raw = { description: "  Padded  ", template: "echo hi", padding: "x", extra: { a: [1] } };
    const c = config(raw);
    expect(c).toEqual({ name: "x", description: "Padded", template: "echo hi", raw });
    expect(c.raw).toBe(raw);
  });

  it("a blank description is absent", () => {
    expect(config({ description: "  \n ", template: "echo" })).not.toHaveProperty("description");
  });

  it("keeps every valid field with its type", () => {
    const raw = {
      description: "d", disabled: false, async: true, imports: { base: "./base.json" }, args: ["a:int"],
      defaults: { a: 1 }, values: { v: [1, { x: null }] }, parallel: true, concurrency: "{n}", min_successful: 1,
      timeout: 30, delay: "2", retry: 3, repeat: "{items.length}", label: "L", when: false,
      accept_output: "review_evidence", output: "out", failure: "branch", recover: ["echo recover"],
      artifacts: { report: "out/report.md" }, mailbox: { accepts: ["a", { type: "b", note: 1 }], other: 1 },
      retire_when: "children_terminal", usage: { calls: 2 }, actor_context: "off", template: "echo {a}",
    };
    const c = config(raw);
    const { description: _d, template: _t, ...rest } = raw;
    expect(c).toMatchObject({ ...rest, name: "x", description: "d" });
    expect(config({ ...raw, actor_context: false }).actor_context).toBe(false);
    expect(config({ ...raw, when: "{flag}" }).when).toBe("{flag}");
  });

  it("drops empty imports and empty defaults from the config but keeps them in raw", () => {
    const c = config({ imports: {}, defaults: {}, template: "echo" });
    expect(c).not.toHaveProperty("imports");
    expect(c).not.toHaveProperty("defaults");
    expect(c.raw).toEqual({ imports: {}, defaults: {}, template: "echo" });
  });
});

describe("templateEnvelope", () => {
  it("no control keys: the raw template as is", () => {
    expect(config({ description: "d", async: true, template: ["a", "b"] }).template).toEqual(["a", "b"]);
  });

  it("wraps a string or array template, control keys in their fixed order", () => {
    const c = config({ timeout: 5, args: ["x"], label: "l", template: "echo {x}", async: true });
    expect(c.template).toEqual({ args: ["x"], label: "l", timeout: 5, template: "echo {x}" });
    expect(Object.keys(c.template as JsonObject)).toEqual(["args", "label", "timeout", "template"]);
    expect(config({ parallel: true, template: ["a", "b"] }).template).toEqual({ parallel: true, template: ["a", "b"] });
  });

  it("merges into an object template, the template object winning", () => {
    const t = templateEnvelope({ timeout: 5, retry: 1, template: { retry: 2, template: "echo" } });
    expect(t).toEqual({ timeout: 5, retry: 2, template: "echo" });
    expect(Object.keys(t as JsonObject)).toEqual(["timeout", "retry", "template"]);
  });

  it("keeps a __proto__ key of a template object as plain data", () => {
    const raw = JSON.parse('{"timeout":1,"template":{"__proto__":{"polluted":true},"template":"echo"}}') as JsonObject;
    const t = templateEnvelope(raw) as JsonObject;
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
    expect(Object.keys(t)).toEqual(["timeout", "__proto__", "template"]);
    expect((t as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("copies every control key, including empty defaults and recover", () => {
    const t = templateEnvelope({
      args: [], defaults: {}, parallel: false, concurrency: 2, min_successful: 1, label: "l", when: "w", timeout: 1,
      delay: 0, accept_output: "review_evidence", output: "o", retry: 1, failure: "root", recover: "r", repeat: 2,
      description: "not a control key", template: "t",
    });
    expect(Object.keys(t as JsonObject)).toEqual([
      "args", "defaults", "parallel", "concurrency", "min_successful", "label", "when", "timeout", "delay",
      "accept_output", "output", "retry", "failure", "recover", "repeat", "template",
    ]);
  });
});

describe("decodeRecipeObject: problems", () => {
  it("top level must be a plain object", () => {
    for (const raw of [null, [], ["template"], "echo", 5, true, undefined]) {
      expect(problem(raw)).toEqual({ kind: "invalid", message: "JSON recipe must be an object" });
    }
  });

  it("template is a required own key", () => {
    expect(problem({})).toEqual({ kind: "invalid", message: "recipe must define template", field: "template" });
    expect(problem(Object.assign(Object.create({ template: "inherited" }) as object, {}))).toMatchObject({
      message: "JSON recipe must be an object",
    });
  });

  it.each([
    [null, "got null"],
    [5, "got number"],
    [true, "got boolean"],
    ["", "got blank string"],
    [" \n\t", "got blank string"],
    [[], "got empty array"],
    [{}, "got object without template"],
    [{ label: "only flags" }, "got object without template"],
    [{ template: "  " }, "got blank string at template.template"],
    [["echo a", ""], "got blank string at template[1]"],
    [["echo a", 3], "got number at template[1]"],
    [{ template: [] }, "got empty array at template.template"],
    [{ template: { template: null } }, "got null at template.template.template"],
  ])("unusable template %j", (template, got) => {
    expect(problem({ template })).toEqual({
      kind: "invalid",
      message: `template must be a non-empty command string, sequence or object (${got})`,
      field: "template",
    });
  });

  it("an unusable template wrapped in an envelope is reported where the author wrote it", () => {
    expect(problem({ timeout: 5, template: "  " })).toMatchObject({
      message: "template must be a non-empty command string, sequence or object (got blank string)",
    });
  });

  it("usable templates: import nodes, nested objects, recover not required to be usable", () => {
    expect(E.isRight(decode({ template: { name: "child", values: { word: "hi" } } }))).toBe(true);
    expect(E.isRight(decode({ template: [{ name: "child" }, { template: { name: "other" } }] }))).toBe(true);
    expect(E.isRight(decode({ template: { template: { template: ["echo"] } }, recover: "" }))).toBe(true);
  });

  it("a numeric repeat that is not a positive integer fails with expansion's structural error", () => {
    const failed = "Command template repeat must be a positive integer.";
    expect(problem({ repeat: 0, template: "echo" })).toEqual({ kind: "failed", message: failed, field: "repeat" });
    expect(problem({ repeat: 1.5, template: { template: "echo" } })).toEqual({ kind: "failed", message: failed, field: "repeat" });
    expect(problem({ template: { repeat: -1, template: "echo" } })).toEqual({ kind: "failed", message: failed, field: "template" });
    expect(problem({ template: ["a", { repeat: 0, template: "b" }] })).toMatchObject({ kind: "failed", field: "template" });
    expect(E.isRight(decode({ repeat: 0, template: { repeat: 2, template: "echo" } }))).toBe(true);
    expect(E.isRight(decode({ repeat: "{items.length}", template: "echo {items}" }))).toBe(true);
  });

  it.each([
    ["description", 42, `field "description" must be a string (got number)`],
    ["disabled", "true", `field "disabled" must be a boolean (got string)`],
    ["async", "yes", `field "async" must be a boolean (got string)`],
    ["imports", ["base"], `field "imports" must be an object (got array)`],
    ["args", "a,b", `field "args" must be an array of strings (got string)`],
    ["args", ["a", 2], `field "args" must be an array of strings (got number at args[1])`],
    ["defaults", [], `field "defaults" must be an object (got array)`],
    ["values", "v", `field "values" must be an object (got string)`],
    ["parallel", 1, `field "parallel" must be a boolean (got number)`],
    ["concurrency", true, `field "concurrency" must be a number or a string (got boolean)`],
    ["min_successful", null, `field "min_successful" must be a number or a string (got null)`],
    ["timeout", { s: 1 }, `field "timeout" must be a number or a string (got object)`],
    ["delay", [1], `field "delay" must be a number or a string (got array)`],
    ["retry", false, `field "retry" must be a number or a string (got boolean)`],
    ["repeat", null, `field "repeat" must be a number or a string (got null)`],
    ["label", 1, `field "label" must be a string (got number)`],
    ["when", 1, `field "when" must be a string or a boolean (got number)`],
    ["accept_output", "everything", `field "accept_output" must be "review_evidence" (got "everything")`],
    ["output", false, `field "output" must be a string (got boolean)`],
    ["failure", "stop", `field "failure" must be one of "continue", "branch", "root" (got "stop")`],
    ["failure", "toString", `field "failure" must be one of "continue", "branch", "root" (got "toString")`],
    ["artifacts", { report: 1 }, `field "artifacts" must be an object of strings (got number at artifacts.report)`],
    ["artifacts", ["a"], `field "artifacts" must be an object of strings (got array)`],
    ["mailbox", [], `field "mailbox" must be an object whose accepts/emits are arrays of strings or of objects with a string type (got array)`],
    ["mailbox", { accepts: "a" }, `field "mailbox" must be an object whose accepts/emits are arrays of strings or of objects with a string type (got string at mailbox.accepts)`],
    ["mailbox", { emits: [{ type: 1 }] }, `field "mailbox" must be an object whose accepts/emits are arrays of strings or of objects with a string type (got number at mailbox.emits[0].type)`],
    ["retire_when", "never", `field "retire_when" must be "children_terminal" (got "never")`],
    ["usage", 3, `field "usage" must be an object (got number)`],
    ["actor_context", true, `field "actor_context" must be false or "off" (got true)`],
    ["actor_context", "on", `field "actor_context" must be false or "off" (got "on")`],
  ])("mistyped %s %j", (field, value, message) => {
    expect(problem({ [field]: value, template: "echo" })).toEqual({ kind: "invalid", message, field });
  });

  it("the name field is ignored whatever its type", () => {
    expect(config({ name: 42, template: "echo" }).name).toBe("x");
  });

  it("reports the first mistyped field in field order", () => {
    expect(problem({ usage: 1, async: "no", template: "echo" }).field).toBe("async");
  });

  it("long offending values are shortened", () => {
    const message = problem({ failure: "x".repeat(200), template: "echo" }).message ?? "";
    expect(message.length).toBeLessThan(150);
    expect(message).toContain("…");
  });

  it("refuses non-JSON values handed in by callers", () => {
    expect(problem({ template: "echo", defaults: { when: new Date(0) } })).toEqual({
      kind: "invalid",
      message: "recipe holds a non-JSON value (non-JSON object) at recipe.defaults.when",
      field: "defaults",
    });
    expect(problem({ template: "echo", x: undefined })).toMatchObject({ message: expect.stringContaining("(undefined) at recipe.x") });
    expect(problem({ template: "echo", n: Number.NaN })).toMatchObject({ field: "n" });
    expect(problem({ template: () => "echo" })).toMatchObject({ kind: "invalid", field: "template" });
  });

  it("refuses cycles and absurd nesting without overflowing the stack", () => {
    const cyclic: Record<string, unknown> = { template: "echo" };
    cyclic["self"] = cyclic;
    expect(problem(cyclic)).toEqual({ kind: "invalid", message: "recipe nests deeper than 512 levels", field: "self" });
    let deep: unknown = "echo";
    for (let i = 0; i < 100_000; i++) deep = { template: deep };
    expect(problem({ template: deep })).toMatchObject({ message: "recipe nests deeper than 512 levels", field: "template" });
  });

  it("never throws on hostile objects", () => {
    const hostile = { template: "echo" };
    Object.defineProperty(hostile, "boom", { enumerable: true, get: () => { throw new Error("getter exploded"); } });
    expect(problem(hostile)).toEqual({ kind: "failed", message: "getter exploded" });
  });
});
