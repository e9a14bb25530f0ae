// A review's state file that is there but does not read (cut short, edited by hand) is not "no
// review": the commands that would act on it refuse, naming the file, instead of forgetting an
// approved plan and capturing another; the views say the phase is not known. Through the real
// command.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-state-"));
  mkdirSync(join(agent, "recipes", "drafts"), { recursive: true });
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

const env = (): NodeJS.ProcessEnv => ({ PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" });
const reviews = (scope: "tool" | "draft"): string => join(agent, "recipes", ".usage", "reviews", scope);
const listed = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe("a review state that does not read", () => {
  it("tool review: an approved plan is neither carried out nor forgotten while its state is damaged", () => {
    for (let i = 0; i < 36; i++) writeFileSync(join(agent, "recipes", `t${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `T ${i}`, template: `printf t${i}` }));
    expect(runCli(["review", "scope=tool"], env()).status).toBe(0);
    const [reviewId] = listed(join(reviews("tool"), "reviews"));
    const projection = JSON.parse(readFileSync(join(reviews("tool"), "reviews", reviewId!, "projection.json"), "utf8")) as {
      reviewId: string;
      tools: { tool: string; sha256: string; usage: { lifetime_calls: number; revision_calls: number } }[];
    };
    const decisions = projection.tools.map((t, i) => ({
      source: t.tool,
      sha256: t.sha256,
      action: i === 3 ? "evolve" : "keep",
      ...(i === 3 ? { target: "renamed" } : {}),
      rationale: "r",
      assessment: { lifetimeCalls: t.usage.lifetime_calls, revisionCalls: t.usage.revision_calls },
    }));
    const reply = join(agent, "reply.txt");
    writeFileSync(reply, `TOOL_REVIEW_RESULT\n${JSON.stringify({ reviewId: projection.reviewId, decisions })}\n`);
    expect(runCli(["review", "scope=tool", "--scripted", reply], env()).stdout).toContain("tool_review phase=approved");

    const state = join(reviews("tool"), "state.json");
    const whole = readFileSync(state, "utf8");
    for (const damaged of [whole.slice(0, 20), JSON.stringify({ phase: "approved" })]) {
      writeFileSync(state, damaged);
      const why = damaged.startsWith('{"phase"') ? "not a review state" : "not JSON";
      const said = `the review state ${state} is unreadable (${why}); nothing was done.`;
      const activated = runCli(["activate"], env());
      expect(activated.status).toBe(1);
      expect(activated.stderr).toContain(`activation: ${said}`);
      const reviewed = runCli(["review", "scope=tool"], env());
      expect(reviewed.status).toBe(1);
      expect(reviewed.stderr).toContain(`tool review: ${said}`);
      const reset = runCli(["message", "to=tool:pi-actors", "type=review.reset", 'body={"scope":"tool"}'], env());
      expect(reset.status).toBe(1);
      expect(reset.stdout + reset.stderr).toContain("reason=review_state_unreadable phase=unknown");
      expect(reset.stdout + reset.stderr).toContain(said);
      // nothing carried out, nothing captured, the damaged file as it was
      expect(existsSync(join(agent, "recipes", "t03.json"))).toBe(true);
      expect(existsSync(join(agent, "recipes", "renamed.json"))).toBe(false);
      expect(listed(join(reviews("tool"), "reviews"))).toEqual([reviewId]);
      expect(readFileSync(state, "utf8")).toBe(damaged);
      const view = runCliJson(["inspect", "target=recipes", "view=reviews"], env()).body;
      expect(view.text).toMatch(/^automatic_reviews draft=idle tool=unknown\n/);
      expect(view.text).toContain(`warning: Review state ${state} is unreadable (${why}): the review it records is not carried on`);
      expect(runCliJson(["inspect", "target=recipes", "view=doctor"], env()).body.text).toContain(`Review state ${state} is unreadable (${why})`);
    }
    // put back, the plan is carried out
    writeFileSync(state, whole);
    const activated = runCli(["activate"], env());
    expect(activated.status, activated.stderr).toBe(0);
    expect(existsSync(join(agent, "recipes", "renamed.json"))).toBe(true);
  });

  it("draft review: a damaged state is not a fresh start that spends the reviewer's attempts", () => {
    for (let i = 0; i < 12; i++) writeFileSync(join(agent, "recipes", "drafts", `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `D ${i}`, template: `printf d${i}` }));
    expect(runCli(["review"], env()).status).toBe(0);
    const batches = listed(join(reviews("draft"), "batches"));
    expect(batches).toHaveLength(1);
    const state = join(reviews("draft"), "state.json");
    writeFileSync(state, '{"phase":"capt');
    const reviewed = runCli(["review"], env());
    expect(reviewed.status).toBe(1);
    expect(reviewed.stderr).toContain(`draft review: the review state ${state} is unreadable (not JSON); nothing was done.`);
    expect(listed(join(reviews("draft"), "batches"))).toEqual(batches);
    expect(readFileSync(state, "utf8")).toBe('{"phase":"capt');
    expect(runCliJson(["inspect", "target=recipes", "view=reviews"], env()).body.text).toMatch(/^automatic_reviews draft=unknown /);
  });
});
