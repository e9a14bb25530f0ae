// Honest results at the edges of the command line: bare `pi-recipes`, mistyped mcp options, and
// the counts of the recipe views.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

describe("usage carried over from pi-actors", () => {
  it("a recipe's stored usage {calls: 7, last_called} shows in the summary, and the next launch makes it 8", () => {
    const dir = agentDir("carried");
    const last = "2025-01-02T03:04:05.000Z";
    writeFileSync(join(dir, "recipes", "hello.json"), JSON.stringify({ description: "Say hi", template: "echo hi", usage: { calls: 7, last_called: last } }));
    const env = { PI_CODING_AGENT_DIR: dir };
    const before = runCli(["inspect", "target=recipes", "view=summary"], env);
    expect(before.status).toBe(0);
    expect(before.stdout).toContain(`  usage: hello calls=7 last_call=${last}\n`);
    expect(runCli(["call", "hello"], env)).toMatchObject({ status: 0, stdout: "hi\n" });
    const after = runCli(["inspect", "target=recipes", "view=summary"], env).stdout;
    const line = after.split("\n").find((l) => l.startsWith("  usage: hello "));
    expect(line).toMatch(/^  usage: hello calls=8 last_call=\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    // the last call is the launch just made, not the carried one
    expect(line).not.toContain(last);
  });
});
