import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect } from "vitest";
import { parseYamlFrontmatter, plainFrontmatter } from "../core/recipe/frontmatter.js";

// The shortcut for plain `field: value` frontmatter must read every text it accepts exactly as
// the yaml library does (same keys, same order, same values and types).
const keys = fc.constantFrom("description", "args", "defaults", "template", "a", "b", "_x", "true", "null", "False", "__proto__", "k1", "on", "y");
const valueChar = fc.constantFrom(
  "a", "b", "e", "x", "t", "r", "u", "n", "l", "f", "s", "0", "1", "9", "-", "+", ".", ":", " ", "  ", "#", "{", "}", "[", "]", ",",
  "'", '"', "!", "&", "*", "|", ">", "%", "@", "`", "~", "$", "(", ")", "=", "?", "\\", "/", "_", "\t", "\r", "é", "\u00a0", "\ufeff",
);
const value = fc.oneof(
  fc.constantFrom("null", "true", "false", "-0", "0", "1.5", "-1.50", "01", "1e3", ".5", "9".repeat(400), "file:path", "a, b:int , ,c=1", "x: y", "x #c", "x#c", "~", "..."),
  fc.array(valueChar, { maxLength: 12 }).map((cs) => cs.join("")),
);
const separator = fc.constantFrom(": ", ":  ", ":", " : ", ":\t", ": \t");
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(keys, separator, value).map(([k, s, v]) => `${k}${s}${v}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "# note", "#", "# a\rb: 1", "  x: 1", "- a", "---", "...", "%YAML 1.2", "a: &x 1", "b: *x", "c: !!str 1", "d: [1, 2]", "e: |", "  text", " ") },
);
const frontmatter = fc.array(line, { maxLength: 6 }).map((lines) => lines.join("\n"));

describe("plain frontmatter reads as the yaml library reads it", () => {
  test.prop([frontmatter], { numRuns: 3000 })("whatever the shortcut accepts", (text) => {
    const plain = plainFrontmatter(text);
    if (plain === undefined) return;
    const full = parseYamlFrontmatter(text);
    expect(E.isRight(full)).toBe(true);
    if (E.isLeft(full)) return;
    expect(Object.keys(plain)).toEqual(Object.keys(full.right));
    expect(plain).toStrictEqual(full.right);
  });

  test.prop([fc.array(fc.tuple(fc.constantFrom("description", "args", "label", "timeout"), value), { minLength: 1, maxLength: 5 })])(
    "and it takes the common shape itself",
    (pairs) => {
      const simple = pairs.filter(([, v]) => /^[a-z0-9][a-z0-9 ]*[a-z0-9]$/.test(v) && !v.includes("  "));
      const unique = [...new Map(simple).entries()];
      if (unique.length === 0) return;
      const text = unique.map(([k, v]) => `${k}: ${v}`).join("\n");
      expect(plainFrontmatter(text)).toStrictEqual(E.getOrElseW(() => undefined)(parseYamlFrontmatter(text)));
    },
  );
});
