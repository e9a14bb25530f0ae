import { describe, expect, it } from "vitest";
import { findPlaceholders, isRepeatName, parsePlaceholder, placeholdersOf } from "../../../core/template/placeholder.js";

describe("findPlaceholders", () => {
  it("finds several placeholders in one word, left to right, with their spans", () => {
    expect(findPlaceholders("--file={file}-{lang=ru}")).toEqual([
      { start: 7, end: 13, content: "file" },
      { start: 14, end: 23, content: "lang=ru" },
    ]);
  });

  it("ignores braces that nest or never close", () => {
    expect(findPlaceholders("{a{b}c}").map((s) => s.content)).toEqual(["b"]);
    expect(findPlaceholders("x{open")).toEqual([]);
    expect(findPlaceholders("{}").map((s) => s.content)).toEqual([""]);
  });
});

describe("parsePlaceholder", () => {
  it("nullish name??fallback, fallback may be empty", () => {
    expect(parsePlaceholder("t??x")).toEqual({ kind: "nullish", name: "t", fallback: "x" });
    expect(parsePlaceholder("z??")).toEqual({ kind: "nullish", name: "z", fallback: "" });
    expect(parsePlaceholder("a??b?c:d")).toEqual({ kind: "nullish", name: "a", fallback: "b?c:d" });
  });

  it("ternary with literal branches, negation and non-identifier conditions", () => {
    expect(parsePlaceholder("all?--all:")).toEqual({ kind: "ternary", name: "all", negated: false, yes: "--all", no: "" });
    expect(parsePlaceholder(" !quiet ?-v:-q")).toEqual({ kind: "ternary", name: "quiet", negated: true, yes: "-v", no: "-q" });
    expect(parsePlaceholder("a b?x:y")).toEqual({ kind: "ternary", name: undefined, negated: false, yes: "x", no: "y" });
    expect(parsePlaceholder("c?x:y:z")).toMatchObject({ kind: "ternary", yes: "x", no: "y:z" });
  });

  it("array index by position or by name, and length", () => {
    expect(parsePlaceholder("items[0]")).toEqual({ kind: "index", name: "items", index: { kind: "position", position: 0 } });
    expect(parsePlaceholder("prompts[index]")).toEqual({ kind: "index", name: "prompts", index: { kind: "name", name: "index" } });
    expect(parsePlaceholder("items.length")).toEqual({ kind: "length", name: "items" });
  });

  it("simple names with type and default", () => {
    expect(parsePlaceholder("file")).toEqual({ kind: "simple", name: "file", type: { kind: "string" }, typed: false });
    expect(parsePlaceholder("file:path")).toEqual({ kind: "simple", name: "file", type: { kind: "path" }, typed: true });
    expect(parsePlaceholder("request_timeout:int=60000")).toEqual({
      kind: "simple", name: "request_timeout", type: { kind: "int" }, typed: true, default: "60000",
    });
    expect(parsePlaceholder("mode:enum(check, fix)=check")).toEqual({
      kind: "simple", name: "mode", type: { kind: "enum", values: ["check", "fix"] }, typed: true, default: "check",
    });
    expect(parsePlaceholder("url=http://x:1")).toEqual({ kind: "simple", name: "url", type: { kind: "string" }, typed: false, default: "http://x:1" });
    expect(parsePlaceholder("e=")).toMatchObject({ kind: "simple", name: "e", default: "" });
    expect(parsePlaceholder("out-dir")).toMatchObject({ kind: "simple", name: "out-dir" });
  });

  it("an enum without values reads as a plain string", () => {
    expect(parsePlaceholder("x:enum()")).toEqual({ kind: "simple", name: "x", type: { kind: "string" }, typed: true });
  });

  it("padded expressions: width is underscores + 1", () => {
    expect(parsePlaceholder("_(index+1)")).toEqual({ kind: "padded", width: 2, expr: "index+1" });
    expect(parsePlaceholder("______(n)")).toEqual({ kind: "padded", width: 7, expr: "n" });
  });

  it("expressions, including hyphenated arithmetic that also looks like a name", () => {
    expect(parsePlaceholder("(2+3)*4")).toEqual({ kind: "expression", expr: "(2+3)*4" });
    expect(parsePlaceholder("10-4-3")).toEqual({ kind: "expression", expr: "10-4-3" });
    expect(parsePlaceholder("index-1")).toEqual({ kind: "expression", expr: "index-1" });
    expect(parsePlaceholder("file%.md")).toEqual({ kind: "expression", expr: "file%.md" });
  });

  it("anything else is unknown", () => {
    expect(parsePlaceholder("a.b")).toEqual({ kind: "unknown", content: "a.b" });
    expect(parsePlaceholder("x:foo")).toEqual({ kind: "unknown", content: "x:foo" });
    expect(parsePlaceholder("")).toEqual({ kind: "unknown", content: "" });
  });

  it("placeholdersOf pairs spans with meanings", () => {
    expect(placeholdersOf("page{_(index+1)}.html").map((p) => p.placeholder.kind)).toEqual(["padded"]);
  });
});

describe("isRepeatName", () => {
  it("accepts index/prev/next/repeat with 0–6 leading underscores only", () => {
    for (const n of ["index", "_prev", "___next", "______repeat"]) expect(isRepeatName(n)).toBe(true);
    for (const n of ["_______index", "indexes", "Index", "iteration"]) expect(isRepeatName(n)).toBe(false);
  });
});
