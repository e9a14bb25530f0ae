// Tool names and Markdown frontmatter as a user meets them: through the real command.
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "cli-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
const root = join(dir, "agent", "recipes");
mkdirSync(root, { recursive: true });
const recipe = { description: "d", template: "echo hi" };
writeFileSync(join(root, "git.status.json"), JSON.stringify(recipe));
writeFileSync(join(root, "my tool.json"), JSON.stringify(recipe));
writeFileSync(join(root, "good-name.json"), JSON.stringify(recipe));
writeFileSync(
  join(root, "yaml_tool.md"),
  "---\n# a comment line\nargs: [first, second]   # two arguments\ndescription: >\n  Folded over\n  two lines.\non: yes\n---\n\n```template\necho {first} {second}\n```\n",
);
writeFileSync(join(root, "broken_yaml.md"), "---\ndescription: ok\nargs: [a, b\n---\n```template\necho {a}\n```\n");

type Row = Record<string, unknown>;

describe("tool names a client accepts", () => {
  it("a recipe whose file name is not a valid tool name is invalid, with a rename suggestion, never a tool", () => {
    const { body } = runCliJson(["inspect", "target=recipes", "view=summary"], env);
    const d = body.details as Record<string, Row[]>;
    const tools = d["tools"]!.map((t) => t["name"]);
    expect(tools).toContain("good-name");
    expect(tools).not.toContain("git.status");
    expect(tools).not.toContain("my tool");
    const errors = Object.fromEntries(d["invalid"]!.map((t) => [t["name"], (t["errors"] as string[]).join(" ")]));
    expect(errors["git.status"]).toContain("rename it to git_status.json");
    expect(errors["my tool"]).toContain("rename it to my_tool.json");
    expect(runCli(["list"], env).stdout).not.toMatch(/^- (git\.status|my tool)$/m);
  });

  it("register_tool does not write a hand-written file whose name is no tool name, update=true or not: it says to rename the file", () => {
    const file = join(root, "our tool.json");
    writeFileSync(file, JSON.stringify(recipe));
    for (const update of [["update=true"], []]) {
      const r = runCliJson(["register_tool", "name=our tool", "description=y", "template=echo y", ...update], env);
      expect(r.status).toBe(1);
      expect(r.body.ok).toBe(false);
      expect(r.body.text).toBe(
        `Recipe file ${file} cannot be written as a tool: "our tool" is not a valid tool name (tool names use only A-Z, a-z, 0-9, _ and -, at most 64 characters): ` +
          "rename it to our_tool.json, then update the tool by its new name. Nothing was written (template=null deletes the file).",
      );
    }
    expect(readFileSync(file, "utf8")).toBe(JSON.stringify(recipe));
    expect(runCli(["call", "our tool"], env).status).toBe(1);
    expect(runCliJson(["register_tool", "name=our tool", "template=null"], env).body.ok).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it("register_tool says when it normalized a name and refuses one it would mangle", () => {
    const made = runCliJson(["register_tool", "name=Deploy Now", "description=d", "template=echo deploy"], env);
    expect(made.status).toBe(0);
    expect(made.body.text).toBe('Registered tool "deploy_now" (args: none).\nName "Deploy Now" was normalized to "deploy_now".');
    const mangled = runCli(["register_tool", "name=ünï", "description=d", "template=echo x"], env);
    expect(mangled.status).toBe(1);
    expect(mangled.stderr).toContain('use "uni"');
    expect(runCli(["list"], env).stdout).not.toMatch(/^- n$/m);
  });
});

describe("Markdown frontmatter is YAML", () => {
  it("flow lists, folded block scalars and comments read as YAML says", () => {
    const schema = runCli(["schema", "yaml_tool"], env);
    expect(schema.status).toBe(0);
    expect(Object.keys((JSON.parse(schema.stdout) as { properties: Row }).properties)).toEqual(["first", "second"]);
    const { body } = runCliJson(["inspect", "target=tool:yaml_tool"], env);
    expect(JSON.stringify(body)).toContain("Folded over two lines.");
    expect(runCli(["call", "yaml_tool", "first=1", "second=2"], env).stdout).toBe("1 2\n");
  });

  it("frontmatter that is not YAML is an invalid recipe naming the file and line", () => {
    const { body } = runCliJson(["inspect", "target=recipes", "view=summary"], env);
    const invalid = (body.details as Record<string, Row[]>)["invalid"]!.find((t) => t["name"] === "broken_yaml")!;
    const error = (invalid["errors"] as string[]).join(" ");
    expect(error).toContain(join(root, "broken_yaml.md"));
    expect(error).toMatch(/not valid YAML \(line \d+ column \d+\)/);
  });
});
