// Folders of the agent dir that this user may not read: an answer never looks complete when a
// folder it stands on could not be read. It fails, names the folder and the error, and still shows
// what could be read. The real command, run as the agent dir's owner (test/support/as-owner.ts).
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeArgsFor, repoRoot } from "../support/cli.js";
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
