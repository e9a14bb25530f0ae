import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { RECIPE_SIZE_LIMIT, invalidUtf8Offset, loadRecipe as loadTagged } from "../../../core/recipe/load.js";
import { recipeProblem } from "../../../core/recipe/recipe-error.js";
import type { RecipeConfig, RecipeFormat, RecipeProblem, SnapshotFile } from "../../../core/model.js";

const ROOT = "/home/u/.pi/agent/recipes";
const fileOf = (name: string, content: string | Uint8Array, extra: Partial<SnapshotFile> = {}): SnapshotFile => {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { path: `${ROOT}/${name}`, size: bytes.length, mtimeMs: 1, birthtimeMs: 1, bytes, ...extra };
};
const formatOf = (name: string): RecipeFormat => (name.endsWith(".md") ? "md" : "json");
const idOf = (name: string) => name.replace(/\.(json|md)$/, "");
/** loadRecipe with its error as the problem a caller shows */
const loadRecipe = (...args: Parameters<typeof loadTagged>): E.Either<RecipeProblem, RecipeConfig> => E.mapLeft(recipeProblem)(loadTagged(...args));
const load = (name: string, content: string | Uint8Array, extra: Partial<SnapshotFile> = {}) =>
  loadRecipe(fileOf(name, content, extra), idOf(name), formatOf(name));
const config = (name: string, content: string): RecipeConfig => {
  const r = load(name, content);
  if (E.isLeft(r)) throw new Error(`expected a config, got: ${JSON.stringify(r.left)}`);
  return r.right;
};
const problem = (name: string, content: string | Uint8Array, extra: Partial<SnapshotFile> = {}): RecipeProblem => {
  const r = load(name, content, extra);
  if (E.isRight(r)) throw new Error(`expected a problem, got: ${JSON.stringify(r.right)}`);
  return r.left;
};

describe("loadRecipe: golden cases", () => {
  it("the file name is the recipe name", () => {
    const c = config("docs-review.json", JSON.stringify({ name: "ignored-docs-review", description: "Docs review", template: "echo review" }));
    expect(c.name).toBe("docs-review");
    expect(c.description).toBe("Docs review");
  });

  it("Markdown frontmatter reasons", () => {
    expect(problem("nofm.md", "# title\n\n```template\necho x\n```\n")).toEqual({
      kind: "invalid",
      message: "Markdown recipe must start with frontmatter",
    });
    expect(problem("unclosed.md", "---\ndescription: x\n")).toEqual({
      kind: "invalid",
      message: "Markdown recipe frontmatter is not closed",
    });
  });

  it("a file over 1 MiB fails before parsing", () => {
    const big = JSON.stringify({ template: "echo ok", padding: "x".repeat(RECIPE_SIZE_LIMIT) });
    expect(problem("big.json", big)).toEqual({
      kind: "failed",
      message: `Recipe file exceeds size limit 1048576 bytes: ${ROOT}/big.json`,
    });
  });

  it("the size alone decides (the runtime does not read oversized files)", () => {
    const file: SnapshotFile = { path: `${ROOT}/huge.json`, size: 50 * 1024 * 1024, mtimeMs: 1, birthtimeMs: 1 };
    expect(loadRecipe(file, "huge", "json")).toEqual(E.left({
      kind: "failed",
      message: `Recipe file exceeds size limit 1048576 bytes: ${ROOT}/huge.json`,
    }));
    expect(E.isRight(load("edge.json", `{"template":"echo"}`, { size: RECIPE_SIZE_LIMIT }))).toBe(true);
  });

  it("Markdown child: list args, defaults object, nested mailbox list", () => {
    const md = [
      "---", "description: Markdown child", "args:", "  - word:string", "defaults:", '  suffix: "!"',
      "mailbox:", "  accepts:", "    - control.kill", "---", "", "```template", "printf {word}{suffix}", "```", "",
    ].join("\n");
    const c = config("child.md", md);
    expect(c).toMatchObject({
      name: "child",
      description: "Markdown child",
      args: ["word:string"],
      defaults: { suffix: "!" },
      mailbox: { accepts: ["control.kill"] },
      template: { args: ["word:string"], defaults: { suffix: "!" }, template: "printf {word}{suffix}" },
    });
  });

  it("Markdown parent: imports from the frontmatter, json recipe fence", () => {
    const md = '---\nimports:\n  child: child\n---\n\n```json recipe\n{"template":{"name":"child","values":{"word":"hello"}}}\n```\n';
    const c = config("parent.md", md);
    expect(c.imports).toEqual({ child: "child" });
    expect(c.template).toEqual({ name: "child", values: { word: "hello" } });
    expect(c.raw).toEqual({ imports: { child: "child" }, template: { name: "child", values: { word: "hello" } } });
  });

  it("fence fields win, frontmatter fields stay", () => {
    const md = '---\ndescription: From fm\nasync: true\n---\n\n```json\n{"description":"From fence","timeout":5,"template":"echo {x}"}\n```\n';
    const c = config("fence_wins.md", md);
    expect(c.description).toBe("From fence");
    expect(c.async).toBe(true);
    expect(c.template).toEqual({ timeout: 5, template: "echo {x}" });
  });

  it("frontmatter-only recipe with CRLF line endings", () => {
    const md = [
      "---", "template: echo fm", 'label: "quoted: yes"', "timeout: 3000", "delay: -1.5", "parallel: false",
      "---", "Prose only.", "",
    ].join("\r\n");
    const c = config("frontmatter_only.md", md);
    expect(c.raw).toEqual({ template: "echo fm", label: "quoted: yes", timeout: 3000, delay: -1.5, parallel: false });
    expect(c.template).toEqual({ parallel: false, label: "quoted: yes", timeout: 3000, delay: -1.5, template: "echo fm" });
  });
});

describe("loadRecipe: every bad input is a problem, never a throw", () => {
  it("an indented key in the frontmatter is a YAML error naming the line, not silently dropped", () => {
    // line 3: the indented key
    const r = load("bad.md", "---\ntemplate: echo fm\n description: indented\n---\n");
    expect(r).toMatchObject({ left: { kind: "invalid", message: expect.stringMatching(/not valid YAML \(line 3 column \d+\)/) } });
  });

  it("a read error is reported verbatim", () => {
    const file: SnapshotFile = { path: `${ROOT}/x.json`, size: 10, mtimeMs: 1, birthtimeMs: 1, readError: "EACCES: permission denied" };
    expect(loadRecipe(file, "x", "json")).toEqual(E.left({ kind: "failed", message: "EACCES: permission denied" }));
  });

  it("missing bytes without a reason still name the path", () => {
    const file: SnapshotFile = { path: `${ROOT}/x.json`, size: 10, mtimeMs: 1, birthtimeMs: 1 };
    expect(loadRecipe(file, "x", "json")).toEqual(E.left({ kind: "failed", message: `Recipe file could not be read: ${ROOT}/x.json` }));
  });

  it("non-UTF-8 bytes name the offending offset", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"template":"echo '), 0xc3, 0x28, 0x22, 0x7d]);
    expect(problem("bad.json", bytes)).toEqual({ kind: "invalid", message: "file is not valid UTF-8 text (invalid byte at offset 18)" });
    expect(problem("bad.md", new Uint8Array([0xff, 0xfe, 0x2d]))).toEqual({
      kind: "invalid",
      message: "file is not valid UTF-8 text (invalid byte at offset 0)",
    });
  });

  it("a UTF-8 BOM is tolerated in both formats", () => {
    expect(config("bom.json", '\uFEFF{"template":"echo ✓"}').template).toBe("echo ✓");
    expect(config("bom.md", "\uFEFF---\ntemplate: echo bom\n---\n").template).toBe("echo bom");
  });

  it("malformed JSON reports the parser's message", () => {
    expect(problem("broken.json", "{ nope")).toEqual({
      kind: "invalid",
      message: "Expected property name or '}' in JSON at position 2 (line 1 column 3)",
    });
    expect(problem("trailing.json", '{\n  "template": "x",\n}')).toEqual({
      kind: "invalid",
      message: "Expected double-quoted property name in JSON at position 21 (line 3 column 1)",
    });
    expect(problem("empty.json", "")).toEqual({ kind: "invalid", message: "Unexpected end of JSON input" });
  });

  it("a JSON error's line counts LF, CRLF and a lone CR as one line break each", () => {
    for (const [name, eol] of [["lf", "\n"], ["crlf", "\r\n"], ["cr", "\r"]] as const) {
      const text = ["{", '  "description": "d",', '  "template": "x",', "}"].join(eol);
      expect(problem(`${name}.json`, text), name).toMatchObject({ kind: "invalid", message: expect.stringMatching(/\(line 4 column 1\)$/) });
    }
  });

  it("the top level must be an object", () => {
    for (const text of ["[]", "null", "5", '"echo"', "true", '[{"template":"echo"}]']) {
      expect(problem("x.json", text)).toEqual({ kind: "invalid", message: "JSON recipe must be an object" });
    }
  });

  it("a missing template is named", () => {
    expect(problem("x.json", '{"description":"d"}')).toEqual({ kind: "invalid", message: "recipe must define template", field: "template" });
  });

  it("mistyped fields are named, in JSON and in Markdown", () => {
    expect(problem("x.json", '{"async":"yes","template":"echo"}')).toEqual({
      kind: "invalid",
      message: `field "async" must be a boolean (got string)`,
      field: "async",
    });
    expect(problem("x.md", "---\ntimeout: [1, 2]\n---\n```template\necho\n```\n")).toEqual({
      kind: "invalid",
      message: `field "timeout" must be a number or a string (got array)`,
      field: "timeout",
    });
  });

  it("a Markdown recipe without an executable fence", () => {
    expect(problem("x.md", "---\ndescription: d\n---\n```bash\necho example\n```\n")).toEqual({
      kind: "invalid",
      message: "Markdown recipe has no executable recipe/template fence",
    });
  });

  it("absurdly nested JSON is refused, not a stack overflow", () => {
    const depth = 200_000;
    expect(problem("deep.json", `{"template":${"[".repeat(depth)}"echo"${"]".repeat(depth)}}`)).toEqual({
      kind: "invalid",
      message: "recipe nests deeper than 512 levels",
      field: "template",
    });
  });
});

describe("invalidUtf8Offset", () => {
  const off = (bytes: number[]) => invalidUtf8Offset(new Uint8Array(bytes));
  it("accepts well-formed text and finds the first ill-formed sequence", () => {
    expect(invalidUtf8Offset(new TextEncoder().encode("a€😀é"))).toBe(-1);
    expect(off([0x61, 0xc0, 0x80])).toBe(1); // overlong
    expect(off([0xed, 0xa0, 0x80])).toBe(0); // surrogate
    expect(off([0xf4, 0x90, 0x80, 0x80])).toBe(0); // above U+10FFFF
    expect(off([0x61, 0x62, 0xe2, 0x82])).toBe(2); // truncated
    expect(off([0x80])).toBe(0); // stray continuation
  });
});
