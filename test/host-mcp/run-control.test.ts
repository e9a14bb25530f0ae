// Long work through the MCP SDK client: output lines arrive as progress while the command runs,
// and an async run can be inspected and killed with the tools the server lists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, makeAgentDir, sleep, textOf, type AgentDir, type Connected } from "./harness.js";

let agent: AgentDir;
let mcp: Connected;
let gate: string;

beforeAll(async () => {
  agent = makeAgentDir();
  gate = join(agent.dir, "go");
  // prints a line, then waits until the test has seen that line before it prints the next
  const script = join(agent.dir, "two-lines.sh");
  writeFileSync(script, `echo first line\nwhile [ ! -e '${gate}' ]; do sleep 0.05; done\necho second line\n`);
  agent.write("slow_lines", { description: "Two lines with a wait", template: `sh ${script}` });
  agent.write("forever", { description: "An async run that never ends", async: true, template: "sleep 600" });
  mcp = await connect(agent);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  agent?.cleanup();
});

describe("MCP: long work shows progress", () => {
  it("a command's output lines arrive as progress before it ends, and the result is still whole", async () => {
    const events: string[] = [];
    const call = mcp.client.callTool({ name: "slow_lines", arguments: {} }, undefined, {
      onprogress: (p) => {
        events.push(p.message ?? "");
        // the command cannot end before this: it waits for the gate file
        if ((p.message ?? "").endsWith("sh: first line")) writeFileSync(gate, "");
      },
      timeout: 60_000,
    });
    const result = await call;
    expect(textOf(result)).toBe("first line\nsecond line");
    expect(events).toContain("slow_lines: sh: first line");
    expect(existsSync(gate)).toBe(true);
  }, 90_000);
});

describe("MCP: run control", () => {
  it("an async run's next hint names tools the server lists: inspect and message kill it", async () => {
    const { tools } = await mcp.client.listTools();
    const names = new Set(tools.map((t) => t.name));
    const started = await mcp.client.callTool({ name: "forever", arguments: { run_id: "forever-1" } });
    const next = /next: (.*)$/m.exec(textOf(started))?.[1] ?? "";
    const verbs = next.split(" | ").map((a) => a.split(" ")[0]);
    expect(verbs.length).toBeGreaterThan(0);
    for (const verb of verbs) expect(names.has(verb!)).toBe(true);

    const status = await mcp.client.callTool({ name: "inspect", arguments: { target: "run:forever-1", view: "status" } });
    expect(textOf(status)).toMatch(/running/);
    const killed = await mcp.client.callTool({ name: "message", arguments: { to: "run:forever-1", type: "control.kill" } });
    expect(killed.isError).toBeFalsy();
    let after = "";
    for (let i = 0; i < 100 && !/killed/.test(after); i++) {
      after = textOf(await mcp.client.callTool({ name: "inspect", arguments: { target: "run:forever-1", view: "status" } }));
      if (!/killed/.test(after)) await sleep(100);
    }
    expect(after).toMatch(/killed/);
  }, 90_000);
});
