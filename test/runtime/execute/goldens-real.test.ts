// Word splitting, placeholder substitution and composition (docs/templates.md) run as real
// processes: a script prints the argv it received, so each case checks what a program really gets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import type { Values } from "../../../core/template/substitute.js";
import { run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
let argv: string;
beforeAll(() => {
  box = sandbox();
  // one line per invocation: the args joined by NUL, so empty and multi-line args stay visible
  argv = box.script("argv", `first=1; for a in "$@"; do if [ $first = 1 ]; then first=0; else printf '\\0'; fi; printf '%s' "$a"; done; printf '\\n'`);
});
afterAll(() => box.cleanup());

async function argsOf(template: Json, values: Values = {}): Promise<string[][]> {
  const { result } = await run(box, template, values);
  expect(result.ok, result.text).toBe(true);
  return result.text === "(no output)" ? [[]] : result.text.split("\n").map((line) => (line === "" ? [] : line.split("\0")));
}

const T = (rest: string): string => `${argv} ${rest}`;

describe("splitting and substitution, through a real process", () => {
  it("quotes and escaped spaces", async () => {
    expect(await argsOf(T("'literal words' --name hello\\ world"))).toEqual([["literal words", "--name", "hello world"]]);
  });

  it("empty quoted words are dropped from argv, quoted text joins its word", async () => {
    expect(await argsOf(T(`a '' b "x y"z`))).toEqual([["a", "b", "x yz"]]);
  });

  it("defaults and inline defaults", async () => {
    const template = { defaults: { rate: "+30%" }, template: T("--text {text} --lang {lang=ru} --rate {rate}") };
    expect(await argsOf(template, { text: "hello world" })).toEqual([["--text", "hello world", "--lang", "ru", "--rate", "+30%"]]);
  });

  it("ternary flags", async () => {
    expect(await argsOf(T("recipes {all?--all:}"), { all: true })).toEqual([["recipes", "--all"]]);
    expect(await argsOf(T("recipes {all?--all:}"), { all: false })).toEqual([["recipes"]]);
  });

  it("defaults that refer to other defaults", async () => {
    const template = { defaults: { repo: "/repo", docs_dir: "docs", directory: "{repo}/{docs_dir}" }, template: T("{directory}") };
    expect(await argsOf(template)).toEqual([["/repo/docs"]]);
  });

  it("a missing value is an error naming it", async () => {
    const { result } = await run(box, T("{missing}"));
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Missing command template value: missing");
  });

  it("an unresolvable default passes through literally", async () => {
    expect(await argsOf({ defaults: { msg: "use {unknown} here" }, template: T("{msg}") })).toEqual([["use {unknown} here"]]);
  });

  it("integer expressions and padding", async () => {
    expect(await argsOf(T("{index+1} {(2+3)*4} {7/2} {7%3} {10-4-3} {_(index+1)}"), { index: "4" })).toEqual([["5", "20", "3", "1", "3", "05"]]);
  });

  it("words that end up empty are dropped", async () => {
    expect(await argsOf(T("x '' {e} y"), { e: "" })).toEqual([["x", "y"]]);
  });

  it("arrays render as JSON, null as nothing, numbers as text", async () => {
    expect(await argsOf(T("{items}"), { items: ["a", "b"] })).toEqual([['["a","b"]']]);
    expect(await argsOf(T("{o} end"), { o: null })).toEqual([["end"]]);
    expect(await argsOf(T("{n}"), { n: 4.5 })).toEqual([["4.5"]]);
  });

  it("placeholders inside words keep one argv item", async () => {
    expect(await argsOf(T("--file={file}"), { file: "/tmp/a b.ogg" })).toEqual([["--file=/tmp/a b.ogg"]]);
    expect(await argsOf(T("{a}-{b}"), { a: "x", b: "y" })).toEqual([["x-y"]]);
  });

  it("shell syntax in values and templates is never interpreted", async () => {
    expect(await argsOf(T("{v} $(id) `id` *"), { v: "; rm -rf / && echo $HOME" })).toEqual([["; rm -rf / && echo $HOME", "$(id)", "`id`", "*"]]);
  });
});

describe("composition (inherited defaults, repeat), through real processes", () => {
  it("child defaults pre-resolved against the parent's", async () => {
    const template = {
      defaults: { model: "parent-model", reviewer_model: "reviewer-model" },
      template: [
        { defaults: { model: "{model}" }, template: T("{model}") },
        { defaults: { model: "{reviewer_model}" }, template: T("{model}") },
      ],
    };
    // a sequence's result is its last step; the first step's output went to the second's stdin
    expect(await argsOf(template)).toEqual([["reviewer-model"]]);
    expect(await argsOf({ ...template, template: [template.template[0]!] })).toEqual([["parent-model"]]);
  });

  it("repeat with padded index, prev and next", async () => {
    const template = { repeat: 3, parallel: true, template: T("page{_(index+1)}.html prev=page{_(prev+1)}.html next=page{_(next+1)}.html raw={index}/{repeat}") };
    const { result } = await run(box, template);
    expect(result.ok).toBe(true);
    const lines = result.text.split("\n").filter((l) => l.includes("\0"));
    expect(lines.map((l) => l.split("\0"))).toEqual([
      ["page01.html", "prev=page03.html", "next=page02.html", "raw=0/3"],
      ["page02.html", "prev=page01.html", "next=page03.html", "raw=1/3"],
      ["page03.html", "prev=page02.html", "next=page01.html", "raw=2/3"],
    ]);
  });
});
