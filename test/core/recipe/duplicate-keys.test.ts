// A key a JSON recipe's object names twice: the recipe loads with the last value, as it always
// has, and the compile step's warnings say which key, where, and that the earlier value is ignored.
import { describe, expect, it } from "vitest";
import { compileRecipe, type CompiledConfig } from "../../../core/compile/compile-recipe.js";
import { duplicateKeys, duplicateKeyText, mayHoldDuplicateKey } from "../../../core/recipe/duplicate-keys.js";
import { ROOT, contextOf, snapshotFile } from "./imports-support.js";

const PATH = `${ROOT}/dup.json`;
const compiled = (text: string): CompiledConfig => {
  const c = compileRecipe({ file: snapshotFile(PATH, text), id: "dup", format: "json" }, contextOf({ [PATH]: text }));
  if (c.kind !== "recipe") throw new Error(`expected a recipe, got: ${JSON.stringify(c.problem)}`);
  return c;
};
const TAIL = "JSON keeps the last value, so the earlier one is ignored; remove one of them";

describe("a duplicate key in a JSON recipe", () => {
  it("at the top: the recipe keeps the last value, and the warning names the key and the later occurrence's line and column", () => {
    const text = '{\n  "description": "a",\n  "template": "echo one",\n  "template": "rm -rf {x}"\n}\n';
    const c = compiled(text);
    expect(c.config.template).toBe("rm -rf {x}");
    expect(c.warnings.filter((w) => w.text.startsWith("duplicate key"))).toEqual([
      { kind: "authoring", text: `duplicate key "template" at line 4, column 3: ${TAIL}` },
    ]);
    expect(c.diagnostics).toContain(`Recipe ${PATH}: duplicate key "template" at line 4, column 3: ${TAIL}`);
  });

  it("nested (arg_descriptions, a step of a sequence): the warning gives the key's path", () => {
    const text = [
      "{",
      '  "description": "d",',
      '  "args": ["file"],',
      '  "arg_descriptions": {"file": "the input", "file": "ignored?"},',
      '  "template": ["cat {file}", {"template": "wc -l", "timeout": 1, "timeout": 2}],',
      '  "defaults": {"a b": "1", "a b": "2"}',
      "}",
    ].join("\r\n");
    const c = compiled(text);
    expect(c.config.arg_descriptions).toEqual({ file: "ignored?" });
    expect(c.warnings.filter((w) => w.text.startsWith("duplicate key")).map((w) => w.text)).toEqual([
      `duplicate key "file" (arg_descriptions.file) at line 4, column 45: ${TAIL}`,
      `duplicate key "timeout" (template[1].timeout) at line 5, column 66: ${TAIL}`,
      `duplicate key "a b" (defaults["a b"]) at line 6, column 28: ${TAIL}`,
    ]);
  });

  it("each later occurrence is one warning; a key written with an escape is the same key", () => {
    const text = '{"description": "d", "template": "echo", "x": 1, "\\u0078": 2, "x": 3}';
    expect(duplicateKeys(text).map(duplicateKeyText)).toEqual([
      `duplicate key "x" at line 1, column 50: ${TAIL}`,
      `duplicate key "x" at line 1, column 63: ${TAIL}`,
    ]);
    expect(compiled(text).warnings.filter((w) => w.text.startsWith("duplicate key"))).toHaveLength(2);
  });

  it("the same key in two objects, or a quote and colon inside a string, is no duplicate", () => {
    const text = '{"description": "say \\": here", "template": [{"template": "a"}, {"template": "b"}]}';
    expect(mayHoldDuplicateKey(text, JSON.parse(text))).toBe(true);
    expect(duplicateKeys(text)).toEqual([]);
    expect(compiled(text).warnings).toEqual([]);
  });

  it("the cheap count says no duplicate when every quote before a colon ends a key", () => {
    const text = JSON.stringify({ description: "d", template: [{ template: "a", timeout: 1 }], defaults: { x: "1" } }, null, 2);
    expect(mayHoldDuplicateKey(text, JSON.parse(text))).toBe(false);
  });
});

describe("a duplicate key in a Markdown recipe's JSON fence", () => {
  const MD = `${ROOT}/dup.md`;
  const compiledMd = (text: string): CompiledConfig => {
    const c = compileRecipe({ file: snapshotFile(MD, text), id: "dup", format: "md" }, contextOf({ [MD]: text }));
    if (c.kind !== "recipe") throw new Error(`expected a recipe, got: ${JSON.stringify(c.problem)}`);
    return c;
  };
  const duplicateWarnings = (c: CompiledConfig): string[] => c.warnings.filter((w) => w.text.startsWith("duplicate key")).map((w) => w.text);

  it("the recipe keeps the last value, and the warning gives the line and column in the Markdown file", () => {
    // the fence opens on line 6; its body starts on line 8, after a blank line, indented two spaces
    const text = [
      "---",
      "description: d",
      "---",
      "",
      "Prose about the recipe.",
      "```json recipe",
      "",
      '  {"template": "echo one", "args": ["word"],',
      '   "arg_descriptions": {"word": "a", "word": "b"},',
      '   "template": "echo {word}"}',
      "```",
      "",
    ].join("\n");
    const c = compiledMd(text);
    expect(JSON.stringify(c.config.template)).toContain('"echo {word}"');
    expect(JSON.stringify(c.config.template)).not.toContain("echo one");
    expect(c.config.arg_descriptions).toEqual({ word: "b" });
    expect(duplicateWarnings(c)).toEqual([
      `duplicate key "word" (arg_descriptions.word) at line 9, column 38: ${TAIL}`,
      `duplicate key "template" at line 10, column 4: ${TAIL}`,
    ]);
    expect(c.diagnostics).toContain(`Recipe ${MD}: duplicate key "template" at line 10, column 4: ${TAIL}`);
    // the same with CRLF or CR lines, and a key on the body's first line counts the indentation
    expect(duplicateWarnings(compiledMd(text.replaceAll("\n", "\r\n")))).toEqual(duplicateWarnings(c));
    expect(duplicateWarnings(compiledMd(text.replaceAll("\n", "\r")))).toEqual(duplicateWarnings(c));
    const firstLine = '---\n---\n```json\n   {"template": "a", "template": "b"}\n```\n';
    expect(duplicateWarnings(compiledMd(firstLine))).toEqual([`duplicate key "template" at line 4, column 22: ${TAIL}`]);
  });

  it("a fence whose value is the template itself: the path starts at template", () => {
    const text = '---\ndescription: d\n---\n```recipe\n["echo a", {"template": "wc -l", "timeout": 1,\n "timeout": 2}]\n```\n';
    expect(duplicateWarnings(compiledMd(text))).toEqual([`duplicate key "timeout" (template[1].timeout) at line 6, column 2: ${TAIL}`]);
  });

  it("a fence without a duplicate, or a key in both the frontmatter and the fence, says nothing", () => {
    expect(duplicateWarnings(compiledMd('---\ndescription: d\n---\n```json recipe\n{"description": "e", "template": [{"template": "a"}, {"template": "b"}]}\n```\n'))).toEqual([]);
    expect(compiledMd('---\ndescription: d\n---\n```json recipe\n{"template": "echo", "args": []}\n```\n').warnings).toEqual([]);
  });
});
