import { describe, expect, it } from "vitest";
import { invalidTemplate, missingValue } from "../../../core/template/failure.js";
import * as E from "fp-ts/lib/Either.js";
import { buildInvocation, expandExecutable, resolvePath } from "../../../core/template/invocation.js";
import { scopeOf } from "../../../core/template/substitute.js";

const place = { home: "/home/u", cwd: "/work/dir" };
const build = (text: string, runtime: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}) =>
  buildInvocation(text, scopeOf(runtime, defaults), place);
const args = (text: string, runtime: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}) =>
  E.map((i: { args: readonly string[] }) => i.args)(build(text, runtime, defaults));

describe("invocation building", () => {
  it("quoted and escaped words stay one argument each", () => {
    expect(build("tool 'literal words' --name hello\\ world")).toEqual(
      E.right({ command: "tool", args: ["literal words", "--name", "hello world"] }),
    );
  });

  it("empty quoted words are dropped from arguments; an unterminated quote is ours to reject", () => {
    expect(build(`a '' b "x y"z`)).toEqual(E.right({ command: "a", args: ["b", "x yz"] }));
    expect(build("  lead   trail  ")).toEqual(E.right({ command: "lead", args: ["trail"] }));
    expect(build("unterminated 'quote here")).toEqual(E.left(invalidTemplate("Unterminated ' quote in command template: unterminated 'quote here")));
  });

  it("defaults and inline defaults", () => {
    expect(build("./tts --text {text} --lang {lang=ru} --rate {rate}", { text: "hello world" }, { rate: "+30%" })).toEqual(
      E.right({ command: "/work/dir/tts", args: ["--text", "hello world", "--lang", "ru", "--rate", "+30%"] }),
    );
  });

  it("a ternary flag vanishes when false", () => {
    expect(build("validate recipes {all?--all:}", { all: true })).toEqual(E.right({ command: "validate", args: ["recipes", "--all"] }));
    expect(build("validate recipes {all?--all:}", { all: false })).toEqual(E.right({ command: "validate", args: ["recipes"] }));
  });

  it("recursive defaults in argv", () => {
    expect(build("find {directory}", {}, { repo: "/repo", docs_dir: "docs", directory: "{repo}/{docs_dir}" })).toEqual(
      E.right({ command: "find", args: ["/repo/docs"] }),
    );
  });

  it("missing value", () => {
    expect(build("tool {missing}")).toEqual(E.left(missingValue("command template", "missing")));
  });

  it("literal pass-through of an unresolvable default", () => {
    expect(args("x {msg}", {}, { msg: "use {unknown} here" })).toEqual(E.right(["use {unknown} here"]));
  });

  it("expressions", () => {
    expect(args("tool {index+1} {(2+3)*4} {7/2} {7%3} {10-4-3}", { index: "4" })).toEqual(E.right(["5", "20", "3", "1", "3"]));
    expect(args("tool {_(index+1)}", { index: 4 })).toEqual(E.right(["05"]));
  });

  it("empty words are dropped", () => {
    expect(build("x '' {e} y", { e: "" })).toEqual(E.right({ command: "x", args: ["y"] }));
  });

  it("value rendering", () => {
    expect(args("tool {items}", { items: ["a", "b"] })).toEqual(E.right(['["a","b"]']));
    expect(args("tool {o} end", { o: null })).toEqual(E.right(["end"]));
    expect(args("tool {n}", { n: 4.5 })).toEqual(E.right(["4.5"]));
    expect(args("tool {o}", { o: { k: 1 } })).toEqual(E.right(["[object Object]"]));
  });

  it("placeholders inside a word keep one argument", () => {
    expect(args("tool --file={file}", { file: "/tmp/a b.ogg" })).toEqual(E.right(["--file=/tmp/a b.ogg"]));
    expect(args("tool {a}-{b}", { a: "x", b: "y" })).toEqual(E.right(["x-y"]));
  });

  it("quoting a word lets an inline default hold spaces", () => {
    expect(args("say '{msg=hello world}'")).toEqual(E.right(["hello world"]));
    expect(args("tool x{a b}y")).toEqual(E.right(["x{a", "b}y"]));
  });

  it("the command word is never dropped, even when empty", () => {
    expect(build("{c} arg", { c: "" })).toEqual(E.right({ command: "", args: ["arg"] }));
    expect(build("'' arg")).toEqual(E.right({ command: "", args: ["arg"] }));
  });

  it("blank templates are empty commands", () => {
    expect(build("   ")).toEqual(E.left(invalidTemplate("Tool template produced an empty command.")));
    expect(build("")).toEqual(E.left(invalidTemplate("Tool template produced an empty command.")));
  });

  it("an unterminated quote is an error, not silently accepted", () => {
    expect(build("say 'oops")).toEqual(E.left(invalidTemplate("Unterminated ' quote in command template: say 'oops")));
    expect(build('say "oops')).toEqual(E.left(invalidTemplate('Unterminated " quote in command template: say "oops')));
  });

  it("executable expansion: ~, ~/x, relative with a slash; never in arguments", () => {
    expect(expandExecutable("~", place)).toBe("/home/u");
    expect(expandExecutable("~/bin/tool", place)).toBe("/home/u/bin/tool");
    expect(expandExecutable("./bin/tool", place)).toBe("/work/dir/bin/tool");
    expect(expandExecutable("../x/tool", place)).toBe("/work/x/tool");
    expect(expandExecutable("/usr/bin/env", place)).toBe("/usr/bin/env");
    expect(expandExecutable("git", place)).toBe("git");
    expect(expandExecutable("~user/x", place)).toBe("/work/dir/~user/x");
    expect(build("~/run.sh ~/file ./x")).toEqual(E.right({ command: "/home/u/run.sh", args: ["~/file", "./x"] }));
    expect(build("{tool} x", { tool: "./t" })).toEqual(E.right({ command: "/work/dir/t", args: ["x"] }));
  });

  it("resolvePath normalizes like path.resolve", () => {
    expect(resolvePath("/a/b", "c/./d/../e/")).toBe("/a/b/c/e");
    expect(resolvePath("/a", "/abs")).toBe("/abs");
    expect(resolvePath("/", "..")).toBe("/");
  });
});
