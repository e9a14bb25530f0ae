// Snapshot rollback across recipe formats, through the real command: a tool reviewed as a .json
// file, later rewritten as .md (same recipe, then a new revision), rolled back to revision 1 is
// one .json file again with revision 1's exact bytes, and the other way round; its lineage moves
// with it (revision_calls restart, lifetime_calls go on).
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";
import { portfolioReviewerCommand, thirtySixTools } from "../support/portfolio.js";

let agent: string;
beforeAll(() => void (agent = mkdtempSync(join(tmpdir(), "pi-recipes-rollback-format-"))));
afterAll(() => rmSync(agent, { recursive: true, force: true }));

const file = (n: string): string => join(agent, "recipes", n);
const md = (description: string, template: string): string => `---\ndescription: ${description}\n---\n\n\`\`\`template\n${template}\n\`\`\`\n`;
/** the usage a user sees (launches not yet folded into the ledger included) */
const usage = (n: string): Record<string, unknown> => {
  const active = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" }).body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
  return active.find((a) => a.id === n)?.usage ?? {};
};
const ledger = (n: string): Record<string, unknown> => JSON.parse(readFileSync(join(agent, "recipes", ".usage", "recipes", `${n}.json`), "utf8")) as Record<string, unknown>;

describe("snapshot rollback across .md and .json", () => {
  it("a .md tool rolled back to a .json revision, and a .json tool to a .md one, is one file in the revision's format", () => {
    thirtySixTools(agent);
    // tool_07 is a Markdown recipe from the start
    unlinkSync(file("tool_07.json"));
    const md7 = md("Tool 7", "printf t7");
    writeFileSync(file("tool_07.md"), md7);
    const json8 = readFileSync(file("tool_08.json"), "utf8");
    const review = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: portfolioReviewerCommand(agent, "keep") };
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
    // a review passes every tool's revision 1 (its snapshot keeps the file's format), activation records it
    expect(runCli(["call", "tool_08"], review).stdout).toBe("t8\n");
    expect(runCliJson(["activate"], env).body.text).toContain("activation outcome=activated");

    // the same recipes in the other format (their lineages follow), then a content revision
    unlinkSync(file("tool_08.json"));
    writeFileSync(file("tool_08.md"), md("Tool 8", "printf t8"));
    unlinkSync(file("tool_07.md"));
    writeFileSync(file("tool_07.json"), JSON.stringify({ description: "Tool 7", template: "printf t7" }));
    expect(runCli(["call", "tool_08"], env).stdout).toBe("t8\n");
    expect(runCli(["call", "tool_07"], env).stdout).toBe("t7\n");
    expect(usage("tool_08")).toMatchObject({ lifetime_calls: 2 });
    writeFileSync(file("tool_08.md"), md("Tool 8", "printf changed8"));
    writeFileSync(file("tool_07.json"), JSON.stringify({ description: "Tool 7", template: "printf changed7" }));
    expect(runCli(["call", "tool_08"], env).stdout).toBe("changed8\n");
    expect(runCli(["call", "tool_07"], env).stdout).toBe("changed7\n");
    expect(usage("tool_08")).toMatchObject({ revision_calls: 1, lifetime_calls: 3 });

    const r8 = runCliJson(["rollback", "tool=tool_08", "revision=1"], env);
    expect(r8.body.text).toContain("rolled back tool=tool_08 to revision 1: now revision 3");
    expect(existsSync(file("tool_08.md"))).toBe(false);
    expect(readFileSync(file("tool_08.json"), "utf8")).toBe(json8);
    expect(ledger("tool_08")).toMatchObject({ current_path: "tool_08.json", revision: 3, revision_calls: 0, lifetime_calls: 3, rollback_of_revision: 1, former_paths: ["tool_08.json", "tool_08.md"] });

    const r7 = runCliJson(["rollback", "tool=tool_07", "revision=1"], env);
    expect(r7.body.text).toContain("rolled back tool=tool_07 to revision 1: now revision 3");
    expect(existsSync(file("tool_07.json"))).toBe(false);
    expect(readFileSync(file("tool_07.md"), "utf8")).toBe(md7);
    expect(ledger("tool_07")).toMatchObject({ current_path: "tool_07.md", revision: 3, revision_calls: 0, rollback_of_revision: 1 });

    // each is one tool again, in its old format; counting goes on from there
    expect(runCli(["call", "tool_08"], env).stdout).toBe("t8\n");
    expect(runCli(["call", "tool_07"], env).stdout).toBe("t7\n");
    expect(usage("tool_08")).toMatchObject({ revision_calls: 1, lifetime_calls: 4 });
    // asking again changes nothing
    expect(runCliJson(["rollback", "tool=tool_08", "revision=1"], env).body.details).toMatchObject({ changed: false });
  }, 180_000);

  it("refuses a format-changing rollback that would replace another recipe file", () => {
    // tool_09 (reviewed as .json) is now .md, and someone has put a tool_09.json back beside it
    unlinkSync(file("tool_09.json"));
    writeFileSync(file("tool_09.md"), md("Tool 9", "printf t9"));
    expect(runCli(["call", "tool_09"], { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" }).stdout).toBe("t9\n");
    // a command that seeds every lineage: tool_09.md takes over tool_09's (the .json is gone)
    runCliJson(["review", "scope=tool"], { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" });
    expect(ledger("tool_09")).toMatchObject({ current_path: "tool_09.md" });
    writeFileSync(file("tool_09.json"), JSON.stringify({ template: "printf other" }));
    const r = runCliJson(["rollback", "tool=tool_09", "revision=1"], { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" });
    expect(r.body).toMatchObject({ ok: false, text: expect.stringContaining("Recipe revision rollback would replace another recipe file") });
    expect(readFileSync(file("tool_09.json"), "utf8")).toBe(JSON.stringify({ template: "printf other" }));
    expect(readFileSync(file("tool_09.md"), "utf8")).toBe(md("Tool 9", "printf t9"));
  }, 120_000);
});
