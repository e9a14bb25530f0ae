import { describe, expect, it } from "vitest";
import { parseFrontmatter, parseScalar } from "../../../core/recipe/frontmatter.js";

const fm = (text: string) => parseFrontmatter(text.split("\n"));

describe("parseScalar", () => {
  it("scalar rules", () => {
    expect(parseScalar(`"quoted: yes"`)).toBe("quoted: yes");
    expect(parseScalar("'single'")).toBe("single");
    expect(parseScalar("3000")).toBe(3000);
    expect(parseScalar("-1.5")).toBe(-1.5);
    expect(parseScalar("false")).toBe(false);
    expect(parseScalar("true")).toBe(true);
    expect(parseScalar("null")).toBeNull();
    expect(parseScalar("[1, 2]")).toEqual([1, 2]);
    expect(parseScalar(`{"a": 1}`)).toEqual({ a: 1 });
  });

  it("keeps text that only looks structured", () => {
    expect(parseScalar("{not json}")).toBe("{not json}");
    expect(parseScalar("[a, b]")).toBe("[a, b]");
    expect(parseScalar(`"no escapes \\n"`)).toBe("no escapes \\n");
    expect(parseScalar(`"half`)).toBe(`"half`);
    expect(parseScalar("1.")).toBe("1.");
    expect(parseScalar("1e3")).toBe("1e3");
    expect(parseScalar("True")).toBe("True");
    expect(parseScalar("   ")).toBe("");
    expect(parseScalar("  echo {x}  ")).toBe("echo {x}");
  });

  it("keeps digit strings too long for a double as text", () => {
    const digits = "9".repeat(400);
    expect(parseScalar(digits)).toBe(digits);
  });
});

describe("parseFrontmatter", () => {
  it("reads top-level keys, skipping blanks and comments", () => {
    expect(fm("# comment\n\ndescription: Hello world\nasync: true\ntimeout: 5")).toEqual({
      description: "Hello world",
      async: true,
      timeout: 5,
    });
  });

  it("drops indented top-level keys", () => {
    expect(fm(" description: indented\nlabel: x")).toEqual({ label: "x" });
  });

  it("splits on the first colon only", () => {
    expect(fm("template: echo a:b http://x")).toEqual({ template: "echo a:b http://x" });
  });

  it("lists, nested objects and deeper blocks", () => {
    const parsed = fm(
      [
        "description: Markdown child",
        "args:",
        "  - word:string",
        "defaults:",
        '  suffix: "!"',
        "mailbox:",
        "  accepts:",
        "    - control.kill",
        "    - control.stop",
        "  emits: [\"done\"]",
      ].join("\n"),
    );
    expect(parsed).toEqual({
      description: "Markdown child",
      args: ["word:string"],
      defaults: { suffix: "!" },
      mailbox: { accepts: ["control.kill", "control.stop"], emits: ["done"] },
    });
  });

  it("ignores nested lines that are neither list items nor 2-space keys", () => {
    expect(fm("usage:\n  calls: 3\n   odd: 1\n\tx: 2\n  - item")).toEqual({ usage: { calls: 3 } });
  });

  it("nests objects through blocks indented 4 spaces", () => {
    expect(fm("usage:\n  outer:\n    inner: 1\n    deeper:\n      - a")).toEqual({ usage: { outer: { inner: 1, deeper: ["a"] } } });
  });

  it("a key with nothing under it is an empty string", () => {
    expect(fm("description:\nlabel: x")).toEqual({ description: "", label: "x" });
  });

  it("splits args given as a scalar on commas", () => {
    expect(fm("args: a, b:int , ,c=1")).toEqual({ args: ["a", "b:int", "c=1"] });
  });

  it("reads defaults given as a list of key: value items", () => {
    expect(fm("defaults:\n  - count: 3\n  - name: \"x y\"\n  - flag\n  - : dropped\n  - 5")).toEqual({
      defaults: { count: 3, name: "x y", flag: "" },
    });
  });

  it("keeps a __proto__ key as plain data", () => {
    const parsed = fm("__proto__: x\nlabel: y");
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__", "label"]);
  });

  it("a later duplicate key wins", () => {
    expect(fm("label: a\nlabel: b")).toEqual({ label: "b" });
  });
});
