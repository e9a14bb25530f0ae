// Every host offers the agent the same tool definitions: the Pi host (a real Pi session through
// the SDK, what the model is offered) and the MCP host (the SDK's real client over stdio against
// `pi-recipes mcp`, the answer as it came over the wire) must show byte-identical parameter
// schemas for register_tool, inspect and each recipe tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FauxResponseStep } from "@mariozechner/pi-ai";
import { connect, makeAgentDir, type AgentDir, type Connected } from "../host-mcp/harness.js";
import { makeSandbox, say, startPi, type PiRun, type PiSandbox } from "../host-pi/sdk-harness.js";

const RECIPES: Record<string, unknown> = {
  greet: { description: "Say hello", template: "echo hello {who}" },
  check_tool: { description: "Check or fix a file", args: ["file:path", "mode:enum(check,fix)", "count:int"], defaults: { mode: "check" }, template: "echo {mode} {file} {count}" },
  later: { description: "An async run", async: true, template: "echo async {word}" },
};
const NAMES = ["register_tool", "inspect", ...Object.keys(RECIPES)];

let sandbox: PiSandbox;
let agent: AgentDir;
let pi: PiRun | undefined;
let mcp: Connected | undefined;
const savedDir = process.env["PI_CODING_AGENT_DIR"];

/** name → JSON text of the parameter schema, for the tools named in NAMES */
const schemasOf = (tools: readonly { name: string; schema: unknown }[]): Map<string, string> =>
  new Map(tools.filter((t) => NAMES.includes(t.name)).map((t) => [t.name, JSON.stringify(t.schema)]));

let piSchemas = new Map<string, string>();
let mcpSchemas = new Map<string, string>();

beforeAll(async () => {
  sandbox = makeSandbox();
  agent = makeAgentDir();
  for (const [name, recipe] of Object.entries(RECIPES)) {
    writeFileSync(join(sandbox.recipeRoot, `${name}.json`), JSON.stringify(recipe, null, 2));
    agent.write(name, recipe);
  }
  process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
  const offered: FauxResponseStep = (context) => {
    piSchemas = schemasOf((context.tools ?? []).map((t) => ({ name: t.name, schema: t.parameters })));
    return say("seen");
  };
  pi = await startPi({ sandbox, load: "factory", responses: [offered] });
  await pi.session.prompt("which tools do you have?");
  await pi.waitForRuns(1);

  mcp = await connect(agent);
  // the tools/list answer as the server sent it: the SDK client's own parse reorders schema keys
  const wire: { name: string; inputSchema: unknown }[][] = [];
  const deliver = mcp.transport.onmessage;
  mcp.transport.onmessage = (message) => {
    const result = (message as { result?: { tools?: { name: string; inputSchema: unknown }[] } }).result;
    if (result?.tools !== undefined) wire.push(result.tools);
    deliver?.(message);
  };
  await mcp.client.listTools();
  mcpSchemas = schemasOf((wire[0] ?? []).map((t) => ({ name: t.name, schema: t.inputSchema })));
}, 60_000);

afterAll(async () => {
  await pi?.close();
  await mcp?.close();
  if (savedDir === undefined) delete process.env["PI_CODING_AGENT_DIR"];
  else process.env["PI_CODING_AGENT_DIR"] = savedDir;
  sandbox?.cleanup();
  agent?.cleanup();
});

describe("the tool definitions every host offers", () => {
  it("both hosts offer register_tool, inspect and every recipe tool", () => {
    expect([...piSchemas.keys()].sort()).toEqual([...NAMES].sort());
    expect([...mcpSchemas.keys()].sort()).toEqual([...NAMES].sort());
  });

  it.each(NAMES)("%s has the same parameter schema, byte for byte, in Pi and MCP", (name) => {
    expect(piSchemas.get(name)).toBeDefined();
    expect(piSchemas.get(name)).toBe(mcpSchemas.get(name));
  });
});
