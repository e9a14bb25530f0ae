// The README is for users: its examples must run as written, and what it points to must exist.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../support/cli.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** the first ```json block after the line that names `recipes/<name>.json` */
function exampleRecipe(name: string): string {
  const at = readme.indexOf(`\`recipes/${name}.json\``);
  expect(at, `the README names recipes/${name}.json`).toBeGreaterThan(-1);
  const m = /```json\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(m, `a json block follows recipes/${name}.json`).not.toBeNull();
  return m![1]!;
}

describe("README", () => {
  it("the sequence example runs as the README says, and a missing file ends the call with the failed step", () => {
    const agent = mkdtempSync(join(tmpdir(), "pi-recipes-readme-"));
    dirs.push(agent);
    mkdirSync(join(agent, "recipes"));
    writeFileSync(join(agent, "recipes", "top_words.json"), exampleRecipe("top_words"));
    writeFileSync(join(agent, "words.txt"), "b a b c b a\nd\n");
    const env = { PI_CODING_AGENT_DIR: agent };
    const ok = runCli(["call", "top_words", `file=${join(agent, "words.txt")}`], env);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout.trim().split("\n").map((l) => l.trim().split(/\s+/))).toEqual([
      ["3", "b"],
      ["2", "a"],
      ["1", "d"],
      ["1", "c"],
    ]);
    const missing = runCli(["call", "top_words", `file=${join(agent, "nope.txt")}`], env);
    expect(missing.status).toBe(1);
    expect(missing.stdout + missing.stderr).toContain("No such file");
    expect(missing.stdout + missing.stderr).toContain("cat {file}");
  });

  it("links the template reference and the testing notes, and keeps how the project is tested out of its pages", () => {
    expect(readme).toContain("(docs/templates.md)");
    expect(readme).toContain("(docs/testing.md)");
    expect(existsSync(join(repoRoot, "docs", "templates.md"))).toBe(true);
    expect(readFileSync(join(repoRoot, "docs", "testing.md"), "utf8")).toContain("npm run mutate");
    // mutation testing is a developer's matter: the README only points to docs/testing.md
    expect(readme).not.toMatch(/Stryker|mutant/i);
  });

  it("every local link in the README points to a file of the repository", () => {
    const links = [...readme.matchAll(/\]\((?!https?:|#)([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(3);
    for (const l of links) expect(existsSync(join(repoRoot, l.split("#")[0]!)), l).toBe(true);
  });
});
