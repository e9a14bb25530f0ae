// Mistakes caught when a recipe is written, through the real `pi-recipes` command: register_tool
// refuses an argument type it does not know, with the message a recipe file declaring it gets;
// shell syntax in a template (no shell runs it) is a warning in the views and in register_tool.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
let root: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-authoring-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agent dir of its own with an empty recipe root, for one test; `use` gets the root and the
 *  environment that points the command at it, and the folder is removed after. */
function withAgent(prefix: string, use: (recipes: string, agent: NodeJS.ProcessEnv) => void): void {
  const box = mkdtempSync(join(tmpdir(), prefix));
  const recipes = join(box, "agent", "recipes");
  mkdirSync(recipes, { recursive: true });
  try {
    use(recipes, { PI_CODING_AGENT_DIR: join(box, "agent") });
  } finally {
    rmSync(box, { recursive: true, force: true });
  }
}

const UNKNOWN_INTEGER = 'field "args" declares unknown type "integer" for n; use string, path, int, number, bool, array or enum(a,b)';

describe("register_tool args with an unknown type", () => {
  it("is refused with the unknown type and the valid ones, as a hand-written recipe is, and nothing is written", () => {
    const r = runCli(["register_tool", "name=count_up", "description=Count", "template=seq {n}", "args=n:integer"], env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${UNKNOWN_INTEGER}\n`);
    expect(existsSync(join(root, "count_up.json"))).toBe(false);

    // the same declaration written by hand: the same message, in the recipe's diagnostic
    writeFileSync(join(root, "by_hand.json"), JSON.stringify({ description: "Count", args: ["n:integer"], template: "seq {n}" }));
    const byHand = runCli(["call", "by_hand", "n=3"], env);
    expect(byHand.status).toBe(1);
    expect(byHand.stderr).toContain(`: ${UNKNOWN_INTEGER}\n`);
    rmSync(join(root, "by_hand.json"));
  });

  it("a known type is still stored as written", () => {
    const r = runCli(["register_tool", "name=count_to", "description=Count", "template=seq {n}", "args=n:int"], env);
    expect(r).toMatchObject({ status: 0, stdout: 'Registered tool "count_to" (args: n).\n' });
    expect(runCli(["call", "count_to", "n=x"], env).stderr).toContain("Argument n must be an integer.");
  });
});

describe("shell syntax in a template", () => {
  const SHELLY: Readonly<Record<string, string>> = {
    piped: "ls -l | wc -l",
    fed: "tr a b < {file}",
    written: "echo hi > out",
    chained: "make && make install",
    merged: "ls {dir} 2>&1",
  };

  it("warns in the summary and doctor diagnostics, naming the operator, that no shell runs, and what to write instead", () => {
    withAgent("pi-recipes-shell-syntax-", (recipes, agent) => {
      for (const [name, template] of Object.entries(SHELLY)) writeFileSync(join(recipes, `${name}.json`), JSON.stringify({ description: name, template }));
      // quoted or escaped, the text is meant literally; find's -exec wants a bare ";"
      writeFileSync(join(recipes, "quoted.json"), JSON.stringify({ description: "q", template: ["grep -E \"a|b\" {file}", "echo '>' \\&& x", "find . -name x -exec ls {} ;"] }));

      const summary = runCli(["inspect", "target=recipes", "view=summary"], agent);
      expect(summary.status).toBe(0);
      const warnings = summary.stdout.split("\n").filter((l) => l.includes("no shell runs a command template"));
      expect(warnings).toHaveLength(5);
      expect(summary.stdout).toContain(
        `diagnostic warning: Recipe ${join(recipes, "piped.json")}: ls: no shell runs a command template, so "|" reaches ls as a plain argument (quote it if that is what you mean). "|" is a shell pipe: write the commands as steps of a sequence instead (a JSON array such as ["ls -l", "wc -l"]: each step's stdout is the next step's stdin).`,
      );
      expect(summary.stdout).toMatch(/fed\.json: tr: no shell runs a command template, so "<" reaches tr as a plain argument .*input redirection: .*\["cat \{file\}", "sort"\]/);
      expect(summary.stdout).toMatch(/written\.json: echo: no shell runs a command template, so ">" reaches echo .*output redirection: the tool's result is its last step's stdout \(a node's "output"/);
      expect(summary.stdout).toMatch(/chained\.json: make: no shell runs a command template, so "&&" reaches make .*command separator: write the commands as steps of a sequence/);
      expect(summary.stdout).toMatch(/merged\.json: ls: no shell runs a command template, so "2>&1" reaches ls .*stream redirection/);
      expect(summary.stdout).not.toContain("quoted.json: ");

      const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], agent);
      const diagnostics = doctor.body.details["diagnostics"] as { id: string; message: string; severity: string }[];
      const shell = diagnostics.filter((d) => d.message.includes("no shell runs a command template"));
      expect(shell.map((d) => [d.id, d.severity]).sort()).toEqual([["chained", "warning"], ["fed", "warning"], ["merged", "warning"], ["piped", "warning"], ["written", "warning"]]);
      // the recipes still load as tools: a warning, not a refusal
      expect(runCli(["list"], agent).stdout).toContain("piped");
    });
  });

  it("register_tool registers the tool and shows the warning", () => {
    const r = runCli(["register_tool", "name=line_count", "description=Count lines", "template=ls -l | wc -l"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'Registered tool "line_count" (args: none).\nWarnings:\n- ls: no shell runs a command template, so "|" reaches ls as a plain argument (quote it if that is what you mean). "|" is a shell pipe: write the commands as steps of a sequence instead (a JSON array such as ["ls -l", "wc -l"]: each step\'s stdout is the next step\'s stdin).\n',
    );
  });
});

describe("an argument word that is only quotes", () => {
  it("still runs without it, and the summary and doctor warn that it passes nothing and what to write instead", () => {
    withAgent("pi-recipes-empty-word-", (recipes, agent) => {
      writeFileSync(join(recipes, "keygen.json"), JSON.stringify({ description: "k", args: ["key:path"], template: "ssh-keygen -N '' -f {key}" }));
      // an array template's string element, under a label
      writeFileSync(join(recipes, "show.json"), JSON.stringify({ description: "s", template: ["true", { label: "print", template: `printf [%s]\\n a '' b "" c` }] }));

      // the words are dropped, as they always were: printf gets three arguments
      expect(runCli(["call", "show"], agent)).toMatchObject({ status: 0, stdout: "[a]\n[b]\n[c]\n" });

      const summary = runCli(["inspect", "target=recipes", "view=summary"], agent);
      expect(summary.status).toBe(0);
      expect(summary.stdout).toContain(
        `diagnostic warning: Recipe ${join(recipes, "keygen.json")}: ssh-keygen: word 3 is an empty quoted string ('' or ""), which passes no argument: a command template drops every empty argument word, so ssh-keygen gets nothing after "-N". No command template can pass an empty argument: if ssh-keygen takes the value joined to its option (--option=), write that; otherwise remove the word.`,
      );
      const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], agent);
      const diagnostics = doctor.body.details["diagnostics"] as { id: string; message: string; severity: string }[];
      const empty = diagnostics.filter((d) => d.message.includes("is an empty quoted string"));
      expect(empty.map((d) => [d.id, d.severity, /: (print: word \d+) .* after "(\w+)"/.exec(d.message)?.slice(1).join(" ") ?? d.message])).toEqual([
        ["keygen", "warning", expect.stringContaining("ssh-keygen: word 3")],
        ["show", "warning", "print: word 4 a"],
        ["show", "warning", "print: word 6 b"],
      ]);
    });
  });
});

describe("a Markdown recipe with more than one template fence", () => {
  it("runs the first, and the summary and doctor warn of the other by its line", () => {
    withAgent("pi-recipes-two-fences-", (recipes, agent) => {
      const path = join(recipes, "twice.md");
      // the fences open on lines 6 and 10
      writeFileSync(path, "---\ndescription: Say which\n---\n\nThe first:\n```template\necho first\n```\n\n```template\necho second\n```\n");
      const called = runCli(["call", "twice"], agent);
      expect(called).toMatchObject({ status: 0, stdout: "first\n" });

      const warning = "Markdown fence at line 10 is ignored: the template is the first fence naming template, recipe or command (line 6); merge the two, or give the other fence another info string (such as text) if it is an example";
      const summary = runCli(["inspect", "target=recipes", "view=summary"], agent);
      expect(summary.stdout).toContain(`  diagnostic warning: Recipe ${path}: ${warning}\n`);
      const doctor = runCli(["inspect", "target=recipes", "view=doctor"], agent);
      expect(doctor.stdout).toContain(`\nwarning kind=authoring id=twice: ${warning}\n`);
      const json = runCliJson(["inspect", "target=recipes", "view=doctor"], agent).body.details as { remediations: { id: string; kind: string; severity: string }[] };
      expect(json.remediations.filter((r) => r.id === "twice").map((r) => [r.kind, r.severity])).toEqual([["authoring", "warning"]]);

      // one template fence: nothing to say
      writeFileSync(path, "---\ndescription: Say which\n---\n\n```template\necho first\n```\n\n```bash\necho an example\n```\n");
      expect(runCli(["inspect", "target=recipes", "view=doctor"], agent).stdout).not.toContain("id=twice");
    });
  });
});

describe("a template example quoted inside a ~~~markdown block", () => {
  it("is content, not a fence: its command does not run, the real template after it does, with no warning", () => {
    withAgent("pi-recipes-quoted-fence-", (recipes, agent) => {
      const marker = join(recipes, "..", "PWNED-example");
      writeFileSync(join(recipes, "greet.md"), `---\ndescription: g\n---\n\n~~~markdown\n\`\`\`template\ntouch ${marker}\n\`\`\`\n~~~\n\n\`\`\`template\necho real\n\`\`\`\n`);
      expect(runCli(["call", "greet"], agent)).toMatchObject({ status: 0, stdout: "real\n" });
      expect(existsSync(marker)).toBe(false);
      expect(runCli(["inspect", "target=recipes", "view=doctor"], agent).stdout).not.toContain("is ignored");
    });
  });
});

describe("a JSON recipe that names a key twice", () => {
  it("runs with the last value, as it always has, and the summary and doctor warn of each later key by its path, line and column", () => {
    withAgent("pi-recipes-duplicate-key-", (recipes, agent) => {
      const path = join(recipes, "twice.json");
      const marker = join(recipes, "..", "first-template-ran");
      writeFileSync(
        path,
        [
          "{",
          '  "description": "Say which",',
          `  "template": "touch ${marker}",`,
          '  "args": ["word:enum(first,last)"],',
          '  "arg_descriptions": {"word": "shown", "word": "the word to say"},',
          '  "template": ["echo {word}", {"template": "tr a-z A-Z", "timeout": 5000, "timeout": 9000}]',
          "}",
        ].join("\n"),
      );
      const called = runCli(["call", "twice", "word=last"], agent);
      expect(called).toMatchObject({ status: 0, stdout: "LAST\n" });
      expect(existsSync(marker)).toBe(false);

      const tail = "JSON keeps the last value, so the earlier one is ignored; remove one of them";
      const warnings = [
        `duplicate key "word" (arg_descriptions.word) at line 5, column 41: ${tail}`,
        `duplicate key "template" at line 6, column 3: ${tail}`,
        `duplicate key "timeout" (template[1].timeout) at line 6, column 75: ${tail}`,
      ];
      const summary = runCli(["inspect", "target=recipes", "view=summary"], agent);
      for (const w of warnings) expect(summary.stdout).toContain(`  diagnostic warning: Recipe ${path}: ${w}\n`);
      const doctor = runCli(["inspect", "target=recipes", "view=doctor"], agent);
      for (const w of warnings) expect(doctor.stdout).toContain(`\nwarning kind=authoring id=twice: ${w}\n`);
      // the argument's description is the last one written
      const tool = runCliJson(["inspect", "target=tool:twice"], agent).body.details as { parameters: { properties: Record<string, { description?: string }> } };
      expect(tool.parameters.properties["word"]?.description).toBe("the word to say");

      // each key once: nothing to say
      writeFileSync(path, JSON.stringify({ description: "Say which", args: ["word"], arg_descriptions: { word: "the word" }, template: "echo {word}" }, null, 2));
      expect(runCli(["inspect", "target=recipes", "view=doctor"], agent).stdout).not.toContain("duplicate key");
    });
  });
});

describe("a Markdown recipe whose JSON fence names a key twice", () => {
  it("runs with the last value, and the summary and doctor warn of the later key at its line and column in the Markdown file", () => {
    withAgent("pi-recipes-duplicate-key-md-", (recipes, agent) => {
      const path = join(recipes, "twice.md");
      const marker = join(recipes, "..", "first-template-ran");
      writeFileSync(
        path,
        [
          "---",
          "description: Say which",
          "---",
          "",
          "Says the word it is given, in capitals.",
          "",
          "```json recipe",
          "{",
          `  "template": "touch ${marker}",`,
          '  "args": ["word:enum(first,last)"],',
          '  "template": ["echo {word}", {"template": "tr a-z A-Z", "timeout": 5000, "timeout": 9000}]',
          "}",
          "```",
          "",
        ].join("\n"),
      );
      const called = runCli(["call", "twice", "word=last"], agent);
      expect(called).toMatchObject({ status: 0, stdout: "LAST\n" });
      expect(existsSync(marker)).toBe(false);

      const tail = "JSON keeps the last value, so the earlier one is ignored; remove one of them";
      // the fence opens on line 7, so its `{` is line 8
      const warnings = [
        `duplicate key "template" at line 11, column 3: ${tail}`,
        `duplicate key "timeout" (template[1].timeout) at line 11, column 75: ${tail}`,
      ];
      const summary = runCli(["inspect", "target=recipes", "view=summary"], agent);
      for (const w of warnings) expect(summary.stdout).toContain(`  diagnostic warning: Recipe ${path}: ${w}\n`);
      const doctor = runCli(["inspect", "target=recipes", "view=doctor"], agent);
      for (const w of warnings) expect(doctor.stdout).toContain(`\nwarning kind=authoring id=twice: ${w}\n`);
    });
  });
});
