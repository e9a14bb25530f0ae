import { describe, expect, it } from "vitest";
import { invalidTemplate, missingValue } from "../../../core/template/failure.js";
import * as E from "fp-ts/lib/Either.js";
import { authored, scopeOf, substituteText, verbatim } from "../../../core/template/substitute.js";

const sub = (text: string, runtime: Record<string, unknown>, defaults: Record<string, unknown> = {}) =>
  substituteText(text, scopeOf(runtime, defaults));

describe("placeholder resolution", () => {
  it("nullish: the value when truthy, else the literal fallback", () => {
    expect(sub("{t??x}", { t: "v" })).toEqual(E.right("v"));
    expect(sub("{t??x}", { t: "no" })).toEqual(E.right("x"));
    expect(sub("{t??}", {})).toEqual(E.right(""));
    expect(sub("{t??d}", { t: ["a", "b"] })).toEqual(E.right("a,b"));
  });

  it("ternary: literal branches, negation, non-identifier conditions read as missing", () => {
    expect(sub("{all?--all:}", { all: true })).toEqual(E.right("--all"));
    expect(sub("{all?--all:}", { all: false })).toEqual(E.right(""));
    expect(sub("{!quiet?-v:-q}", { quiet: "0" })).toEqual(E.right("-v"));
    expect(sub("{a b?x:y}", { "a b": "1" })).toEqual(E.right("y"));
    expect(sub("{c?x:y:z}", {})).toEqual(E.right("y:z"));
  });

  it("array index by position or by name; errors carry the label", () => {
    expect(sub("{items[1]}", { items: ["a", "b"] })).toEqual(E.right("b"));
    expect(sub("{items[i]}", { items: ["a", "b"], i: "0" })).toEqual(E.right("a"));
    expect(sub("{items[2]}", { items: ["a", "b"] })).toEqual(E.left(missingValue("command template", "items[2]")));
    expect(sub("{items[0]}", { items: "a,b" })).toEqual(E.left(missingValue("command template", "items[0]")));
    expect(substituteText("{items[0]}", scopeOf({}), "timeout")).toEqual(E.left(missingValue("timeout", "items[0]")));
    expect(sub("{items[0]}", { items: [null] })).toEqual(E.right(""));
  });

  it("length of a real array is a substitution form too", () => {
    expect(sub("n={items.length}", { items: ["a", "b", "c"] })).toEqual(E.right("n=3"));
    expect(sub("{items.length}", {}, { items: [] })).toEqual(E.right("0"));
    expect(sub("{items.length}", { items: "abc" })).toEqual(E.left(missingValue("command template", "items.length")));
  });

  it("array-valued defaults stay arrays: index and JSON rendering", () => {
    expect(sub("{items[0]}", {}, { items: ["a", "b"] })).toEqual(E.right("a"));
    expect(sub("{items}", {}, { items: ["a", "b"] })).toEqual(E.right('["a","b"]'));
  });

  it("simple with inline default; runtime beats defaults beats inline default", () => {
    expect(sub("{lang=ru}", {})).toEqual(E.right("ru"));
    expect(sub("{lang=ru}", {}, { lang: "en" })).toEqual(E.right("en"));
    expect(sub("{lang=ru}", { lang: "de" }, { lang: "en" })).toEqual(E.right("de"));
    expect(sub("{url=http://x:1}", {})).toEqual(E.right("http://x:1"));
    expect(sub("{e=}", {})).toEqual(E.right(""));
    expect(sub("{n:int=5}", {})).toEqual(E.right("5"));
  });

  it("defaults referencing defaults resolve recursively", () => {
    expect(sub("{directory}", {}, { repo: "/repo", docs_dir: "docs", directory: "{repo}/{docs_dir}" })).toEqual(E.right("/repo/docs"));
    expect(sub("{directory}", { repo: "/r" }, { docs_dir: "docs", directory: "{repo}/{docs_dir}" })).toEqual(E.right("/r/docs"));
  });

  it("a missing value is an error", () => {
    expect(sub("{missing}", {})).toEqual(E.left(missingValue("command template", "missing")));
    expect(sub("{a b}", {})).toEqual(E.left(missingValue("command template", "a b")));
  });

  it("a default with an unresolvable placeholder passes through literally", () => {
    expect(sub("{msg}", {}, { msg: "use {unknown} here" })).toEqual(E.right("use {unknown} here"));
  });

  it("a default is substituted when each of its placeholders resolves, whatever their form; else it is literal", () => {
    const d = (text: string, runtime: Record<string, unknown>) => sub("{d}", runtime, { d: text });
    expect(d("{items[0]}", { items: ["x"] })).toEqual(E.right("x"));
    expect(d("{items[0]}", {})).toEqual(E.right("{items[0]}"));
    expect(d("{items.length}", { items: ["a", "b"] })).toEqual(E.right("2"));
    expect(d("{items.length}", { items: "a,b" })).toEqual(E.right("{items.length}"));
    expect(d("{lang=ru} {t??none} {all?--all:}", {})).toEqual(E.right("ru none "));
    expect(d("{n+1}", { n: "2" })).toEqual(E.right("3"));
    expect(d("{n+1}", {})).toEqual(E.right("{n+1}"));
    expect(d("{n-2}", { "n-2": "named" })).toEqual(E.right("named"));
    expect(d("{n-2} {x}", { "n-2": "named" })).toEqual(E.right("{n-2} {x}"));
    // an index over a value that is no array resolves (to the missing-value error), so the
    // default is not literal
    expect(d("{items[0]}", { items: "a,b" })).toEqual(E.left(missingValue("command template", "items[0]")));
    // a name-like expression given to nothing, and an expression whose name is taken by a value
    // but whose variables are missing, are no values: the default stays literal
    expect(d("{out-dir}", {})).toEqual(E.right("{out-dir}"));
    expect(d("{n+1}", { "n+1": "v" })).toEqual(E.right("{n+1}"));
    // a name-like expression (`n-2` is a value's name or n minus 2) given to neither stays literal
    expect(d("{n-2}", {})).toEqual(E.right("{n-2}"));
    expect(d("{n-2}", { n: "5" })).toEqual(E.right("3"));
    // a form that reads no value (here a name with a space) leaves the default literal
    expect(d("x {a b}", { "a b": "1" })).toEqual(E.right("x {a b}"));
  });

  it("value rendering: arrays as JSON, null as empty, numbers and objects as String()", () => {
    expect(sub("{items}", { items: ["a", "b"] })).toEqual(E.right('["a","b"]'));
    expect(sub("{o}", { o: null })).toEqual(E.right(""));
    expect(sub("{n}", { n: 4.5 })).toEqual(E.right("4.5"));
    expect(sub("{o}", { o: { a: 1 } })).toEqual(E.right("[object Object]"));
  });

  it("expressions and padded expressions", () => {
    expect(sub("{_(index+1)}", { index: "4" })).toEqual(E.right("05"));
    expect(sub("{___(index*3)}", { index: 7 })).toEqual(E.right("0021"));
    expect(sub("{index-1}", { index: "4" })).toEqual(E.right("3"));
    expect(sub("${file%.md}", {})).toEqual(E.left(invalidTemplate("Invalid command template expression variable: file")));
  });

  it("an index that is no whole number from 0 up names no element", () => {
    for (const i of ["-1", "0.5", "x", "2"]) expect(sub("{items[i]}", { items: ["a", "b"], i })).toEqual(E.left(missingValue("command template", "items[i]")));
    expect(sub("{items[i]}", { items: ["a", "b"], i: " 1" })).toEqual(E.right("b"));
  });

  it("a name that is given to nothing reads as absent, whatever it is called", () => {
    expect(sub("{__proto__?yes:no} {constructor?yes:no} {toString??none}", {})).toEqual(E.right("no no none"));
  });

  it("only an identifier is looked up as a value name; other texts are expressions", () => {
    expect(sub("{n+1}", { "n+1": "named", n: "2" })).toEqual(E.right("3"));
  });

  it("a value named like an expression wins over the arithmetic", () => {
    expect(sub("{n-2}", { "n-2": "named" })).toEqual(E.right("named"));
    expect(sub("{n-2}", { n: "5" })).toEqual(E.right("3"));
  });

  it("a missing hyphenated name gives the expression-variable error", () => {
    expect(sub("{out-dir}", {})).toEqual(E.left(invalidTemplate("Invalid command template expression variable: out-dir")));
    expect(sub("{out-dir}", { "out-dir": "/o" })).toEqual(E.right("/o"));
  });

  it("recursion is bounded", () => {
    expect(sub("{a}", {}, { a: "{a}" })).toEqual(E.left(invalidTemplate("Command template value recursion exceeded: a")));
    expect(sub("{a}", {}, { a: "x{b}", b: "y{a}" })).toEqual(E.left(invalidTemplate("Command template value recursion exceeded: a")));
  });

  it("a chain of five nested defaults still resolves", () => {
    const defaults = { a: "{b}", b: "{c}", c: "{d}", d: "{e}", e: "{f}", f: "end" };
    expect(sub("{a}", {}, defaults)).toEqual(E.right("end"));
  });

  describe("deliberate fix: call-time values are never re-interpreted", () => {
    it("a runtime value containing a placeholder is used verbatim", () => {
      expect(sub("{x}", { x: "{secret}" }, { secret: "s3cr3t" })).toEqual(E.right("{secret}"));
      expect(sub("{x}", { x: "{secret}", secret: "s3cr3t" })).toEqual(E.right("{secret}"));
      expect(sub("{x??none}", { x: "{secret}", secret: "s" })).toEqual(E.right("{secret}"));
    });

    it("a runtime value reached from a recipe default is still verbatim", () => {
      expect(sub("{dir}", { repo: "{secret}", secret: "s" }, { dir: "{repo}/docs" })).toEqual(E.right("{secret}/docs"));
    });

    it("verbatim() marks a call value kept among defaults; authored() marks recipe text in the runtime layer", () => {
      expect(sub("{x}", {}, { x: verbatim("{secret}"), secret: "s" })).toEqual(E.right("{secret}"));
      expect(sub("{x}", { x: authored("{repo}/docs"), repo: "/r" })).toEqual(E.right("/r/docs"));
      expect(sub("{x??n}", { x: verbatim("v") })).toEqual(E.right("v"));
    });
  });
});
