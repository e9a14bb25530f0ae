// What a misbehaving client cannot do to the server: garbage on stdin does not kill it, and a
// client that goes away in the middle of a call leaves no process and no damage behind.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { groupAlive, isAlive, waitUntil } from "../../adapters/process/group.js";
import { connect, makeAgentDir, REPO, SERVER_ARGS, serverEnv, type AgentDir } from "./harness.js";

let agent: AgentDir | undefined;
afterEach(() => {
  agent?.cleanup();
  agent = undefined;
});

describe("pi-recipes mcp under bad input", () => {
  it("skips lines that are not JSON-RPC, answers invalid requests with errors, and keeps serving", async () => {
    agent = makeAgentDir();
    const recipe = { description: "Say hello", template: "echo hello {who}" };
    const recipePath = agent.write("greet", recipe);
    const child = spawn(process.execPath, SERVER_ARGS, { cwd: REPO, env: serverEnv(agent.dir), stdio: ["pipe", "pipe", "pipe"] });
    const answers = new Map<unknown, Record<string, unknown>>();
    const lines: string[] = [];
    let waiting: (() => void) | undefined;
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      const msg = JSON.parse(line) as Record<string, unknown>;
      if ("id" in msg) answers.set(msg["id"], msg);
      waiting?.();
    });
    const answer = async (id: number): Promise<Record<string, unknown>> => {
      const deadline = Date.now() + 20_000;
      while (!answers.has(id)) {
        if (Date.now() > deadline) throw new Error(`no answer to ${id}; got ${lines.join("\n")}`);
        await new Promise<void>((r) => {
          waiting = r;
          setTimeout(r, 50);
        });
      }
      return answers.get(id)!;
    };
    const send = (text: string): void => void child.stdin.write(text + "\n");
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));

    send("this is not json");
    // a call before initialize is refused, not run
    send('{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"greet","arguments":{"who":"early"}}}');
    expect(await answer(0)).toMatchObject({ error: { code: -32600, message: "Not initialized: send initialize before tools/call. Nothing was run." } });
    send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
    expect(await answer(1)).toMatchObject({ result: { capabilities: { tools: { listChanged: true } } } });
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    send('{"jsonrpc":"2.0","id":2,'); // truncated
    send('{"hello":"world"}'); // JSON, not JSON-RPC
    send("\u0000\u00ff garbage \ud800");
    send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":42}}');
    // malformed params are "Invalid params", never an internal error
    expect(await answer(3)).toMatchObject({ error: { code: -32602, message: expect.stringContaining("name") } });
    send('{"jsonrpc":"2.0","id":4,"method":"no/such/method"}');
    expect(await answer(4)).toMatchObject({ error: { code: -32601 } });
    send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"greet","arguments":"not an object"}}');
    expect(await answer(5)).toMatchObject({ error: { code: -32602, message: expect.stringContaining("arguments") } });
    send('{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"cursor":5}}');
    expect(await answer(11)).toMatchObject({ error: { code: -32602, message: "Invalid params for tools/list: params.cursor: Invalid input: expected string, received number" } });
    // a batch (MCP sends none): each request in it answered with an error, none run
    send('[{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"greet","arguments":{"who":"batched"}}},{"jsonrpc":"2.0","id":13,"method":"tools/list"}]');
    for (const id of [12, 13]) expect(await answer(id)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/^Batch requests are not supported/) } });
    send('{"jsonrpc":"2.0","id":6,"method":"tools/list"}');
    const listed = (await answer(6))["result"] as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(["register_tool", "inspect", "message", "greet"]);
    send('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":{"who":"raw"}}}');
    expect(((await answer(7))["result"] as { content: { text: string }[] }).content[0]?.text).toBe("hello raw");

    // a message over the stdio limit (the SDK's transport closed the connection past 10 MiB):
    // refused with an error naming its size, its call never run, and the server goes on
    const huge = "x".repeat(11 * 1024 * 1024);
    send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"greet","arguments":{"who":"${huge}"}}}`);
    expect(await answer(8)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/^Request too large: \d+ bytes, over the limit of 8388608 bytes/) } });
    // one whose id cannot be told is skipped without an answer
    send(`{"method":"tools/call","params":{"name":"greet","arguments":{"who":"${huge}"}},"jsonrpc":"2.0","id":9}`);
    send('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"greet","arguments":{"who":"after"}}}');
    expect(((await answer(10))["result"] as { content: { text: string }[] }).content[0]?.text).toBe("hello after");
    expect(answers.has(9)).toBe(false);

    expect(answers.has(2)).toBe(false);
    expect(lines.join("\n")).not.toContain("hello early");
    expect(lines.join("\n")).not.toContain("hello batched");
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(readFileSync(recipePath, "utf8")).toBe(JSON.stringify(recipe, null, 2));
  }, 40_000);

  it("ends, with the call's process group, when the client disconnects mid-call", async () => {
    agent = makeAgentDir();
    const pidFile = join(agent.dir, "sleep.pid");
    agent.write("nap", { description: "Sleep a long time", template: `sh -c 'echo $$ > ${pidFile}; exec sleep 30'` });
    const mcp = await connect(agent);
    const serverPid = mcp.transport.pid!;
    expect(isAlive(serverPid)).toBe(true);
    const call = mcp.client.callTool({ name: "nap", arguments: {} }).then(
      () => "answered",
      (e: unknown) => String(e),
    );
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000)).toBe(true);
    const sleepPid = Number(readFileSync(pidFile, "utf8").trim());
    expect(groupAlive(sleepPid)).toBe(true);

    await mcp.close();
    expect(await call).toMatch(/Connection closed/);
    expect(await waitUntil(() => !isAlive(serverPid), 10_000)).toBe(true);
    expect(await waitUntil(() => !groupAlive(sleepPid), 10_000)).toBe(true);
    expect(mcp.stderr()).toContain("stopping: stdin closed");

    // the registry is as it was: a new server serves the same tool set
    const again = await connect(agent);
    try {
      expect((await again.client.listTools()).tools.map((t) => t.name)).toEqual(["register_tool", "inspect", "message", "nap"]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
