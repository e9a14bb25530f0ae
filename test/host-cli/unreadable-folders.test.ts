// Folders of the agent dir that this user may not read: an answer never looks complete when a
// folder it stands on could not be read. It fails, names the folder and the error, and still shows
// what could be read. The real command, run as the agent dir's owner (test/support/as-owner.ts).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeArgsFor, repoRoot, runCli } from "../support/cli.js";
import { ownedAgentDirs, permissionTestsRun } from "../support/as-owner.js";

const reachable = permissionTestsRun("unreadable folders");
/** the full command, past the installed command's front door (host-cli/front-door.ts) */
const fullCommand = (): string[] => nodeArgsFor(join(repoRoot, "host-cli", "main.ts"));

describe.skipIf(!reachable)("a recipe root this user may write but not read (mode 333)", () => {
  const dirs = ownedAgentDirs("cli-unreadable-root-");
  afterAll(() => dirs.removeAll());

  it("list fails, naming the root and its error, whichever command answers it; call, schema and inspect name the root instead of saying no tool is registered", () => {
    const d = dirs.fresh();
    writeFileSync(join(d.recipes, "hello.json"), JSON.stringify({ description: "Hello", template: "echo hello" }));
    d.ownAll();
    // a list index written while the root could be read (the second list settles a file as new
    // as the pass that read it), which the installed command would answer from
    expect(d.run(["list"])).toMatchObject({ status: 0, stdout: "Registered tools:\n- hello\n" });
    expect(d.run(["list"])).toMatchObject({ status: 0, stdout: "Registered tools:\n- hello\n" });
    chmodSync(d.recipes, 0o333);
    try {
      const error = `EACCES: permission denied, scandir '${d.recipes}'`;
      const problem = `Failed to inspect recipe root ${d.recipes}: ${error}`;
      const listed = d.run(["list"]);
      expect(listed).toEqual({
        status: 1,
        stdout: "",
        stderr: `Recipe root ${d.recipes} could not be read: the tools it holds are not listed.\nNo registered tools in the roots that could be read.\n\nProblems (details: inspect target=recipes view=doctor):\n- ${problem}\n`,
      });
      expect(d.run(["list"], fullCommand())).toEqual(listed);
      const json = d.run(["list", "--json"]);
      expect(json.status).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual({
        ok: false,
        text: listed.stderr.slice(0, -1),
        details: { tool: "register_tool", tools: [], problems: [problem], unlisted_roots: [d.recipes] },
      });
      expect(d.run(["list", "--json"], fullCommand())).toEqual(json);

      const unknown = `Unknown tool: hello. Recipe root ${d.recipes} could not be read (${error}), so the tools it holds are unknown.\n`;
      for (const args of [["call", "hello"], ["schema", "hello"], ["inspect", "target=tool:hello"]]) {
        expect(d.run(args), args.join(" ")).toEqual({ status: 1, stdout: "", stderr: unknown });
      }
    } finally {
      chmodSync(d.recipes, 0o755);
    }
    // readable again: the list is whole and a success
    expect(d.run(["list"])).toMatchObject({ status: 0, stdout: "Registered tools:\n- hello\n" });
  }, 120_000);
});

describe.skipIf(!reachable)("a drafts folder this user may not list (mode 000)", () => {
  const dirs = ownedAgentDirs("cli-unreadable-drafts-");
  afterAll(() => dirs.removeAll());

  it("the views name the folder and its error, review fails naming it, and list shows it as a problem only while it lasts, whichever command answers", () => {
    const d = dirs.fresh();
    const drafts = join(d.recipes, "drafts");
    writeFileSync(join(d.recipes, "hello.json"), JSON.stringify({ description: "Hello", template: "echo hello" }));
    mkdirSync(drafts);
    writeFileSync(join(drafts, "d.json"), JSON.stringify({ description: "Draft", template: "echo d" }));
    d.ownAll();
    const whole = "Registered tools:\n- hello\n";
    // a list index written while the folder could be listed
    expect(d.run(["list"])).toMatchObject({ status: 0, stdout: whole });
    expect(d.run(["list"])).toMatchObject({ status: 0, stdout: whole });
    expect(d.run(["review"])).toMatchObject({ status: 0, stdout: expect.stringContaining("(1 draft, a batch needs 12)") });
    chmodSync(drafts, 0o000);
    try {
      const problem = `Drafts folder ${drafts} could not be listed: EACCES: permission denied, scandir '${drafts}'`;
      const status = d.run(["inspect", "target=recipes", "view=status"]);
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(/ diagnostics=1 next=inspect_target=recipes_view=doctor\n$/);
      expect(d.run(["inspect", "target=recipes", "view=summary"]).stdout).toContain(`  diagnostic error: ${problem}\n`);
      expect(d.run(["inspect", "target=recipes", "view=doctor"]).stdout).toContain(
        `error kind=diagnostic id=-: ${problem}: let this user list the folder (read and search permission: chmod u+rx), or correct what the error names\n`,
      );

      const review = d.run(["review"]);
      expect(review.status).toBe(1);
      expect(review.stdout).toBe("");
      expect(review.stderr).toMatch(/^draft_review phase=idle steps=none /);
      expect(review.stderr).toContain(`\nnot captured: ${problem}\n`);
      expect(review.stderr).not.toContain("nothing to do");

      // the tools are all there: the list answers, with the folder among its problems
      const listed = d.run(["list"]);
      expect(listed).toEqual({ status: 0, stdout: `Registered tools:\n- hello\n\nProblems (details: inspect target=recipes view=doctor):\n- ${problem}\n`, stderr: "" });
      expect(d.run(["list"], fullCommand())).toEqual(listed);
      expect(d.run(["list"])).toEqual(listed);
    } finally {
      chmodSync(drafts, 0o755);
    }
    // listed again: no problem left, from the installed command and the full one alike
    expect(d.run(["list"])).toEqual({ status: 0, stdout: whole, stderr: "" });
    expect(d.run(["list"], fullCommand())).toEqual({ status: 0, stdout: whole, stderr: "" });
    expect(d.run(["inspect", "target=recipes", "view=status"]).stdout).toContain(" drafts=1 ");
    expect(d.run(["review"])).toMatchObject({ status: 0, stdout: expect.stringContaining("(1 draft, a batch needs 12)") });
  }, 120_000);
});

describe("a regular file where a folder of the agent dir should be (no second user needed)", () => {
  const base = mkdtempSync(join(tmpdir(), "cli-file-for-folder-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("a drafts folder that is a file: list and the views show it as a problem, and review fails naming it instead of finding nothing to do", () => {
    const agent = join(base, "drafts-file");
    const recipes = join(agent, "recipes");
    const drafts = join(recipes, "drafts");
    mkdirSync(recipes, { recursive: true });
    writeFileSync(join(recipes, "hello.json"), JSON.stringify({ description: "Hello", template: "echo hello" }));
    writeFileSync(drafts, "not a folder\n");
    const env = { PI_CODING_AGENT_DIR: agent };
    const problem = `Drafts folder ${drafts} could not be listed: ENOTDIR: not a directory, scandir '${drafts}'`;
    expect(runCli(["list"], env)).toEqual({ status: 0, stdout: `Registered tools:\n- hello\n\nProblems (details: inspect target=recipes view=doctor):\n- ${problem}\n`, stderr: "" });
    expect(runCli(["inspect", "target=recipes", "view=summary"], env).stdout).toContain(`  diagnostic error: ${problem}\n`);

    const review = runCli(["review"], env);
    expect(review.status).toBe(1);
    expect(review.stdout).toBe("");
    expect(review.stderr).toMatch(/^draft_review phase=idle steps=none /);
    expect(review.stderr).toContain(`\nnot captured: ${problem}\n`);
    expect(review.stderr).not.toContain("nothing to do");
  }, 60_000);

  it("a recipe root that is a file: list and register_tool fail naming it, and review does not run", () => {
    const agent = join(base, "root-file");
    const recipes = join(agent, "recipes");
    mkdirSync(agent, { recursive: true });
    writeFileSync(recipes, "not a folder\n");
    const env = { PI_CODING_AGENT_DIR: agent };
    const problem = `Failed to inspect recipe root ${recipes}: ENOTDIR: not a directory, scandir '${recipes}'`;
    const listed = runCli(["list"], env);
    expect(listed.status).toBe(1);
    expect(listed.stderr).toContain(`Recipe root ${recipes} could not be read: the tools it holds are not listed.\n`);
    expect(listed.stderr).toContain(`\n- ${problem}\n`);
    expect(runCli(["register_tool"], env)).toEqual(listed);
    const review = runCli(["review"], env);
    expect(review.status).toBe(1);
    expect(review.stdout).toBe("");
    expect(review.stderr).not.toContain("nothing to do");
  }, 60_000);
});
