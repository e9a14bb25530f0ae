// A file where the recipe root or the drafts folder should be, through the real command and the
// real MCP server: every verb that would write there names the folder and says it is a file, not
// a folder (never a failed mkdir of a lock folder the user never made, nor "Draft not found").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { connect, textOf, type AgentDir } from "../host-mcp/harness.js";

let base: string;
let agent: string;
let recipes: string;
let env: Record<string, string>;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "pi-recipes-not-a-folder-"));
  agent = join(base, "agent");
  recipes = join(agent, "recipes");
  mkdirSync(agent);
  env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const rootText = (root: string): string =>
  `Recipe root ${root} is a file, not a folder: it holds no recipes and nothing can be written in it; move it away (the folder is made again when first needed)`;

describe("a recipe root that is a regular file", () => {
  it("review (both scopes), activate and register_tool fail naming the root and that it is a file, with --json ok: false", () => {
    writeFileSync(recipes, "not a folder");
    const commands = [["review"], ["review", "scope=draft"], ["review", "scope=tool"], ["activate"], ["register_tool", "name=hello", "description=Hello", "template=echo hello"], ["register_tool", "name=hello", "template=null"]];
    for (const args of commands) {
      const r = runCli(args, env, base);
      expect(r, args.join(" ")).toMatchObject({ status: 1, stdout: "" });
      expect(r.stderr, args.join(" ")).toMatch(new RegExp(`^(pi-recipes: )?${rootText(recipes).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`));
      const json = runCli([...args, "--json"], env, base);
      expect(json.status, args.join(" ")).toBe(1);
      const body = JSON.parse(json.stdout) as { ok: boolean; text: string; details: Record<string, unknown> };
      expect(body, args.join(" ")).toMatchObject({ ok: false, text: rootText(recipes), details: { recipe_root: recipes } });
    }
  }, 120_000);

  it("the MCP server starts, warns naming the root, and register_tool answers why", async () => {
    writeFileSync(recipes, "not a folder");
    const dir: AgentDir = { dir: agent, recipes, write: () => "", remove: () => undefined, cleanup: () => undefined };
    const server = await connect(dir);
    try {
      const result = await server.client.callTool({ name: "register_tool", arguments: { name: "hello", description: "Hello", template: "echo hello" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(rootText(recipes));
      expect(server.stderr()).toContain(`pi-recipes mcp: warning: ${rootText(recipes)}\n`);
      expect(server.stderr()).not.toMatch(/mkdir|ENOTDIR/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("a drafts folder that is a regular file", () => {
  it("register_tool draft= names the drafts folder and that it is a file, not a folder", () => {
    mkdirSync(recipes);
    const drafts = join(recipes, "drafts");
    writeFileSync(drafts, "not a folder");
    const text = `Drafts folder ${drafts} is a file, not a folder: it holds no drafts; move it away (spawn makes the folder again when it keeps a draft)`;
    for (const draft of ["hello.json", "recipes/drafts/hello.json", join(drafts, "hello.json")]) {
      expect(runCli(["register_tool", "name=hello", `draft=${draft}`], env, base), draft).toEqual({ status: 1, stdout: "", stderr: `${text}\n` });
    }
    const json = runCli(["register_tool", "name=hello", "draft=hello.json", "--json"], env, base);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, text, details: { draft: join(drafts, "hello.json"), drafts_folder: drafts } });
  }, 60_000);
});
