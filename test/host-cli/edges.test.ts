// Honest results at the edges of the command line: bare `pi-recipes`, mistyped mcp options, and
// the counts of the recipe views.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "cli-edges-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh, empty agent dir of its own. */
function agentDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, "recipes"), { recursive: true });
  return dir;
}

describe("the command line without a verb or with a mistyped option", () => {
  it("bare pi-recipes prints the help and exits 0", () => {
    const r = runCli([]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: pi-recipes <verb>");
    expect(r.stdout).toContain("pi-recipes <verb> --help");
  });

  it("pi-recipes mcp --prot suggests --port, like other verbs' unknown options", () => {
    for (const words of [["mcp", "--prot", "8000"], ["mcp", "--http", "--prot", "8000"]]) {
      const r = runCli(words);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`pi-recipes: mcp: Unknown option '--prot'. Did you mean "--port"?`);
    }
  });
});

describe("view=reviews", () => {
  it("counts the lineage of a tool called with pi-recipes call, before anything folded its launch", () => {
    const env = { PI_CODING_AGENT_DIR: agentDir("reviews") };
    expect(runCli(["register_tool", "name=greet", "template=echo hello", "description=Greet"], env).status).toBe(0);
    expect(runCli(["call", "greet"], env)).toMatchObject({ status: 0, stdout: "hello\n" });
    const r = runCli(["inspect", "target=recipes", "view=reviews"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("automatic_reviews draft=idle tool=idle\nlineages=1 revision_snapshots=0\n");
  });
});
