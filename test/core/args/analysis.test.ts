import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { REPEAT_SAFETY_ERROR } from "../../../core/args/analysis.js";
import { analyzeArgs, checkRepeatSafety } from "../../support/template-reads.js";
import type { ArgType } from "../../../core/model.js";

const typesOf = (m: Readonly<Record<string, ArgType>>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([k, t]) => [k, t.kind === "enum" ? `enum(${t.values.join(",")})` : t.kind]));

describe("analyzeArgs: names", () => {
  it("explicit names first, then placeholder names in walk order, unique", () => {
    const s = analyzeArgs({ args: ["lang=ru", "file:path"], template: "t {file} {out} {lang} {out}" });
    expect(s.names).toEqual(["lang", "file", "out"]);
  });

  it("walks template, recover, timeout/delay/retry/repeat text, then when", () => {
    const s = analyzeArgs({
      template: [
        { when: "verbose", template: "a {x}" },
        { recover: "clean {work_dir}", retry: "{tries}", template: "b {y=1} {z??none}" },
      ],
    });
    expect(s.names).toEqual(["x", "verbose", "y", "z", "work_dir", "tries"]);
  });

  it("ignores repeat names, padded and plain expressions, index and length forms", () => {
    const s = analyzeArgs({
      template: { repeat: "{items.length}", template: "r {_(index+1)} {__prev} {items[index]} {index-1} {a.b} {n+1} {keep}" },
    });
    expect(s.names).toEqual(["keep"]);
  });

  it("a bare when names one argument, negated or not; a when that is no name names none", () => {
    const whenNames = (when: string) => analyzeArgs({ template: { when, template: "x" } }).names;
    expect(whenNames("enabled")).toEqual(["enabled"]);
    expect(whenNames("! dry-run")).toEqual(["dry-run"]);
    // such a when never runs its node (it names no argument), so it declares nothing
    expect(whenNames("debug mode")).toEqual([]);
    expect(whenNames("9lives")).toEqual([]);
    // the when is read trimmed, as it runs
    expect(whenNames(" enabled ")).toEqual(["enabled"]);
  });

  it("a when with placeholders contributes its placeholder names", () => {
    expect(analyzeArgs({ template: { when: "{flag}", template: "x" } }).names).toEqual(["flag"]);
  });

  it("root node args that are not a list of texts are no declarations", () => {
    expect(analyzeArgs({ template: { args: "b", template: "x {a}" } }).names).toEqual(["a"]);
    expect(analyzeArgs({ template: { args: ["b", 5], template: "x {a}" } }).names).toEqual(["a"]);
    expect(analyzeArgs({ template: { args: ["b=1", 5], template: "x {b}" } }).required).toEqual(["b"]);
  });

  it("uses the root node's own args when the recipe has none", () => {
    expect(analyzeArgs({ template: { args: ["b:int", "a"], template: "x {a}" } }).names).toEqual(["b", "a"]);
  });
});

describe("analyzeArgs: types", () => {
  it("inferred types: last non-string annotation; ternary and bare when are bool", () => {
    expect(typesOf(analyzeArgs({
      template: "tool {file:path} {request_timeout:int=60000} {speed:number=1.5} {all?--all:}",
    }).types)).toEqual({ all: "bool", file: "path", speed: "number", request_timeout: "int" });
    expect(typesOf(analyzeArgs({ template: { when: "enabled", template: "run" } }).types)).toEqual({ enabled: "bool" });
    expect(typesOf(analyzeArgs({ template: "{x:int} {x:string} {y:int} {y:path}" }).types)).toEqual({ x: "int", y: "path" });
  });

  it("a name declared twice in args counts once, as first declared; a nameless declaration is none", () => {
    const s = analyzeArgs({ args: ["a", "a:int=1", "", "b"], template: "x {a} {b}" });
    expect(s.names).toEqual(["a", "b"]);
    expect(s.types).toEqual({});
    expect(s.required).toEqual(["a", "b"]);
  });

  it("explicit args types apply and beat inline ones, a written :string included", () => {
    const s = analyzeArgs({
      args: ["mode:enum(check,fix)", "n:int", "items:array", "s:string", "u:weird"],
      template: "t {mode} {n:number} {items[0]} {s:int} {u:int}",
    });
    expect(typesOf(s.types)).toEqual({ mode: "enum(check,fix)", n: "int", items: "array", u: "int" });
  });
});

describe("analyzeArgs: required", () => {
  it("a top-level or inline default makes a declared name optional", () => {
    expect(analyzeArgs({ args: ["file", "lang"], defaults: { lang: "ru" }, template: "transcribe {file} {lang}" }).required).toEqual(["file"]);
    expect(analyzeArgs({ args: ["text", "lang"], template: "speak --text {text} --lang {lang=ru}" }).required).toEqual(["text"]);
  });

  it("any inline default makes a name optional", () => {
    expect(analyzeArgs({ template: ["a {x=1}", "b {x}"] }).required).toEqual([]);
    expect(analyzeArgs({ template: ["a {x=1}", "b {y}"], args: ["y=2"] }).required).toEqual([]);
    expect(analyzeArgs({ template: ["a {x}", "b {y}"] }).required).toEqual(["x", "y"]);
  });

  it("?? fallbacks and ternaries are optional", () => {
    const s = analyzeArgs({ template: "tool {file:path} {lang=ru} {mode:enum(a,b)=a} {t??x} {all?--all:}" });
    expect(s.names).toEqual(["file", "lang", "mode", "t", "all"]);
    expect(s.required).toEqual(["file"]);
  });

  it("the first inline default of a name is the one shown", () => {
    // a default the args declare beats an inline one
    expect(analyzeArgs({ args: ["n=5"], template: "a {n=7} {m=1}" }).declaredDefaults).toEqual({ n: "5", m: "1" });
    expect(analyzeArgs({ template: ["a {n=5} {m}", "b {n=7} {m=2}"] }).declaredDefaults).toEqual({ n: "5", m: "2" });
    expect(analyzeArgs({ template: "a {n} {m}" }).declaredDefaults).toBeUndefined();
  });

  it("node defaults that are no object make nothing optional", () => {
    expect(analyzeArgs({ template: { defaults: null, template: "x {a}" } }).required).toEqual(["a"]);
    expect(analyzeArgs({ template: { defaults: "a", template: "x {a}" } }).required).toEqual(["a"]);
  });

  it("values are not defaults", () => {
    expect(analyzeArgs({ defaults: { greet: "hi" }, template: "echo {greet} {who}" }).required).toEqual(["who"]);
  });

  it("defaults written on inner nodes (map or args token) make a name optional", () => {
    expect(analyzeArgs({ template: [{ defaults: { a: "1" }, template: "x {a}" }, { args: ["b=2"], template: "y {b} {c}" }] }).required)
      .toEqual(["c"]);
  });

  it("explicit args with a path default are optional (wrapper example)", () => {
    expect(analyzeArgs({ args: ["path:path=."], template: "ls {path}" }).required).toEqual([]);
  });
});

describe("analyzeArgs: defaults", () => {
  it("stringifies top-level defaults except arrays", () => {
    expect(analyzeArgs({ defaults: { n: 3, b: false, z: null, items: ["a", "b"] }, template: "x" }).defaults)
      .toEqual({ n: "3", b: "false", z: "", items: ["a", "b"] });
  });
});

describe("checkRepeatSafety", () => {
  const tpl = { parallel: true, repeat: "{items.length}", template: "echo {items[index]}" };
  it("an explicit array declaration or an array default makes {x.length} safe", () => {
    expect(checkRepeatSafety({ args: ["items:array"], template: tpl })).toEqual(E.right(undefined));
    expect(checkRepeatSafety({ defaults: { items: ["a"] }, template: tpl })).toEqual(E.right(undefined));
    expect(checkRepeatSafety({ template: { ...tpl, repeat: "items.length", defaults: { items: ["a"] } } })).toEqual(E.right(undefined));
  });

  it("a declaration or default of another type does not make {x.length} safe", () => {
    expect(checkRepeatSafety({ args: ["items:int", "other:array"], template: tpl })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    expect(checkRepeatSafety({ defaults: { items: "a,b" }, template: tpl })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    // a node's own defaults count only when the default is an array
    expect(checkRepeatSafety({ template: { ...tpl, defaults: { items: "a,b" } } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
  });

  it("the repeat is exactly {x.length}: text before or after it fails", () => {
    const safe = { args: ["items:array"] };
    expect(checkRepeatSafety({ ...safe, template: { ...tpl, repeat: "x{items.length}" } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    expect(checkRepeatSafety({ ...safe, template: { ...tpl, repeat: "{items.length}x" } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    expect(checkRepeatSafety({ ...safe, template: { ...tpl, repeat: "x items.length" } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
  });

  it("an inline {items:array} is not enough", () => {
    expect(checkRepeatSafety({ template: { repeat: "{items.length}", template: "echo {items:array}" } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    expect(REPEAT_SAFETY_ERROR).toBe("Command template repeat must be a positive integer or {array.length} with an array argument/default.");
  });

  it("digit strings and numbers pass; other text fails, also inside recover", () => {
    expect(checkRepeatSafety({ template: { repeat: "3", template: "x" } })).toEqual(E.right(undefined));
    expect(checkRepeatSafety({ template: { repeat: 3, template: "x" } })).toEqual(E.right(undefined));
    expect(checkRepeatSafety({ template: { repeat: "{n}", template: "x" } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
    expect(checkRepeatSafety({ template: { template: "x", recover: { repeat: "n", template: "y" } } })).toEqual(E.left(REPEAT_SAFETY_ERROR));
  });
});
