import { describe, expect, it } from "vitest";
import { compileLeaf, compileToken, placeholderParts } from "../../../core/template/compile.js";

describe("compile once (leaf → words → parts)", () => {
  it("splits a leaf into words and each word into literal and placeholder parts", () => {
    const leaf = compileLeaf("tool --file={file}-{lang=ru} plain");
    expect(leaf.words[0]).toBe("tool");
    expect(leaf.words[2]).toBe("plain");
    const parts = leaf.words[1];
    expect(Array.isArray(parts)).toBe(true);
    expect((parts as readonly unknown[]).filter((p) => typeof p === "string")).toEqual(["--file=", "-"]);
    expect(placeholderParts(parts!).map((p) => [p.content, p.placeholder.kind])).toEqual([["file", "simple"], ["lang=ru", "simple"]]);
  });

  it("returns the same compiled object for the same text (cached)", () => {
    expect(compileToken("{a}/{b}")).toBe(compileToken("{a}/{b}"));
  });

  it("`{}` is literal text, not a placeholder", () => {
    expect(compileToken("{}")).toBe("{}");
    expect(compileLeaf("find . -exec rm {} +").words).toEqual(["find", ".", "-exec", "rm", "{}", "+"]);
  });

  it("records an unterminated quote", () => {
    expect(compileLeaf("say 'oops").unterminatedQuote).toBe("'");
    expect(compileLeaf('say "oops').unterminatedQuote).toBe('"');
    expect(compileLeaf("say 'ok'").unterminatedQuote).toBeUndefined();
  });

  it("compiles expressions and padded forms up front", () => {
    const [p] = placeholderParts(compileToken("{_(index+1)}"));
    expect(p?.placeholder.kind).toBe("padded");
    expect(p?.expression?._tag).toBe("Parsed");
    const [q] = placeholderParts(compileToken("{n-2}"));
    expect(q?.placeholder.kind).toBe("expression");
    expect(q?.asName).toBe(true);
  });

  it("stays bounded: thousands of distinct texts do not break compilation", () => {
    for (let i = 0; i < 5000; i += 1) compileToken(`{v${i}}`);
    expect(placeholderParts(compileToken("{v0}")).map((p) => p.content)).toEqual(["v0"]);
  });
});
