import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { MAX_ALIASED_VALUES, MAX_EXPANDED_SIZE, parseFrontmatter } from "../../../core/recipe/frontmatter.js";
import { RECIPE_SIZE_LIMIT } from "../../../core/model.js";

const fm = (text: string) => {
  const r = parseFrontmatter(text);
  if (E.isLeft(r)) throw new Error(`expected an object, got: ${JSON.stringify(r.left)}`);
  return r.right;
};
const fault = (text: string) => {
  const r = parseFrontmatter(text);
  if (E.isRight(r)) throw new Error(`expected an error, got: ${JSON.stringify(r.right)}`);
  return r.left;
};

describe("parseFrontmatter: YAML 1.2 with JSON-like scalars only", () => {
  it("types true, false, null and decimal numbers; quoted text stays text", () => {
    expect(fm(`a: "quoted: yes"\nb: 'single'\nc: 3000\nd: -1.5\ne: false\nf: true\ng: null\nh: "3"`)).toEqual({
      a: "quoted: yes",
      b: "single",
      c: 3000,
      d: -1.5,
      e: false,
      f: true,
      g: null,
      h: "3",
    });
  });

  it("leaves YAML's other implicit types as text (no surprises)", () => {
    expect(fm("a: on\nb: yes\nc: True\nd: 0x1F\ne: 1e3\nf: .inf\ng: ~\nh: 2020-01-01\ni: 1.")).toEqual({
      a: "on",
      b: "yes",
      c: "True",
      d: "0x1F",
      e: "1e3",
      f: ".inf",
      g: "~",
      h: "2020-01-01",
      i: "1.",
    });
  });

  it("keeps digit strings too long for a double as text", () => {
    const digits = "9".repeat(400);
    expect(fm(`n: ${digits}`)).toEqual({ n: digits });
  });

  it("reads flow lists and maps, block lists and nested maps", () => {
    expect(fm("args: [a, b]\ndefaults: {n: 1, s: x y}\nimports:\n  child: child\nlist:\n  - 1\n  - two")).toEqual({
      args: ["a", "b"],
      defaults: { n: 1, s: "x y" },
      imports: { child: "child" },
      list: [1, "two"],
    });
  });

  it("folds and keeps block scalars", () => {
    expect(fm("description: >\n  one\n  two\ntemplate: |\n  echo a\n  echo b\n")).toEqual({
      description: "one two\n",
      template: "echo a\necho b\n",
    });
  });

  it("drops comments, whole-line and trailing", () => {
    expect(fm("# comment\n\ndescription: Hello world # trailing\ntimeout: 5")).toEqual({ description: "Hello world", timeout: 5 });
  });

  it("splits on the first colon-space only", () => {
    expect(fm("template: echo a:b http://x")).toEqual({ template: "echo a:b http://x" });
  });

  it("a key with nothing after it is an empty string; no frontmatter is an empty object", () => {
    expect(fm("description:\nlabel: x")).toEqual({ description: "", label: "x" });
    expect(fm("")).toEqual({});
    expect(fm("# only a comment")).toEqual({});
  });

  it("an empty value is an empty string at any depth, a written null is null", () => {
    expect(fm("list:\n  -\n  - null\n  - ''\nmap: {a: , b: null}\nnested:\n  empty:\n  none: null")).toEqual({
      list: ["", null, ""],
      map: { a: "", b: null },
      nested: { empty: "", none: null },
    });
  });

  it("splits args given as a scalar on commas", () => {
    expect(fm("args: a, b:int , ,c=1")).toEqual({ args: ["a", "b:int", "c=1"] });
  });

  it("reads defaults given as a list of key: value items", () => {
    expect(fm("defaults:\n  - count: 3\n  - name: \"x y\"\n  - flag\n  - 5")).toEqual({ defaults: { count: 3, name: "x y", flag: "" } });
  });

  it("keeps a __proto__ key as plain data", () => {
    const parsed = fm("__proto__: x\nlabel: y");
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__", "label"]);
  });

  it("YAML that does not parse is an error naming the file line", () => {
    // the frontmatter text starts on line 2 of the file (after the opening ---)
    expect(fault("label: a\nlabel: b")).toMatchObject({ line: 3, message: "duplicated mapping key" });
    expect(fault("a: 1\nkey: value: bad")).toMatchObject({ line: 3 });
    expect(fault("args: [a, b\nx: 1").line).toBeGreaterThanOrEqual(2);
    expect(parseFrontmatter("a: 1\nb: c: d", 10)).toMatchObject({ left: { line: 11 } });
    // a text that ends too soon is an error at the end of its last line, not the line after it
    expect(fault("a: 1\nb: 'open")).toMatchObject({ line: 3, column: 9 });
    // lines end at LF, CRLF or a CR alone, as the library counts them
    for (const eol of ["\n", "\r\n", "\r"]) expect(fault(["a: 1", "b: 2", "a: 3", "c: 4"].join(eol))).toEqual({ line: 4, column: 1, message: "duplicated mapping key" });
    expect(fault("a: 1\rb: 'open")).toMatchObject({ line: 3, column: 9 });
  });

  it("holds one YAML document: a second one is an error at the line that ends the first", () => {
    expect(fault("a: 1\n--- # another document\nb: 2")).toMatchObject({ line: 3, column: 1, message: expect.stringMatching(/single document/) });
    expect(fault("a: 1\n...\nb: 2")).toMatchObject({ line: 3, column: 1, message: expect.stringMatching(/single document/) });
  });

  it("refuses explicit tags and a frontmatter that is not a mapping", () => {
    expect(fault("x: !!binary abc").message).toMatch(/unknown tag/);
    for (const tag of ["!foo", "!!int", "!!timestamp"]) expect(fault(`label: x\ny: ${tag} 3`)).toMatchObject({ line: 3, message: expect.stringMatching(/unknown tag/) });
    expect(fault("- a\n- b").message).toMatch(/mapping/);
    expect(fault("just text").message).toMatch(/mapping/);
  });

  it("writes aliases out, but refuses aliases that expand past a bound (a few lines would make billions of values)", () => {
    expect(fm("base: &b {host: h, port: 1}\none: *b\ntwo: [*b]")).toEqual({ base: { host: "h", port: 1 }, one: { host: "h", port: 1 }, two: [{ host: "h", port: 1 }] });
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) levels.push(`${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10).fill(`*${"abcdefghij"[i - 1]}`).join(", ")}]`);
    const tooMany = `aliases expand to more than ${MAX_ALIASED_VALUES} values`;
    const started = Date.now();
    // refused while it is parsed, at the alias that passes the bound on values copied: level d
    // (line 5) copies 1,111 values an alias after 1,220 copied above, so its eighth alias, column 36
    expect(fault(levels.join("\n"))).toEqual({ line: 5, column: 36, message: tooMany });
    // long texts pass the size bound first: level c (line 4), at its first alias
    const long = `[${Array(10).fill("y".repeat(10_000)).join(", ")}]`;
    expect(fault([`a: &a ${long}`, ...levels.slice(1)].join("\n"))).toMatchObject({ line: 4, message: `aliases expand the frontmatter to more than ${MAX_EXPANDED_SIZE} characters` });
    expect(Date.now() - started).toBeLessThan(2000);
    // small values, many of them: within the size bound, past the bound on values copied
    const numbers = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"];
    for (let i = 1; i < 5; i++) numbers.push(`${"abcde"[i]}: &${"abcde"[i]} [${Array(10).fill(`*${"abcde"[i - 1]}`).join(", ")}]`);
    expect(fault(numbers.join("\n"))).toEqual({ line: 5, column: 36, message: tooMany });
    // the line and column of the alias itself, not of what follows it: the eighth item of a block
    // list (line 13), value of a block map (line 13, after `k7: `) or value on the line below its
    // key (line 21), with lines after it
    const above = numbers.slice(0, 3);
    expect(fault([...above, "d:", ...Array(9).fill("  - *c"), "e: 1"].join("\n"))).toEqual({ line: 13, column: 5, message: tooMany });
    expect(fault([...above, "d:", ...Array.from({ length: 9 }, (_, i) => `  k${i}: *c`), "e: 1"].join("\n"))).toEqual({ line: 13, column: 7, message: tooMany });
    expect(fault([...above, "d:", ...Array.from({ length: 9 }, (_, i) => `  k${i}:\n    *c`), "e: 1"].join("\n"))).toEqual({ line: 21, column: 5, message: tooMany });
  });

  it("refuses aliases that repeat a long text or map into more than the bound holds, however few values that is", () => {
    const long = "x".repeat(100_000);
    const started = Date.now();
    const tooLarge = `aliases expand the frontmatter to more than ${MAX_EXPANDED_SIZE} characters`;
    // one text named 50 times: 5 MB written out, from a 100 kB file; refused at the line naming it
    expect(fault(`s: &s ${long}\nl: [${Array(50).fill("*s").join(", ")}]`)).toMatchObject({ line: 3, message: tooLarge });
    // a map holding it, named 40 times
    expect(fault(`m: &m {k: ${long}}\nl: [${Array(40).fill("*m").join(", ")}]`)).toMatchObject({ line: 3, message: tooLarge });
    // a list of aliases used as a mapping key, which the library joins into one text: refused
    // at the key's alias (line 4, at its `*`), before the text is made (a thousand aliases of a
    // 500 kB text made gigabytes and ended the process)
    const short = "x".repeat(50_000);
    expect(fault(`s: &s ${short}\nl: &l [${Array(30).fill("*s").join(", ")}]\n? *l\n: 0`)).toEqual({ line: 4, column: 3, message: tooLarge });
    // the line and column where the alias that passes the bound starts (the 20th, 2.1 MB written
    // out), not where the parser stands after it: in a flow list, a block list, a block map
    expect(fault(`s: &s ${long}\nl: [${Array(25).fill("*s").join(", ")}]`)).toEqual({ line: 3, column: 81, message: tooLarge });
    expect(fault(`s: &s ${long}\nl:\n${Array(25).fill("  - *s").join("\n")}\nz: 1`)).toEqual({ line: 23, column: 5, message: tooLarge });
    expect(fault(`s: &s ${long}\n${Array.from({ length: 25 }, (_, i) => `k${i}: *s`).join("\n")}\nz: 1`)).toEqual({ line: 22, column: 6, message: tooLarge });
    // what JSON escapes counts as written: a control character is six characters in the cache
    expect(fault(`s: &s "${"\\u0001".repeat(100_000)}"\nl: [${Array(4).fill("*s").join(", ")}]`)).toMatchObject({ line: 3, message: tooLarge });
    expect(Date.now() - started).toBeLessThan(2000);
    // named a few times it is written out
    expect(fm(`s: &s ${long}\nl: [*s, *s]`)).toEqual({ s: long, l: [long, long] });
    // and named 15 times (1.5 MB written out) as the items of a block list or the values of a
    // block map, each alias counted once
    expect(fm(`s: &s ${long}\nl:\n${Array(15).fill("  - *s").join("\n")}`).l).toEqual(Array(15).fill(long));
    expect(Object.keys(fm(`s: &s ${long}\nm:\n${Array.from({ length: 15 }, (_, i) => `  k${i}:\n    *s`).join("\n")}`).m as object)).toHaveLength(15);
    // the largest recipe file without aliases is never refused by the bound
    const big = "y".repeat(RECIPE_SIZE_LIMIT - 100);
    expect(fm(`description: ${big}`)).toEqual({ description: big });
  });

  it("refuses an alias inside the list or map it names, which would never end", () => {
    for (const text of ["a: &a [*a]", "a: &a {b: *a}", "a: &a {b: [x, {c: *a}]}"]) {
      expect(fault(text)).toEqual({ line: 2, column: 1, message: "an alias names a list or map it is inside of (such as `a: &a [*a]`), which never ends" });
    }
    // the same map named beside itself is no cycle
    expect(fm("a: &a {x: 1}\nb: [*a, *a]")).toEqual({ a: { x: 1 }, b: [{ x: 1 }, { x: 1 }] });
  });
});
