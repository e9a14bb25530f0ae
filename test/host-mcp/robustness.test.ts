// What a misbehaving client cannot do to the server: garbage on stdin does not kill it (and a
// garbled request is answered, never left waiting), and a
// client that goes away in the middle of a call leaves no process and no damage behind.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { groupAlive, isAlive, waitUntil } from "../../adapters/process/group.js";
import { connect, makeAgentDir, REPO, SERVER_ARGS, serverEnv, textOf, type AgentDir } from "./harness.js";

let agent: AgentDir | undefined;
afterEach(() => {
  agent?.cleanup();
  agent = undefined;
});

/** The server over stdio, spoken to in raw lines: each reply parsed, its stderr kept. */
function rawServer(of: AgentDir) {
  const child = spawn(process.execPath, SERVER_ARGS, { cwd: REPO, env: serverEnv(of.dir), stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const replies: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => replies.push(JSON.parse(line) as Record<string, unknown>));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, replies, exited, stderr: (): string => err };
}

/** The server over stdio with tool `t` (`echo SAFE {name}`) listed by a raw client: `until`
 *  waits for a reply, `call(id)` is a call of `t` as one line. */
async function listedRaw(of: AgentDir) {
  of.write("t", { description: "safe", args: ["name"], template: "echo SAFE {name}" });
  const raw = rawServer(of);
  const { child, replies, stderr } = raw;
  const until = async (what: string, ok: () => boolean): Promise<void> => {
    expect(await waitUntil(ok, 20_000), `${what}; got ${JSON.stringify(replies).slice(0, 2000)}\n${stderr()}`).toBe(true);
  };
  const call = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: { name: "n" } } });
  child.stdin.write(
    [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    ].join("\n") + "\n",
  );
  await until("the list", () => replies.some((r) => r["id"] === 2));
  return { ...raw, until, call };
}

describe("pi-recipes mcp under bad input", () => {
  it("answers lines that are not JSON-RPC and invalid requests with errors, and keeps serving", async () => {
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

  it("answers each garbled line on stdout (parse error or invalid request, its id when it has one), skips invalid notifications, and goes on serving a real client", async () => {
    agent = makeAgentDir();
    agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
    agent.write("slow", { description: "Take a second", template: "sleep 1" });
    const { child, replies, exited, stderr } = rawServer(agent);
    const until = async (what: string, ok: () => boolean): Promise<void> => {
      expect(await waitUntil(ok, 20_000), `${what}; got ${JSON.stringify(replies)}\n${stderr()}`).toBe(true);
    };
    const send = (...lines: string[]): void => void child.stdin.write(lines.map((l) => `${l}\n`).join(""));

    send(
      "{not json",
      '{"jsonrpc":"2.0","id":5,"method":"tools/list"', // cut short: not JSON, so its id is not read
      '{"jsonrpc":"1.0","id":16,"method":"tools/list"}',
      '{"id":17,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"s","method":"ping","extra":true}',
      '{"jsonrpc":"2.0","id":18,"method":"tools/list","params":7}',
      '{"hello":"world"}',
      "42",
      '{"jsonrpc":"1.0","method":"notifications/initialized"}', // an invalid notification: no answer
      '{"jsonrpc":"2.0","id":99,"method":"ping"}',
    );
    await until("every garbled request is answered", () => replies.length >= 9);
    const errorOf = (id: unknown): unknown => replies.find((r) => r["id"] === id)?.["error"];
    expect(errorOf(16)).toEqual({ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0", got "1.0". Nothing was run.' });
    expect(errorOf(17)).toEqual({ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0", got none. Nothing was run.' });
    expect(errorOf("s")).toEqual({ code: -32600, message: 'Invalid Request: a request has no member "extra". Nothing was run.' });
    expect(errorOf(18)).toEqual({ code: -32600, message: 'Invalid Request: "params" must be an object, got a number. Nothing was run.' });
    expect(replies.find((r) => r["id"] === 99)).toEqual({ jsonrpc: "2.0", id: 99, result: {} });
    const unnamed = replies.filter((r) => r["id"] === null).map((r) => r["error"] as { code: number; message: string });
    expect(unnamed.map((e) => e.code)).toEqual([-32700, -32700, -32600, -32600]);
    expect(unnamed[0]!.message).toMatch(/^Parse error: Expected property name .*\. Nothing was run\.$/);
    expect(unnamed.slice(2).map((e) => e.message)).toEqual([
      'Invalid Request: "jsonrpc" must be "2.0", got none. Nothing was run.',
      "Invalid Request: a message must be a JSON object, got a number. Nothing was run.",
    ]);
    expect(replies.some((r) => r["id"] === 5)).toBe(false);
    for (const r of replies) expect(r["jsonrpc"]).toBe("2.0");
    // each is said on stderr too, the skipped notification as well
    expect(stderr()).toContain("protocol: Expected property name");
    expect(stderr()).toContain('protocol: "jsonrpc" must be "2.0", got "1.0" (request 16 answered with an error)');
    expect(stderr()).toContain('protocol: "jsonrpc" must be "2.0", got "1.0" (an invalid notification, skipped)');

    // the same server, the same stdin: the SDK's client connects and works, garbage in between
    const client = new Client({ name: "after-garbage", version: "1.0.0" });
    client.onerror = () => undefined; // the null-id answers are no message its schema reads
    await client.connect(new StdioServerTransport(child.stdout, child.stdin));
    send("{still not json");
    // a malformed response under the id of the client's call in flight (its first request after
    // initialize, id 1): a response is never answered, so the only answer under that id is the
    // call's own result
    const slow = client.callTool({ name: "slow", arguments: {} });
    send('{"jsonrpc":"2.0","id":1,"result":"not-an-object"}', '{"jsonrpc":"2.0","id":1,"error":"bad"}');
    expect((await slow).isError).not.toBe(true);
    expect(replies.filter((r) => r["id"] === 1)).toEqual([{ jsonrpc: "2.0", id: 1, result: expect.objectContaining({ content: expect.any(Array) }) }]);
    expect(stderr()).toContain('protocol: "result" must be an object, got a string (a response from the client, skipped: a response is never answered)');
    expect(stderr()).toContain('protocol: "error" must be an object, got a string (a response from the client, skipped: a response is never answered)');
    expect((await client.callTool({ name: "greet", arguments: { who: "after" } })).content).toEqual([{ type: "text", text: "hello after" }]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("greet");
    await until("the last garbled line is answered", () => replies.filter((r) => r["id"] === null).length === 5);
    await client.close();
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 40_000);

  it("a value too long for one command line: the call fails saying so, and the result does not carry the value back", async () => {
    agent = makeAgentDir();
    agent.write("strt", { description: "d", args: ["s"], template: "printf [%s]\\n -- {s}" });
    const mcp = await connect(agent);
    try {
      const result = await mcp.client.callTool({ name: "strt", arguments: { s: "a".repeat(200_000) } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Could not start "printf": the arguments are too long for one command line (200018 bytes in all, the longest argument 200000 bytes: one argument may hold at most 131071 bytes, 128 KiB with the NUL that ends it); pass large input on stdin or in a file instead',
      );
      const command = (result.structuredContent as { command: string }).command;
      expect(command).toMatch(/^printf '\[%s\]\\n' -- a+…\[198019 characters left out\]…a+$/);
      expect(JSON.stringify(result).length).toBeLessThan(5000);
      // the server goes on, and a short command is shown whole
      const short = await mcp.client.callTool({ name: "strt", arguments: { s: "b" } });
      expect(short.isError).toBeFalsy();
      expect((short.structuredContent as { command: string }).command).toBe("printf '[%s]\\n' -- b");
    } finally {
      await mcp.close();
    }
  }, 40_000);

  it("a megabyte value as the executable word: the failure to start names its start, cut as a command text is, and its length", async () => {
    agent = makeAgentDir();
    agent.write("run_it", { description: "d", args: ["x"], template: "{x}" });
    const mcp = await connect(agent);
    try {
      for (const value of ["a".repeat(1_000_000), `/no/such/dir/${"b".repeat(1_000_000)}`]) {
        const result = await mcp.client.callTool({ name: "run_it", arguments: { x: value } });
        expect(result.isError).toBe(true);
        const text = textOf(result);
        expect(text.startsWith(`Could not start "${value.slice(0, 1000)}`)).toBe(true);
        expect(text).toContain(`characters left out]…`);
        expect(text).toContain(`" (${value.length} characters): `);
        expect(text.length).toBeLessThan(5000);
        expect(JSON.stringify(result).length).toBeLessThan(10_000);
      }
    } finally {
      await mcp.close();
    }
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

  it("refuses a request under the id of a call still running, so that call is still stopped when the client goes", async () => {
    agent = makeAgentDir();
    const pidFile = join(agent.dir, "sleep.pid");
    agent.write("nap", { description: "Sleep long", args: ["n"], template: `sh -c 'echo $$ >> ${pidFile}; exec sleep 3{n}'` });
    const { child, replies, exited, stderr } = rawServer(agent);
    const call = (id: number, n: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "nap", arguments: { n: String(n) } } });
    // the two calls in one write: the second is read before the first has started
    child.stdin.write(
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        call(7, 1),
        call(7, 2),
        '{"jsonrpc":"2.0","id":7,"method":"tools/list"}',
      ].join("\n") + "\n",
    );
    expect(await waitUntil(() => replies.filter((r) => r["id"] === 7).length === 2, 20_000), replies.map((r) => JSON.stringify(r).slice(0, 160)).join("\n")).toBe(true);
    for (const reply of replies.filter((r) => r["id"] === 7))
      expect(reply).toMatchObject({ error: { code: -32600, message: "Invalid Request: id 7 is that of a tool call still running; give each request an id of its own. Nothing was run." } });
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000)).toBe(true);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(pids).toHaveLength(1);
    // the client goes: the server stops the one call it runs, and exits
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(groupAlive(pids[0]!)).toBe(false);
    expect(stderr()).toContain("protocol: request 7 (tools/call) reuses the id of a call still running, answered with an error");
  }, 60_000);

  it("calls sent together after an edit are each refused as changed (none runs the command the client was not shown); the retry runs", async () => {
    agent = makeAgentDir();
    const { child, replies, exited, until, call } = await listedRaw(agent);
    agent.write("t", { description: "other", args: ["name"], template: "echo DIFFERENT {name}" });
    // the server has read the edit (a call that comes before it is refused by the launch's own
    // source check, edges.test.ts)
    await until("the list_changed notification", () => replies.some((r) => r["method"] === "notifications/tools/list_changed"));
    // four calls in one write: made from the list the client has, all read before any answer
    child.stdin.write([call(10), call(11), call(12), call(13)].join("\n") + "\n");
    await until("four answers", () => [10, 11, 12, 13].every((id) => replies.some((r) => r["id"] === id)));
    for (const id of [10, 11, 12, 13]) {
      const text = JSON.stringify(replies.find((r) => r["id"] === id));
      expect(text, `call ${id}`).not.toContain("DIFFERENT n");
      expect(text, `call ${id}`).toContain("changed since your last tools/list");
    }
    // the retry, sent once the rejections were read
    child.stdin.write(call(14) + "\n");
    await until("the retry's answer", () => replies.some((r) => r["id"] === 14));
    expect(JSON.stringify(replies.find((r) => r["id"] === 14))).toContain("DIFFERENT n");
    // another edit; a list sent together with calls is the client's list only for later calls
    const seen = replies.filter((r) => r["method"] === "notifications/tools/list_changed").length;
    agent.write("t", { description: "newer", args: ["name"], template: "echo NEWER {name}" });
    await until("the second list_changed", () => replies.filter((r) => r["method"] === "notifications/tools/list_changed").length > seen);
    child.stdin.write([call(20), '{"jsonrpc":"2.0","id":21,"method":"tools/list"}', call(22)].join("\n") + "\n");
    await until("the answers with the list", () => [20, 21, 22].every((id) => replies.some((r) => r["id"] === id)));
    for (const id of [20, 22]) expect(JSON.stringify(replies.find((r) => r["id"] === id)), `call ${id}`).toContain("changed since your last tools/list");
    child.stdin.write(call(23) + "\n");
    await until("the call after the list", () => replies.some((r) => r["id"] === 23));
    expect(JSON.stringify(replies.find((r) => r["id"] === 23))).toContain("NEWER n");
    // (gone before its folder is removed: it may still be folding the launch it counted)
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);

  it("a rejection or a tools/list the client cancelled was never shown: the next call is refused again, not run", async () => {
    agent = makeAgentDir();
    const { child, replies, exited, until, call } = await listedRaw(agent);
    agent.write("t", { description: "other", args: ["name"], template: "echo DIFFERENT {name}" });
    await until("the list_changed notification", () => replies.some((r) => r["method"] === "notifications/tools/list_changed"));
    // the call and its cancellation in one write: read together, the call is cancelled before it
    // is answered, and the server sends no answer to it
    const cancel = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "timeout" } });
    // a ping read after them: once it is answered, the cancelled call has long been settled
    child.stdin.write([call(10), cancel, '{"jsonrpc":"2.0","id":99,"method":"ping"}'].join("\n") + "\n");
    await until("the ping's answer", () => replies.some((r) => r["id"] === 99));
    // the next call, made from the list the client still has, arriving after all of that
    child.stdin.write(call(11) + "\n");
    await until("the next call's answer", () => replies.some((r) => r["id"] === 11));
    expect(replies.some((r) => r["id"] === 10)).toBe(false);
    const next = JSON.stringify(replies.find((r) => r["id"] === 11));
    expect(next).not.toContain("DIFFERENT n");
    expect(next).toContain("changed since your last tools/list");
    // that rejection was answered: the retry runs
    child.stdin.write(call(12) + "\n");
    await until("the retry's answer", () => replies.some((r) => r["id"] === 12));
    expect(JSON.stringify(replies.find((r) => r["id"] === 12))).toContain("DIFFERENT n");
    // a tools/list the client cancelled was never its list either: after another edit, a call
    // made from the list it has is refused, not run
    const seen = replies.filter((r) => r["method"] === "notifications/tools/list_changed").length;
    agent.write("t", { description: "third", args: ["name"], template: "echo THIRD {name}" });
    await until("the second list_changed", () => replies.filter((r) => r["method"] === "notifications/tools/list_changed").length > seen);
    const cancelList = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 30 } });
    child.stdin.write(['{"jsonrpc":"2.0","id":30,"method":"tools/list"}', cancelList, '{"jsonrpc":"2.0","id":98,"method":"ping"}'].join("\n") + "\n");
    await until("the second ping's answer", () => replies.some((r) => r["id"] === 98));
    expect(replies.some((r) => r["id"] === 30)).toBe(false);
    child.stdin.write(call(31) + "\n");
    await until("the call after the cancelled list", () => replies.some((r) => r["id"] === 31));
    const afterList = JSON.stringify(replies.find((r) => r["id"] === 31));
    expect(afterList).not.toContain("THIRD n");
    expect(afterList).toContain("changed since your last tools/list");
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});
