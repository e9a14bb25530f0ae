// An approved tool portfolio review is carried out when the MCP server starts, before it lists
// its tools: the renamed tool is served under its new name, the demoted and merged-away ones are
// gone, and a restart changes nothing more.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { approvedPortfolio } from "../support/portfolio.js";
import { connect, makeAgentDir, textOf, type AgentDir, type Connected } from "./harness.js";

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
