// An approved tool portfolio review is carried out when the MCP server starts, before it lists
// its tools: the renamed tool is served under its new name, the demoted and merged-away ones are
// gone, and a restart changes nothing more.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { approvedPortfolio, portfolioReviewerCommand, thirtySixTools } from "../support/portfolio.js";
import { connect, makeAgentDir, sleep, textOf, type AgentDir, type Connected } from "./harness.js";
import { connectHttp, startHttpServer } from "./http-harness.js";

let agent: AgentDir;
let mcp: Connected | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
  agent.cleanup();
});

describe("tool review activation at MCP server start", () => {
  it("the server starts with the activated portfolio; a restart keeps it", async () => {
    agent = makeAgentDir();
    expect(await approvedPortfolio(agent.dir)).toBe("approved");
    for (let round = 0; round < 2; round++) {
      mcp = await connect(agent);
      const names = (await mcp.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("renamed_tool");
      expect(names).toContain("tool_03");
      expect(names.filter((n) => /^tool_0[012]$/.test(n))).toEqual([]);
      expect(textOf(await mcp.client.callTool({ name: "renamed_tool", arguments: {} }))).toBe("t0");
      const reviews = textOf(await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "reviews" } }));
      expect(reviews).toContain("tool=completed");
      await mcp.close();
      mcp = undefined;
    }
    expect(existsSync(join(agent.recipes, "drafts", "tool_01.json"))).toBe(true);
  }, 120_000);
});

describe("the tool portfolio review at the HTTP server's idle boundary", () => {
  it("a call with a reviewer configured approves a portfolio once no call is in flight; the restart activates it", async () => {
    agent = makeAgentDir();
    thirtySixTools(agent.dir);
    const env = { PI_RECIPES_REVIEWER: portfolioReviewerCommand(agent.dir) };
    const state = join(agent.recipes, ".usage", "reviews", "tool", "state.json");
    const phase = (): unknown => (existsSync(state) ? (JSON.parse(readFileSync(state, "utf8")) as { phase: unknown }).phase : undefined);
    let server = await startHttpServer(agent, [], env);
    try {
      const c = await connectHttp(server.url);
      expect(phase()).toBeUndefined();
      expect(textOf(await c.client.callTool({ name: "tool_05", arguments: {} }))).toBe("t5");
      for (let i = 0; i < 600 && phase() !== "approved"; i++) await sleep(100);
      expect(phase()).toBe("approved");
      // approval changes no recipe: the tool set is the same until the next start
      expect((await c.client.listTools()).tools.map((t) => t.name)).toContain("tool_05");
      await c.close();
    } finally {
      await server.stop();
    }
    server = await startHttpServer(agent, [], env);
    try {
      const c = await connectHttp(server.url);
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      // the portfolio's first tool (oldest lineage, then name: the server seeded all at once) was renamed
      expect(names).toContain("renamed_tool");
      expect(names.filter((n) => /^tool_\d\d$/.test(n))).toEqual(Array.from({ length: 35 }, (_, i) => `tool_${String(i + 1).padStart(2, "0")}`));
      expect(phase()).toBe("completed");
      await c.close();
    } finally {
      await server.stop();
    }
  }, 180_000);
});
