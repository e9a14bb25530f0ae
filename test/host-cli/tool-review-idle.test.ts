// The CLI's idle boundary for the tool portfolio review: with a reviewer configured, a foreground
// command that has done its work (`call`) runs one portfolio cycle once 36 tools are eligible, as
// Pi does after a foreground turn; the approved plan then waits for `pi-recipes activate`.
// Without a reviewer, or with the automatic review off, nothing is captured.
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";
import { approvedPortfolio, portfolioReviewerCommand, thirtySixTools } from "../support/portfolio.js";

let agent: string;
beforeEach(() => void (agent = mkdtempSync(join(tmpdir(), "pi-recipes-idle-portfolio-"))));
afterEach(() => rmSync(agent, { recursive: true, force: true }));

const toolState = (): Record<string, unknown> | undefined => {
  const p = join(agent, "recipes", ".usage", "reviews", "tool", "state.json");
  return existsSync(p) ? (JSON.parse(readFileSync(p, "utf8")) as Record<string, unknown>) : undefined;
};

describe("the tool portfolio review at the CLI's idle boundary", () => {
  it("a call with a reviewer configured approves a portfolio; activate carries it out", () => {
    thirtySixTools(agent);
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: portfolioReviewerCommand(agent) };
    expect(runCli(["call", "tool_05"], env).stdout).toBe("t5\n");
    expect(toolState()).toMatchObject({ phase: "approved", tools: 36 });
    // approval changed no recipe; the next boundary (activate) does
    expect(existsSync(join(agent, "recipes", "tool_05.json"))).toBe(true);
    expect(runCliJson(["inspect", "target=recipes", "view=reviews"], env).body.details["tool_review"]).toMatchObject({ phase: "approved" });
    expect(runCliJson(["activate"], env).body.text).toContain("activation outcome=activated phase=completed");
    // the portfolio is oldest lineage first: tool_05's began with its launch, before the others
    // were seeded, so the reviewer's first tool, renamed, is tool_05
    expect(existsSync(join(agent, "recipes", "tool_05.json"))).toBe(false);
    expect(runCli(["call", "renamed_tool"], env).stdout).toBe("t5\n");
    // every tool's revision was just reviewed: the next call captures nothing
    expect(toolState()).toMatchObject({ phase: "completed" });
  }, 120_000);

  it("without a reviewer, or with the automatic review off, a call captures nothing", () => {
    thirtySixTools(agent);
    expect(runCli(["call", "tool_05"], { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" }).stdout).toBe("t5\n");
    expect(toolState()).toBeUndefined();
    const off = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: portfolioReviewerCommand(agent), PI_ACTORS_AUTOMATIC_REVIEW: "off" };
    expect(runCli(["call", "tool_05"], off).stdout).toBe("t5\n");
    expect(toolState()).toBeUndefined();
  }, 120_000);

  it("an approved plan is activated even with the automatic review off: activation is not a review", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    const off = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "", PI_ACTORS_AUTOMATIC_REVIEW: "off" };
    expect(runCliJson(["activate"], off).body.text).toContain("activation outcome=activated phase=completed");
    expect(toolState()).toMatchObject({ phase: "completed" });
    expect(runCli(["call", "renamed_tool"], off).stdout).toBe("t0\n");
  }, 120_000);

  it("with the automatic review off, a failed activation can be retried, and a retry with nothing to retry fails", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    const off = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "", PI_ACTORS_AUTOMATIC_REVIEW: "off" };
    const file = join(agent, "recipes", "tool_10.json");
    const reviewed = readFileSync(file, "utf8");
    // a reviewed tool edited after approval: activation refuses the plan, and says to retry
    writeFileSync(file, '{"description":"x","template":"printf changed"}');
    const failed = runCliJson(["activate"], off);
    expect(failed.status).not.toBe(0);
    expect(toolState()).toMatchObject({ phase: "processing_failed" });
    writeFileSync(file, reviewed);
    const retry = ["message", "to=tool:pi-actors", "type=review.retry", 'body={"scope":"tool"}'];
    const retried = runCliJson(retry, off);
    expect(retried.status).toBe(0);
    expect(retried.body.text).toContain("message=sent");
    expect(toolState()).toMatchObject({ phase: "approved" });
    expect(runCliJson(["activate"], off).body.text).toContain("activation outcome=activated phase=completed");
    // nothing left to retry: the answer says so and is no success
    const again = runCliJson(retry, off);
    expect(again.status).toBe(1);
    expect(again.body.text).toContain("message=not_sent reason=review_state_not_retryable");
  }, 120_000);
});
