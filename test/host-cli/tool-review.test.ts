// The tool portfolio review through the real command: 36 tools, a review that first says how many
// are eligible, a scripted reply using every decision kind, `pi-recipes activate`, then the tool
// set, the ledgers and `view=reviews`; a content edit and a rollback to revision 1 that restarts
// revision_calls and keeps lifetime_calls.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

interface Projected {
  reviewId: string;
  tools: { tool: string; sha256: string; usage: { lifetime_calls: number; revision_calls: number } }[];
}

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-portfolio-"));
  mkdirSync(join(agent, "recipes"));
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

const name = (i: number): string => `tool_${String(i).padStart(2, "0")}`;
/** tool_03 is tool_02's twin (same recipe, other key order): they may merge */
const recipe = (i: number): string => (i === 3 ? '{"template":"printf t2","description":"Tool 2"}' : JSON.stringify({ description: `Tool ${i}`, template: `printf t${i}` }));
const ledger = (n: string): Record<string, unknown> => JSON.parse(readFileSync(join(agent, "recipes", ".usage", "recipes", `${n}.json`), "utf8"));
/** the usage a user sees (pending launches included) */
const usage = (env: NodeJS.ProcessEnv, n: string): Record<string, unknown> => {
  const active = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
  return active.find((a) => a.id === n)?.usage ?? {};
};
const toolFiles = (): string[] => readdirSync(join(agent, "recipes")).filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5)).sort();

describe("a tool portfolio review through the CLI", () => {
  it("36 tools, every decision kind, activate, then rollback to revision 1", () => {
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
    for (let i = 0; i < 35; i++) writeFileSync(join(agent, "recipes", `${name(i)}.json`), recipe(i));
    const early = runCliJson(["review", "scope=tool"], env).body;
    expect(early.text).toContain("eligible=35/36");
    expect(early.text).toContain("no portfolio: 35 of the 36 tools a review needs are eligible");
    writeFileSync(join(agent, "recipes", `${name(35)}.json`), recipe(35));
    expect(runCli(["call", "tool_00"], env).stdout).toBe("t0\n");
    expect(runCli(["call", "tool_00"], env).stdout).toBe("t0\n");
    expect(runCli(["call", "tool_03"], env).stdout).toBe("t2\n");

    const captured = runCliJson(["review", "scope=tool"], env).body;
    expect(captured.details["phase"]).toBe("captured");
    const projection = JSON.parse(readFileSync(String(captured.details["projection"]), "utf8")) as Projected;
    expect(projection.tools).toHaveLength(36);
    expect(JSON.stringify(projection)).not.toMatch(/printf|Tool \d|recipes\//);
    // the portfolio is oldest lineage first: the order the tools were first seen, then by name
    const byUsage = projection.tools.map((t) => t.usage.lifetime_calls);
    expect(byUsage.filter((n) => n > 0).sort()).toEqual([1, 2]);

    // which occurrence is which tool is not shown; the test knows: all were first seen together,
    // so the occurrences follow the names (tool_01 is tool_00 …)
    const special: Record<number, object> = {
      0: { action: "evolve", target: "renamed_tool" },
      1: { action: "demote" },
      2: { action: "merge", target: "tool_04" },
      3: { action: "merge", target: "tool_04" },
    };
    const decisions = projection.tools.map((t, i) => ({
      source: t.tool,
      sha256: t.sha256,
      action: "keep",
      rationale: "useful",
      assessment: { lifetimeCalls: t.usage.lifetime_calls, revisionCalls: t.usage.revision_calls },
      ...special[i],
    }));
    const replyFile = join(agent, "reply.txt");
    writeFileSync(replyFile, `weighing the portfolio...\nTOOL_REVIEW_RESULT\n${JSON.stringify({ reviewId: projection.reviewId, decisions })}\n`);
    const approved = runCliJson(["review", "scope=tool", "--scripted", replyFile], env);
    expect(approved.body.text).toContain("tool_review phase=approved");
    expect(approved.status).toBe(0);
    // approval changes no recipe
    expect(toolFiles()).toHaveLength(36);

    const activated = runCliJson(["activate"], env);
    expect(activated.body.text).toContain("activation outcome=activated phase=completed");
    expect(activated.body.details["actions"]).toEqual({ evolve: 1, demote: 1, merge: 2, keep: 32 });
    expect(toolFiles()).toEqual(["renamed_tool", "tool_03", ...Array.from({ length: 32 }, (_, i) => name(i + 4))].sort());
    expect(readdirSync(join(agent, "recipes", "drafts"))).toEqual(["tool_01.json"]);
    const listed = runCli(["list"], env).stdout;
    expect(listed).toContain("renamed_tool");
    expect(listed).not.toMatch(/\btool_0[012]\b/);
    expect(runCli(["call", "renamed_tool"], env).stdout).toBe("t0\n");
    expect(usage(env, "renamed_tool")).toMatchObject({ lifetime_calls: 3 });
    expect(ledger("renamed_tool")).toMatchObject({ revision: 1, former_names: ["tool_00"] });
    expect(ledger("tool_03")).toMatchObject({ lifetime_calls: 1, former_names: ["tool_02"] });
    expect(ledger("tool_01")).toMatchObject({ current_path: "drafts/tool_01.json", demoted_from_revision: 1 });
    expect(runCliJson(["activate"], env).body.text).toContain("activation outcome=completed");

    // a content edit is revision 2; the rollback restores revision 1's bytes
    writeFileSync(join(agent, "recipes", "renamed_tool.json"), JSON.stringify({ description: "Tool 0", template: "printf changed" }));
    expect(runCli(["call", "renamed_tool"], env).stdout).toBe("changed\n");
    expect(usage(env, "renamed_tool")).toMatchObject({ lifetime_calls: 4, revision_calls: 1 });
    const rolled = runCliJson(["rollback", "tool=renamed_tool", "revision=1"], env);
    expect(rolled.body.text).toContain("rolled back tool=renamed_tool to revision 1: now revision 3");
    expect(readFileSync(join(agent, "recipes", "renamed_tool.json"), "utf8")).toBe(recipe(0));
    expect(ledger("renamed_tool")).toMatchObject({ lifetime_calls: 4, revision: 3, revision_calls: 0, rollback_of_revision: 1 });
    expect(runCli(["call", "renamed_tool"], env).stdout).toBe("t0\n");
    expect(usage(env, "renamed_tool")).toMatchObject({ lifetime_calls: 5, revision_calls: 1 });
    // not an agent tool: the verbs agents see do not include it
    expect(runCliJson(["rollback", "tool=renamed_tool", "revision=7"], env).body).toMatchObject({ ok: false, text: expect.stringContaining("Invalid or rotated recipe revision snapshot.") });
    // the file deleted by hand: the rollback writes it back, with the content of the revision the
    // tool is on (3, revision 1's), so no revision is recorded and its calls go on
    rmSync(join(agent, "recipes", "renamed_tool.json"));
    const back = runCliJson(["rollback", "tool=renamed_tool", "revision=1"], env);
    expect(back.body.text).toBe("rolled back tool=renamed_tool to revision 1: its file holds that content again, which is its current revision 3 (revision_calls go on; lifetime_calls kept)");
    expect(ledger("renamed_tool")).toMatchObject({ lifetime_calls: 5, revision: 3, revision_calls: 1 });

    // rolled back to reviewed content: nothing is eligible (a new content revision would be)
    expect(runCliJson(["review", "scope=tool"], env).body.text).toMatch(/eligible=0\/36/);
  }, 180_000);
});
