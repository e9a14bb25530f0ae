import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { compileMarkdown, ignoredFenceText, markdownErrorText, readMarkdown } from "../../../core/recipe/markdown.js";

const ok = (text: string) => {
  const r = compileMarkdown(text);
  if (E.isLeft(r)) throw new Error(`expected a recipe, got: ${markdownErrorText(r.left)}`);
  return r.right;
};
const reason = (text: string) => {
  const r = compileMarkdown(text);
  if (E.isRight(r)) throw new Error(`expected a reason, got: ${JSON.stringify(r.right)}`);
  // the text an agent reads
  return markdownErrorText(r.left);
};
const NO_FENCE = "Markdown recipe has no executable recipe/template fence";

describe("compileMarkdown", () => {
  it("frontmatter plus template fence", () => {
    expect(ok("---\ndescription: Literate\n---\n\n```template\necho md\n```\n")).toEqual({
      description: "Literate",
      template: "echo md",
    });
  });

  it("a fence naming a template wins over a JSON example before it in the prose; info words are whole words", () => {
    const md = "---\ndescription: List names\nargs: [dir:path]\n---\n\nExample output:\n\n```json\n[\"hostname\", \"passwd\"]\n```\n\n```template\nls -1 -- {dir}\n```\n";
    expect(ok(md)).toEqual({ description: "List names", args: ["dir:path"], template: "ls -1 -- {dir}" });
    // a JSON fence alone is still the recipe's (a literate JSON recipe)
    expect(ok("---\ndescription: d\n---\n\n```json\n{\"template\": \"echo j\"}\n```\n")).toEqual({ description: "d", template: "echo j" });
    // other languages whose names contain a selecting word are examples
    for (const info of ["jsonl", "geojson", "commands"]) expect(reason(`---\ndescription: d\n---\n\n\`\`\`${info}\n["x"]\n\`\`\`\n`)).toBe(NO_FENCE);
    expect(ok("---\ndescription: d\n---\n\n```json recipe\n{\"template\": \"echo r\"}\n```\n")).toEqual({ description: "d", template: "echo r" });
  });

  it("frontmatter must open and close", () => {
    expect(reason("# title\n---\ntemplate: x\n---\n")).toBe("Markdown recipe must start with frontmatter");
    expect(reason("---\ndescription: x\n")).toBe("Markdown recipe frontmatter is not closed");
    expect(reason("")).toBe("Markdown recipe must start with frontmatter");
  });

  it("a JSON fence object wins over the frontmatter", () => {
    const md = '---\ndescription: From fm\nasync: true\n---\n```json\n{"description":"From fence","timeout":5,"template":"echo {x}"}\n```\n';
    expect(ok(md)).toEqual({ description: "From fence", async: true, timeout: 5, template: "echo {x}" });
  });

  it("without a fence the frontmatter template is used; CRLF and CR line endings accepted", () => {
    expect(ok("---\r\ntemplate: echo fm\r\nlabel: x\r\n---\r\nprose\r\n")).toEqual({ template: "echo fm", label: "x" });
    expect(ok("---\rtemplate: echo fm\rlabel: x\r---\rprose\r")).toEqual({ template: "echo fm", label: "x" });
    expect(ok("---\rdescription: d\r---\r\r```template\recho a\recho b\r```\r")).toEqual({ description: "d", template: "echo a\necho b" });
  });

  it("frontmatter that is not valid YAML names the file line", () => {
    // the line of the stray indentation
    expect(reason("---\ndescription: ok\ntemplate: echo fm\n description: indented\n---\n")).toMatch(
      /^Markdown recipe frontmatter is not valid YAML \(line 4 column \d+\): /,
    );
    // the same line whatever ends the lines: LF, CRLF or a CR alone, as YAML reads them
    for (const eol of ["\n", "\r\n", "\r"]) {
      const md = ["---", "description: ok", "label: a", "timeout: 5", "label: b", "args: [a]", "---", "```template", "echo x", "```", ""].join(eol);
      expect([eol, reason(md)]).toEqual([eol, "Markdown recipe frontmatter is not valid YAML (line 5 column 1): duplicated mapping key"]);
    }
    // a bound on aliases passed names the alias that passes it (the eighth on line 5), in each line ending
    const levels = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", ...["b", "c", "d", "e"].map((n, i) => `${n}: &${n} [${Array(10).fill(`*${"abcd"[i]}`).join(", ")}]`)];
    for (const eol of ["\n", "\r\n", "\r"]) {
      expect([eol, reason(["---", ...levels, "---", "```template", "echo x", "```", ""].join(eol))]).toEqual([eol, "Markdown recipe frontmatter is not valid YAML (line 5 column 36): aliases expand to more than 10000 values"]);
    }
    // a CR alone inside a file of LF lines ends a line too
    expect(reason("---\ndescription: ok\rlabel: a\nlabel: b\n---\n```template\necho x\n```\n")).toBe(
      "Markdown recipe frontmatter is not valid YAML (line 4 column 1): duplicated mapping key",
    );
  });

  it("real YAML: flow list args, folded description, comments", () => {
    const md = "---\nargs: [a, b]  # two arguments\ndescription: >\n  Folded\n  text.\n---\n```template\necho {a} {b}\n```\n";
    expect(ok(md)).toEqual({ args: ["a", "b"], description: "Folded text.\n", template: "echo {a} {b}" });
  });

  it("parent with imports and a json recipe fence", () => {
    const md = '---\nimports:\n  child: child\n---\n\n```json recipe\n{"template":{"name":"child","values":{"word":"hello"}}}\n```\n';
    expect(ok(md)).toEqual({ imports: { child: "child" }, template: { name: "child", values: { word: "hello" } } });
  });

  it("no fence and no frontmatter template", () => {
    expect(reason("---\ndescription: x\n---\nJust prose.\n")).toBe(NO_FENCE);
  });

  it("selects the first fence marked recipe, template or command by its first word or the word after its language", () => {
    const md = "---\n---\n```bash\necho example\n```\n```Bash Command\necho chosen\n```\n```template\necho later\n```\n";
    expect(ok(md)).toEqual({ template: "echo chosen" });
    // (the body is a JSON text, which a fence marked recipe must hold)
    const chosen = (info: string) => ok(`---\ntemplate: echo frontmatter\n---\n\n\`\`\`${info}\n"echo fence"\n\`\`\`\n`).template;
    for (const info of ["template", "recipe", "command", " TEMPLATE ", "bash template", "sh\ttemplate", "json recipe", "bash template title=run.sh", "template bash", "text command"]) {
      expect([info, chosen(info)]).toEqual([info, "echo fence"]);
    }
    // the word elsewhere in the info string, or inside another word, marks nothing: the frontmatter's template is used
    for (const info of ['sh title="template.sh"', "text this is not the template", "bash run the command", "shell-command", "templates", "sh {.template}", "bash title=template"]) {
      expect([info, chosen(info)]).toEqual([info, "echo frontmatter"]);
    }
    // nor is such a fence the template ahead of a marked one
    expect(ok("---\n---\n```sh title=\"template.sh\"\necho example\n```\n```bash template\necho real\n```\n")).toEqual({ template: "echo real" });
    // JSON is the fence's language, not a word in a note
    expect(reason("---\n---\n```text output as json\n[\"x\"]\n```\n")).toBe(NO_FENCE);
    expect(ok("---\ntemplate: echo fm\n---\n```text this prints json\n{ not json\n```\n")).toEqual({ template: "echo fm" });
  });

  it("names the line of every later template, recipe or command fence, which is ignored; later json fences are prose", () => {
    const ignored = (text: string) => {
      const r = readMarkdown(text);
      if (E.isLeft(r)) throw new Error(`expected a recipe, got: ${markdownErrorText(r.left)}`);
      return r.right.ignoredFences;
    };
    // line 1 opens the frontmatter; the fences open on lines 5, 8, 12 (json: an example) and 15
    const md = "---\ndescription: d\n---\n\n```template\necho first\n```\n```command\necho second\n```\n\n```json\n[1]\n```\n```recipe\n{\"template\": \"echo third\"}\n```\n";
    expect(ok(md)).toEqual({ description: "d", template: "echo first" });
    expect(ignored(md)).toEqual([{ line: 8, used: 5 }, { line: 15, used: 5 }]);
    expect(ignoredFenceText({ line: 8, used: 5 })).toMatch(/^Markdown fence at line 8 is ignored: the template is the first fence naming template, recipe or command \(line 5\)/);
    // CRLF and CR lines count alike; one fence, a json fence after the template, or prose fences: nothing ignored
    expect(ignored(md.replaceAll("\n", "\r\n"))).toEqual([{ line: 8, used: 5 }, { line: 15, used: 5 }]);
    expect(ignored(md.replaceAll("\n", "\r"))).toEqual([{ line: 8, used: 5 }, { line: 15, used: 5 }]);
    expect(ignored("---\n---\n```template\necho a\n```\n```json\n{\"x\": 1}\n```\n```bash\necho b\n```\n")).toEqual([]);
    // a later template fence left unclosed is ignored all the same, and said so
    expect(ignored("---\n---\n```template\necho a\n```\n\n```template\necho b\n")).toEqual([{ line: 7, used: 3, unclosed: true }]);
    // and after a json fence, which is then the recipe's (an example of output run as the command)
    expect(ignored("---\n---\n```json\n\"echo example\"\n```\n\n```template\necho real\n")).toEqual([{ line: 7, used: 3, unclosed: true }]);
    expect(ignoredFenceText({ line: 7, used: 3, unclosed: true })).toBe("Markdown fence at line 7 is ignored: it is never closed (by a line of as many backticks), so it is no fence; the template is the fence at line 3. Close it if it is the template");
    // a later fence whose info string holds the word but is not marked by it is prose, not a second template
    expect(ignored("---\n---\n```template\necho a\n```\n```sh title=\"template.sh\"\necho b\n```\n```text this is not the template\necho c\n```\n")).toEqual([]);
    // a template fence quoted inside another fence is the prose's, not a second template
    expect(ignored("---\n---\n```template\necho a\n```\n````markdown\n```template\necho inner\n```\n````\n")).toEqual([]);
    // a frontmatter template with one fence: the fence wins as documented, no fence is ignored
    expect(ignored("---\ntemplate: echo fm\n---\n```template\necho f\n```\n")).toEqual([]);
  });

  it("only backtick fences count", () => {
    // (the error names the tilde fence: see the hints below)
    expect(reason("---\n---\n~~~template\necho tilde\n~~~\n")).toMatch(new RegExp(`^${NO_FENCE}: the fence at line 3 \\(~~~template\\)`));
  });

  it("nothing inside a tilde fence, or any other fence, is a fence: a quoted template example is content", () => {
    // the example inside a ~~~markdown block is not the template, and the real one after it is not ignored
    const md = "---\ndescription: g\n---\n\n~~~markdown\n```template\ntouch /tmp/example\n```\n~~~\n\n```template\necho real\n```\n";
    const r = readMarkdown(md);
    expect(r).toEqual(E.right({ raw: { description: "g", template: "echo real" }, ignoredFences: [] }));
    // a tilde fence closes only with tildes, at least as many, and no info string
    expect(ok("---\n---\n~~~~\n~~~\n```\n```template\necho example\n```\n~~~~ no\n~~~~~\n```command\necho real\n```\n")).toEqual({ template: "echo real" });
    // a backtick fence does not close on tildes, nor on fewer backticks, nor on a line with an info string
    expect(ok("---\n---\n````markdown\n~~~\n```\n```` text\n```template\necho example\n```\n````\n```template\necho real\n```\n")).toEqual({ template: "echo real" });
    // only the example, in a block never closed: it is content to the end, so there is no
    // template, and the error names the block and the fence it swallowed
    expect(reason("---\n---\n~~~markdown\n```template\necho example\n```\n")).toBe(
      `${NO_FENCE}: the fence opened at line 3 (~~~) is never closed, so the rest of the file is its content, the fence at line 4 (\`\`\`template) included; close it with a line of ~~~ or remove it`,
    );
    // a stray ~~~ in the prose above the template: the same
    expect(reason("---\ndescription: d\n---\nUse ~~~ to quote.\n\n~~~\n\n```template\necho real\n```\n")).toBe(
      `${NO_FENCE}: the fence opened at line 6 (~~~) is never closed, so the rest of the file is its content, the fence at line 8 (\`\`\`template) included; close it with a line of ~~~ or remove it`,
    );
    // an unclosed block with no marked fence in it says nothing more
    expect(reason("---\n---\n~~~\necho a\n")).toBe(NO_FENCE);
    // a line of backticks whose info string holds a backtick opens nothing
    expect(ok("---\n---\n``` `x`\n```template\necho real\n```\n")).toEqual({ template: "echo real" });
    // a fence indented four spaces or by a tab (under a list item) is a fence too
    expect(ok("---\n---\n1. Run it:\n\n    ```template\n    echo listed\n    ```\n")).toEqual({ template: "echo listed" });
    expect(ok("---\n---\n-\tRun it:\n\n\t```template\n\techo tabbed\n\t```\n")).toEqual({ template: "echo tabbed" });
  });

  it("with no fence marked, a backtick fence holding template, recipe or command elsewhere in its info string is named, with how to mark it", () => {
    const marked = (info: string, how: string, word = "template") =>
      `${NO_FENCE}: the fence at line 5 (\`\`\`${info}) holds "${word}", but only the info string's first word or the word right after its language marks the recipe's fence; write ${how} if it is the ${word}`;
    const md = (info: string) => `---\ndescription: d\n---\n\n\`\`\`${info}\necho x\n\`\`\`\n`;
    expect(reason(md("{.template}"))).toBe(marked("{.template}", "```template"));
    expect(reason(md("bash,template"))).toBe(marked("bash,template", "```bash template or ```template"));
    expect(reason(md("sh x template"))).toBe(marked("sh x template", "```sh template or ```template"));
    expect(reason(md("Text run the Command"))).toBe(marked("Text run the Command", "```text command or ```command", "command"));
    // the first such fence is named, after examples that hold no such word; one quoted in another fence is content
    expect(reason("---\n---\n```bash\necho a\n```\n~~~\n```{.template}\n~~~\n```sh,recipe\n\"echo b\"\n```\n```bash,template\necho c\n```\n")).toBe(
      `${NO_FENCE}: the fence at line 9 (\`\`\`sh,recipe) holds "recipe", but only the info string's first word or the word right after its language marks the recipe's fence; write \`\`\`sh recipe or \`\`\`recipe if it is the recipe`,
    );
    // a word inside another word, or a tilde fence, is no hint; a frontmatter template still needs no fence
    expect(reason(md("templates"))).toBe(NO_FENCE);
    expect(reason("---\n---\n~~~ bash,template\necho x\n~~~\n")).toBe(NO_FENCE);
    // a tilde fence marked as the template is named, with the backtick fence to write instead
    expect(reason("---\n---\n~~~template\necho x\n~~~\n")).toBe(
      `${NO_FENCE}: the fence at line 3 (~~~template) names "template", but a ~~~ fence is never the recipe's; write it with backticks (\`\`\`template) if it is the template`,
    );
    expect(reason("---\n---\n~~~ Bash Command\necho x\n~~~\n")).toBe(
      `${NO_FENCE}: the fence at line 3 (~~~Bash Command) names "command", but a ~~~ fence is never the recipe's; write it with backticks (\`\`\`Bash Command) if it is the command`,
    );
    expect(ok("---\ntemplate: echo fm\n---\n```bash,template\necho x\n```\n")).toEqual({ template: "echo fm" });
  });

  it("a selected fence with an empty body gives nothing, even with a frontmatter template, and the reason names it", () => {
    const empty = (line: number): string => `${NO_FENCE}: the fence at line ${line} (\`\`\`template) is empty; write the template in it`;
    expect(reason("---\ntemplate: echo fm\n---\n```template\n   \n```\n")).toBe(empty(4));
    expect(reason("---\ndescription: x\n---\n\n```template\n```\n")).toBe(empty(5));
  });

  it("a broken JSON fence declared json or recipe gives nothing", () => {
    expect(reason("---\n---\n```json\n{ broken\n```\n")).toBe(NO_FENCE);
    expect(reason("---\n---\n```recipe\nnot json\n```\n")).toBe(NO_FENCE);
  });

  it("JSON-looking template bodies are parsed; broken ones stay text", () => {
    expect(ok('---\n---\n```template\n["echo a", "echo b"]\n```\n')).toEqual({ template: ["echo a", "echo b"] });
    expect(ok('---\n---\n```command\n"echo quoted"\n```\n')).toEqual({ template: "echo quoted" });
    expect(ok("---\n---\n```template\n{not json} x\n```\n")).toEqual({ template: "{not json} x" });
  });

  it("a JSON value that is not a recipe object becomes the template", () => {
    expect(ok('---\nlabel: l\n---\n```json\n{"label":"x","template2":"y"}\n```\n')).toEqual({
      label: "l",
      template: { label: "x", template2: "y" },
    });
  });

  it("keeps multi-line bodies and skips fences inside unselected fences", () => {
    const md = "---\n---\n````markdown\n```template\necho inner\n```\n````\n```template\necho a\necho b\n```\n";
    expect(ok(md)).toEqual({ template: "echo a\necho b" });
  });

  it("an unclosed fence is not a fence", () => {
    expect(reason("---\n---\n```template\necho never closed\n")).toBe(
      `${NO_FENCE}: the fence at line 3 (\`\`\`template) is never closed, so it is no fence; close it with a line of \`\`\``,
    );
  });

  it("tolerates a BOM before the opening delimiter", () => {
    expect(ok("\uFEFF---\ntemplate: echo x\n---\n")).toEqual({ template: "echo x" });
  });
});
