// The MCP server end to end: the SDK's real client over stdio against `pi-recipes mcp`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { connect, makeAgentDir, sleep, textOf, type AgentDir, type Connected } from "./harness.js";

let agent: AgentDir;
let mcp: Connected;

const toolNamed = (tools: readonly Tool[], name: string): Tool | undefined => tools.find((t) => t.name === name);

beforeAll(async () => {
  agent = makeAgentDir();
  agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
  agent.write("check_tool", {
    description: "Check or fix a file",
    args: ["file:path", "mode:enum(check,fix)"],
    defaults: { mode: "check" },
    template: "echo {mode} {file}",
  });
  agent.write("steps", { description: "Two steps", template: ["sleep 0.3", "echo second step"] });
  agent.write("later", { description: "An async run", async: true, template: "echo async {word}" });
  mcp = await connect(agent);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  agent?.cleanup();
});

describe("pi-recipes mcp", () => {
  it("declares tools.listChanged and lists one tool per recipe plus register_tool, inspect and message", async () => {
    expect(mcp.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["register_tool", "inspect", "message", "check_tool", "greet", "later", "steps"]);
    const check = toolNamed(tools, "check_tool")!;
    expect(check.description).toBe("Check or fix a file");
    expect(check.inputSchema).toEqual({
      additionalProperties: false,
      properties: {
        file: { description: "Path argument: file", type: "string" },
        mode: { description: "Enum argument: mode", enum: ["check", "fix"], type: "string", default: "check" },
      },
      required: ["file"],
      type: "object",
    });
  });

  it("calls a recipe tool and returns its output", async () => {
    const result = await mcp.client.callTool({ name: "greet", arguments: { who: "world" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("hello world");
    expect(result.structuredContent).toMatchObject({ ok: true });
  });

  it("answers bad arguments with the usage hint, as an error result", async () => {
    const result = await mcp.client.callTool({ name: "check_tool", arguments: { file: "a.txt", mode: "delete" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid arguments for tool "check_tool": Argument mode must be one of: check, fix.\n\n' +
        "Expected call shape for check_tool:\n" +
        'check_tool({\n  "file": "./file",\n  "mode": "check"\n})\nRequired: file\nOptional: mode',
    );
    const missing = await mcp.client.callTool({ name: "greet", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('Invalid arguments for tool "greet": Missing command template value: who');
    // null is no value: a required argument given as null is missing, an optional one takes its default
    const nullRequired = await mcp.client.callTool({ name: "greet", arguments: { who: null } });
    expect(nullRequired.isError).toBe(true);
    expect(textOf(nullRequired)).toContain('Invalid arguments for tool "greet": Missing command template value: who');
    // an array is no path (nor any one value): refused, not joined into "a.txt,-n"
    const array = await mcp.client.callTool({ name: "check_tool", arguments: { file: ["a.txt", "-n"] } });
    expect(array.isError).toBe(true);
    expect(textOf(array)).toContain('Invalid arguments for tool "check_tool": Argument file must be a path, not an array');
    const nullOptional = await mcp.client.callTool({ name: "check_tool", arguments: { file: "a.txt", mode: null } });
    expect(nullOptional.isError).toBeFalsy();
    expect(textOf(nullOptional)).toBe("check a.txt");
  });

  it("counts launches in the usage ledger", async () => {
    expect((await mcp.client.callTool({ name: "greet", arguments: { who: "ledger" } })).isError).toBeFalsy();
    const launches = join(agent.recipes, ".usage", "launches");
    expect(existsSync(launches)).toBe(true);
    const logs = readdirSync(launches).map((f) => readFileSync(join(launches, f), "utf8")).join("");
    expect(logs).toContain('"name":"greet"');
  });

  it("shows ledger usage in the verbose summary: each call counts once", async () => {
    const callsOfGreet = async (): Promise<number> => {
      const result = await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "summary", verbose: true } });
      expect(result.isError).toBeFalsy();
      const details = JSON.parse(textOf(result)) as { active: { id: string; usage?: { lifetime_calls: number } }[] };
      return details.active.find((a) => a.id === "greet")?.usage?.lifetime_calls ?? 0;
    };
    const before = await callsOfGreet();
    for (const who of ["one", "two"]) expect((await mcp.client.callTool({ name: "greet", arguments: { who } })).isError).toBeFalsy();
    expect(await callsOfGreet()).toBe(before + 2);
  });

  it("a call refused before any command starts counts nothing: a missing or null required value, an empty path, an async run's missing value", async () => {
    const callsOf = async (id: string): Promise<number> => {
      const result = await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "summary", verbose: true } });
      const details = JSON.parse(textOf(result)) as { active: { id: string; usage?: { lifetime_calls: number } }[] };
      return details.active.find((a) => a.id === id)?.usage?.lifetime_calls ?? 0;
    };
    const before = { greet: await callsOf("greet"), check_tool: await callsOf("check_tool"), later: await callsOf("later") };
    for (const [name, args] of [["greet", {}], ["greet", { who: null }], ["check_tool", { file: "" }], ["later", {}]] as const) {
      const refused = await mcp.client.callTool({ name, arguments: args });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain(`Invalid arguments for tool "${name}"`);
    }
    const message = await mcp.client.callTool({ name: "message", arguments: { to: "tool:greet", type: "call", body: {} } });
    expect(message.isError).toBe(true);
    expect(textOf(message)).toContain("Missing command template value: who");
    expect({ greet: await callsOf("greet"), check_tool: await callsOf("check_tool"), later: await callsOf("later") }).toEqual(before);
  });

  it("serves inspect", async () => {
    const result = await mcp.client.callTool({ name: "inspect", arguments: { target: "tool:check_tool" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("required: file");
  });

  it("reports the progress of a synchronous recipe when the client asks for it", async () => {
    const updates: { progress: number; message?: string | undefined }[] = [];
    const result = await mcp.client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress: (p) => updates.push(p) });
    expect(textOf(result)).toContain("second step");
    // Heartbeats (every 5 s) may come in between on a slow machine. The SDK client handles a
    // notification a microtask later than a response, so the last one is lost when it arrives in
    // the same read as the answer: only the ones before the last step's end are certain.
    const steps = updates.filter((u) => !/ running, \d+ finished, /.test(u.message ?? ""));
    expect(steps.slice(0, 3).map((u) => u.message)).toEqual([
      "steps: started sleep",
      expect.stringMatching(/^steps: finished sleep \(exit 0\), \d+s elapsed$/),
      "steps: started echo",
    ]);
    expect(updates.map((u) => u.progress)).toEqual(updates.map((_, i) => i + 1));
  });

  it("starts an async recipe and answers with its run id", async () => {
    const result = await mcp.client.callTool({ name: "later", arguments: { word: "done", run_id: "later-test-1" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("run_id: later-test-1");
    expect(result.structuredContent).toMatchObject({ run_id: "later-test-1", async: true });
    const runDir = (result.structuredContent as { run_dir: string }).run_dir;
    const deadline = Date.now() + 30_000;
    let status = "";
    while (Date.now() < deadline) {
      status = existsSync(join(runDir, "status.json")) ? (JSON.parse(readFileSync(join(runDir, "status.json"), "utf8")) as { status: string }).status : "";
      if (status !== "running" && status !== "") break;
      await sleep(100);
    }
    expect(status).toBe("succeeded");
    expect(readFileSync(join(runDir, "stdout.log"), "utf8")).toContain("async done");
  }, 40_000);

  it("announces a recipe edited on disk and serves its new schema; a stale call is refused once", async () => {
    const seen = mcp.listChanged();
    agent.write("greet", { description: "Say hello loudly", template: "echo HELLO {who} {times:int}" });
    await mcp.nextListChanged(seen);
    // the client has not listed again: the call built from the old schema is refused with the new one
    const stale = await mcp.client.callTool({ name: "greet", arguments: { who: "x" } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('Tool "greet" changed since your last tools/list');
    expect(textOf(stale)).toContain('"times":{"description":"Int argument: times","type":"integer"}');
    // having been shown the new definition, the caller may retry
    const retried = await mcp.client.callTool({ name: "greet", arguments: { who: "x", times: 2 } });
    expect(textOf(retried)).toBe("HELLO x 2");
    const { tools } = await mcp.client.listTools();
    expect(toolNamed(tools, "greet")?.inputSchema.required).toEqual(["who", "times"]);
    expect(toolNamed(tools, "greet")?.description).toBe("Say hello loudly");
  });

  it("refuses a call to a recipe deleted on disk", async () => {
    const seen = mcp.listChanged();
    agent.remove("steps");
    await mcp.nextListChanged(seen);
    const result = await mcp.client.callTool({ name: "steps", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Tool "steps" is no longer registered (its recipe was deleted or renamed). List tools again.');
  });

  it("registers a tool through MCP, calls it, deletes it and refuses it afterwards", async () => {
    let seen = mcp.listChanged();
    const created = await mcp.client.callTool({
      name: "register_tool",
      arguments: { name: "shout", description: "Shout a word", template: "echo {word:string}!" },
    });
    expect(created.isError).toBeFalsy();
    await mcp.nextListChanged(seen);
    const { tools } = await mcp.client.listTools();
    expect(toolNamed(tools, "shout")?.inputSchema).toMatchObject({ required: ["word"] });
    expect(textOf(await mcp.client.callTool({ name: "shout", arguments: { word: "hey" } }))).toBe("hey!");
    expect(existsSync(join(agent.recipes, "shout.json"))).toBe(true);

    seen = mcp.listChanged();
    const deleted = await mcp.client.callTool({ name: "register_tool", arguments: { name: "shout", template: null } });
    expect(deleted.isError).toBeFalsy();
    await mcp.nextListChanged(seen);
    expect(existsSync(join(agent.recipes, "shout.json"))).toBe(false);
    const refused = await mcp.client.callTool({ name: "shout", arguments: { word: "hey" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('Tool "shout" is no longer registered (its recipe was deleted or renamed). List tools again.');
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).not.toContain("shout");
  });

  it("answers an unknown tool with the registry's reason", async () => {
    const result = await mcp.client.callTool({ name: "nope", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Unknown tool: nope\. Registered tools: /);
  });
});

describe("register_tool's listing with a regular file where the drafts folder should be", () => {
  it("names the drafts folder among its problems, as list does, instead of taking it for absent", async () => {
    const other = makeAgentDir();
    const drafts = join(other.recipes, "drafts");
    other.write("greet", { description: "Say hello", template: "echo hello {who}" });
    writeFileSync(drafts, "not a folder\n");
    const served = await connect(other);
    try {
      const listed = await served.client.callTool({ name: "register_tool", arguments: {} });
      expect(textOf(listed)).toBe(
        `Registered tools:\n- greet\n\nProblems (details: inspect target=recipes view=doctor):\n- Drafts folder ${drafts} could not be listed: ENOTDIR: not a directory, scandir '${drafts}'`,
      );
    } finally {
      await served.close();
      other.cleanup();
    }
  }, 60_000);

  it("a recipe root that is a file: the listing fails naming the root, as list does", async () => {
    const other = makeAgentDir();
    rmSync(other.recipes, { recursive: true });
    writeFileSync(other.recipes, "not a folder\n");
    const served = await connect(other);
    try {
      const listed = await served.client.callTool({ name: "register_tool", arguments: {} });
      expect(listed.isError).toBe(true);
      expect(textOf(listed).split("\n")[0]).toBe(`Recipe root ${other.recipes} could not be read: the tools it holds are not listed.`);
      expect(textOf(listed)).toContain(`\n- Failed to inspect recipe root ${other.recipes}: ENOTDIR: not a directory, scandir '${other.recipes}'`);
    } finally {
      await served.close();
      other.cleanup();
    }
  }, 60_000);
});
