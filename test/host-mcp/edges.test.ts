// What an MCP client is told at the edges: a tool reached through `message` passes the same
// stale-call gate as a direct call.
import { afterEach, describe, expect, it } from "vitest";
import { unaccountedLaunch, type CallContext } from "../../runtime/verbs/call.js";
import { connect, makeAgentDir, textOf, type AgentDir, type Connected } from "./harness.js";

let agent: AgentDir | undefined;
let mcp: Connected | undefined;
afterEach(async () => {
  await mcp?.close();
  agent?.cleanup();
  mcp = undefined;
  agent = undefined;
});

describe("the MCP message tool", () => {
  it("goes through the stale-call gate: a tool changed since the client's last list is refused once, not run", async () => {
    agent = makeAgentDir();
    agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
    mcp = await connect(agent);
    await mcp.client.listTools();
    const seen = mcp.listChanged();
    agent.write("greet", { description: "Say hello", template: "echo CHANGED {who}" });
    await mcp.nextListChanged(seen);
    const stale = await mcp.client.callTool({ name: "message", arguments: { to: "tool:greet", type: "invoke", body: { who: "x" } } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('Tool "greet" changed since your last tools/list');
    expect(textOf(stale)).not.toContain("CHANGED x");
    // shown the new definition by the refusal, the caller may retry
    const retried = await mcp.client.callTool({ name: "message", arguments: { to: "tool:greet", type: "invoke", body: { who: "x" } } });
    expect(retried.isError).toBeFalsy();
    expect(textOf(retried)).toContain("CHANGED x");
  });
});

describe("launch accounting is not optional", () => {
  it("a call context without its launch check does not type-check (tsc checks this file)", () => {
    const paths = { cwd: "/", home: "/", tmpRoot: "/tmp" };
    // @ts-expect-error every launch path must say how its launches are accounted
    const unaccounted: CallContext = { paths };
    const accounted: CallContext = { paths, launch: unaccountedLaunch };
    expect(typeof accounted.launch).toBe("function");
    expect(unaccounted.paths).toBe(paths);
  });
});
