import { describe, expect, it } from "vitest";
import { invalidTemplate } from "../../../core/template/failure.js";
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../../../core/model.js";
import { leafScope, nodeContext, rootContext } from "../../../core/template/context.js";

const ROOT_CONTEXT = rootContext();
import { expandLeaves, expansionErrorText } from "../../../core/template/expand-leaves.js";
import { expandRepeat, repeatCopy, repeatDefaults, resolveRepeat } from "../../../core/template/repeat.js";
import { validateTemplate } from "../../support/template-reads.js";
import type { ExpandedLeaf } from "../../../core/template/expand-leaves.js";
import { buildInvocation } from "../../../core/template/invocation.js";
import { scopeOf, valueOf } from "../../../core/template/substitute.js";

const place = { home: "/h", cwd: "/w" };

function leavesOf(template: Json, runtime: Record<string, unknown> = {}): readonly ExpandedLeaf[] {
  const r = expandLeaves(template, runtime);
  if (E.isLeft(r)) throw new Error(expansionErrorText(r.left));
  return r.right;
}

function argvOf(template: Json, runtime: Record<string, unknown> = {}): string[][] {
  return leavesOf(template, runtime).map((leaf) => {
    const inv = buildInvocation(leaf.text, leafScope(leaf.context, runtime), place);
    if (E.isLeft(inv)) throw new Error(inv.left.message);
    return [inv.right.command, ...inv.right.args];
  });
}

describe("composition: context inheritance", () => {
  it("a node's defaults reach its leaf", () => {
    expect(argvOf({ template: "./tts --text {text} --lang {lang=ru} --rate {rate}", defaults: { rate: "+30%" } }, { text: "hello world" })).toEqual([
      ["/w/tts", "--text", "hello world", "--lang", "ru", "--rate", "+30%"],
    ]);
  });

  it("child defaults referencing parent defaults are pre-resolved", () => {
    const template: Json = {
      defaults: { model: "parent-model", reviewer_model: "reviewer-model" },
      template: [
        { defaults: { model: "{model}" }, template: "echo {model}" },
        { defaults: { model: "{reviewer_model}" }, template: "echo {model}" },
      ],
    };
    const leaves = leavesOf(template);
    expect(leaves.map((l) => l.context.defaults["model"])).toEqual(["parent-model", "reviewer-model"]);
    expect(argvOf(template)).toEqual([["echo", "parent-model"], ["echo", "reviewer-model"]]);
  });

  it("pre-resolution reads runtime values first and keeps arrays; {name[idx]} picks the item", () => {
    const parent = nodeContext(ROOT_CONTEXT, { defaults: { lenses: ["parent"], index: 0 } }, {});
    const runtime = { lenses: ["runtime"], index: 0 };
    const child = nodeContext(parent, { defaults: { lenses: "{lenses}", lens: "{lenses[index]}" } }, runtime);
    const scope = leafScope(child, {});
    expect(valueOf(scope, "lenses")).toEqual(["runtime"]);
    expect(valueOf(scope, "lens")).toBe("runtime");
    const fromParent = leafScope(nodeContext(parent, { defaults: { lens: "{lenses[0]}" } }, {}), {});
    expect(valueOf(fromParent, "lens")).toBe("parent");
  });

  it("a runtime value copied into defaults by pre-resolution stays verbatim", () => {
    const runtime = { reviewer: "{secret}" };
    const template: Json = { defaults: { secret: "s3cr3t" }, template: { defaults: { model: "{reviewer}" }, template: "run {model}" } };
    expect(argvOf(template, runtime)).toEqual([["run", "{secret}"]]);
  });

  it("args are inherited unless a child declares its own; args-token defaults apply at the leaf", () => {
    const template: Json = {
      args: ["lang=ru", "items:array=[\"a\",\"b\"]"],
      template: [
        "say {lang} {items[1]} {items.length}",
        { args: ["other"], template: "say {lang=none}" },
      ],
    };
    expect(argvOf(template)).toEqual([["say", "ru", "b", "2"], ["say", "none"]]);
  });

  it("child defaults merge over parent defaults; runtime beats both", () => {
    const template: Json = { defaults: { a: "pa", b: "pb" }, template: { defaults: { b: "cb" }, template: "x {a} {b}" } };
    expect(argvOf(template)).toEqual([["x", "pa", "cb"]]);
    expect(argvOf(template, { b: "rb" })).toEqual([["x", "pa", "rb"]]);
  });

  it("array-valued defaults stay arrays at the leaf", () => {
    expect(argvOf({ defaults: { items: ["a", "b"] }, template: "t {items[0]} {items.length} {items}" })).toEqual([["t", "a", "2", '["a","b"]']]);
  });

  it("contexts without runtime-dependent references are reused between calls", () => {
    const node: JsonObject = { defaults: { a: "1" } };
    expect(nodeContext(ROOT_CONTEXT, node, {}).defaults).toBe(nodeContext(ROOT_CONTEXT, node, { x: 1 }).defaults);
  });
});

describe("repeat", () => {
  it("copies with index/prev/next/repeat and padded variants", () => {
    const template: Json = {
      repeat: 3,
      template: "render page{_(index+1)}.html prev=page{_(prev+1)}.html next=page{_(next+1)}.html raw={index}/{repeat}",
    };
    const leaves = leavesOf(template);
    expect(leaves).toHaveLength(3);
    expect(leaves[0]?.context.defaults).toMatchObject({ index: "0", next: "1", prev: "2", repeat: "3", _index: "00", __index: "000", _prev: "02", _next: "01" });
    const argv = argvOf(template);
    expect(argv[0]).toEqual(["render", "page01.html", "prev=page03.html", "next=page02.html", "raw=0/3"]);
    expect(argv[2]).toEqual(["render", "page03.html", "prev=page02.html", "next=page01.html", "raw=2/3"]);
  });

  it("sequential repeat argv", () => {
    expect(argvOf({ repeat: 3, template: "r {index} {prev} {next} {repeat} {_index} {index+1}" })).toEqual([
      ["r", "0", "2", "1", "3", "00", "1"],
      ["r", "1", "0", "2", "3", "01", "2"],
      ["r", "2", "1", "0", "3", "02", "3"],
    ]);
    expect(expandRepeat({ repeat: 3, template: "x" }, 3)).toEqual({
      template: [0, 1, 2].map((i) => ({ template: "x", defaults: repeatDefaults(i, 3) })),
    });
  });

  it("repeatDefaults pads to 2..7 digits", () => {
    const d = repeatDefaults(4, 12);
    expect(d).toMatchObject({ index: "4", prev: "3", next: "5", repeat: "12", ______index: "0000004", _repeat: "12", ___next: "0005" });
  });

  it("repeat over {array.length} and over a digit string", () => {
    expect(argvOf({ repeat: "{items.length}", template: "p {items[index]}" }, { items: ["a", "b"] })).toEqual([["p", "a"], ["p", "b"]]);
    expect(argvOf({ repeat: "items.length", defaults: { items: ["x"] }, template: "p {items[index]}" })).toEqual([["p", "x"]]);
    expect(argvOf({ repeat: "0", template: "never" })).toEqual([]);
    expect(argvOf({ repeat: " 2 ", template: "t {index}" })).toEqual([["t", "0"], ["t", "1"]]);
  });

  it("a parallel repeat becomes a parallel node carrying concurrency, min_successful and failure", () => {
    const node: JsonObject = { repeat: 2, parallel: true, concurrency: 1, min_successful: 1, failure: "branch", label: "l", template: "x" };
    const out = expandRepeat(node, 2);
    expect(out).toMatchObject({ parallel: true, concurrency: 1, min_successful: 1, failure: "branch" });
    expect((out["template"] as readonly Json[])[1]).toEqual({ ...repeatCopy(node, 1, 2) });
    expect(repeatCopy(node, 1, 2)).not.toHaveProperty("repeat");
  });

  it("repeat errors", () => {
    const s = scopeOf({});
    expect(resolveRepeat("abc", s)).toEqual(E.left(invalidTemplate("Command template repeat must be a positive integer or {array.length}.")));
    expect(resolveRepeat("{items.length}", s)).toEqual(E.left(invalidTemplate("Command template repeat could not be resolved.")));
    expect(resolveRepeat(0, s)).toEqual(E.left(invalidTemplate("Command template repeat must be a positive integer.")));
    expect(resolveRepeat(1.5, s)).toEqual(E.left(invalidTemplate("Command template repeat must be a positive integer.")));
    expect(resolveRepeat("{items.length}", scopeOf({ items: "ab" }))).toEqual(E.left(invalidTemplate("Command template repeat must be a positive integer or {array.length}.")));
    expect(resolveRepeat(undefined, s)).toEqual(E.right(undefined));
  });

  it("static expansion treats an unresolved {name.length} as no repeat, and is bounded", () => {
    expect(argvOf({ repeat: "{items.length}", template: "once" })).toEqual([["once"]]);
    expect(E.mapLeft(expansionErrorText)(expandLeaves({ repeat: "999999999", template: "x" }))).toEqual(E.left("Command template expands to more than 10000 commands."));
  });

  it("recover leaves follow the template's leaves", () => {
    expect(leavesOf({ label: "main", template: "a", recover: ["r1", "r2"] }).map((l) => [l.text, l.label])).toEqual([
      ["a", "main"], ["r1", undefined], ["r2", undefined],
    ]);
  });
});

describe("validateTemplate", () => {
  const v = (t: Json) => validateTemplate(t);

  it("accepts well-formed templates", () => {
    expect(v("echo {x} {y??z} {f?--f:} {i[0]} {i.length} {_(index+1)} {}")).toEqual(E.right(undefined));
    expect(v({ repeat: "{items.length}", parallel: true, min_successful: "{m}", template: ["a", "b"], recover: "r", failure: "root" })).toEqual(E.right(undefined));
    expect(v({ timeout: "{t}", retry: "{r}", template: "x" })).toEqual(E.right(undefined));
  });

  it("structural messages", () => {
    expect(v([])).toEqual(E.left("Tool template produced no command steps."));
    expect(v("   ")).toEqual(E.left("Tool template produced an empty command."));
    expect(v({ template: ["a", { template: [] }] })).toEqual(E.left("Tool template produced no command steps."));
    expect(v({ label: "x" })).toEqual(E.left("Tool template produced an empty command."));
    expect(v({ failure: "explode", template: "x" })).toEqual(E.left("Command template failure must be one of: continue, branch, root."));
    expect(v({ retry: 0, template: "x" })).toEqual(E.left("Command template retry must be a positive integer."));
    expect(v({ timeout: "abc", template: "x" })).toEqual(E.left("Command template timeout must be a non-negative number."));
    expect(v({ concurrency: 0, parallel: true, template: ["a"] })).toEqual(E.left("Command template concurrency must be a positive integer."));
    expect(v({ min_successful: 3, parallel: true, template: ["a", "b"] })).toEqual(E.left("Command template min_successful 3 exceeds branch count 2."));
    expect(v({ repeat: "abc", template: "x" })).toEqual(E.left("Command template repeat must be a positive integer or {array.length}."));
    expect(v({ delay: -5, template: "x" })).toEqual(E.left("Command template delay must be a non-negative number."));
  });

  it("unterminated quotes, unknown placeholder forms and bad expressions, also inside recover", () => {
    expect(v("say 'oops")).toEqual(E.left("Unterminated ' quote in command template: say 'oops"));
    expect(v({ template: "ok", recover: "fix \"x" })).toEqual(E.left('Unterminated " quote in command template: fix "x'));
    expect(v("awk '{print $1}'")).toEqual(E.left("Invalid command template placeholder: {print $1}"));
    expect(v("x {(1+}")).toEqual(E.left("Invalid command template expression: (1+"));
    expect(v("x ${file%.md}")).toEqual(E.left("Invalid command template expression: file%.md"));
  });
});
