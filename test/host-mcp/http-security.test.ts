// What `pi-recipes mcp --http` refuses: binds beyond loopback without a token, requests without
// the token, foreign Host and Origin headers, oversized bodies, and calls over the limit.
// Every request goes to 127.0.0.1, also when the server listens on 0.0.0.0.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { makeAgentDir, REPO, SERVER_ARGS, serverEnv, textOf, type AgentDir } from "./harness.js";
import { connectHttp, rawInitialize, startHttpServer, type HttpServer } from "./http-harness.js";
import { groupAlive, waitUntil } from "../../adapters/process/group.js";

const TOKEN = "0123456789abcdef0123456789abcdef-test-token";

let agent: AgentDir | undefined;
let server: HttpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  agent?.cleanup();
  agent = undefined;
});

interface Raw {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request with exactly these headers (Host included), to 127.0.0.1; `reused`: whether it
 *  went over a connection an earlier request left open (through `via`, an agent that keeps them). */
function raw(url: URL, method: string, headers: Record<string, string>, body?: string, via?: Agent): Promise<Raw & { readonly reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: Number(url.port), path: url.pathname, method, headers, ...(via === undefined ? {} : { agent: via }) }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers, reused: req.reusedSocket }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

function runCli(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVER_ARGS, ...args], { cwd: REPO, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("pi-recipes mcp --http connections", () => {
  it("keeps an idle connection longer than the idle time it announces, and past node's 5 s default", async () => {
    agent = makeAgentDir();
    server = await startHttpServer(agent);
    const keep = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const host = { Host: `127.0.0.1:${server.url.port}`, ...MCP_HEADERS };
      const first = await raw(server.url, "POST", host, initialize, keep);
      expect(first.status).toBe(200);
      expect(first.headers["keep-alive"]).toBe("timeout=60");
      // node's agent keeps the connection until the server closes it; a server that had closed it
      // by now would make the next request open another
      await new Promise((r) => setTimeout(r, 6_000));
      const second = await raw(server.url, "POST", host, initialize, keep);
      expect({ status: second.status, reused: second.reused }).toEqual({ status: 200, reused: true });
    } finally {
      keep.destroy();
    }
  }, 60_000);
});

describe("pi-recipes mcp --http security", () => {
  it("refuses to bind beyond loopback without a token, and never takes the token as an argument", async () => {
    agent = makeAgentDir();
    const bare = await runCli(["--http", "--host", "0.0.0.0", "--port", "0"], serverEnv(agent.dir));
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("refusing to listen on 0.0.0.0 without a token");
    expect(bare.stderr).not.toContain("listening on");
    const argued = await runCli(["--http", "--token", TOKEN], serverEnv(agent.dir));
    expect(argued.code).toBe(2);
    expect(argued.stderr).toContain("never pass the token on the command line");
    const short = await runCli(["--http", "--port", "0"], { ...serverEnv(agent.dir), PI_RECIPES_MCP_TOKEN: "short" });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 32 characters");
  }, 60_000);

  it("bound to 0.0.0.0 with a token: requests without it or with a wrong one get 401 and run nothing", async () => {
    agent = makeAgentDir();
    const marker = join(agent.dir, "ran");
    agent.write("touch_it", { description: "Leave a mark", template: `touch ${marker}` });
    server = await startHttpServer(agent, ["--host", "0.0.0.0"], { PI_RECIPES_MCP_TOKEN: TOKEN });
    expect(server.stderr()).toContain("listening on http://0.0.0.0:");
    expect(server.stderr()).toContain("bearer token required");

    const none = await raw(server.url, "POST", MCP_HEADERS, initialize);
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.headers["mcp-session-id"]).toBeUndefined();
    const wrong = await raw(server.url, "POST", { ...MCP_HEADERS, Authorization: `Bearer ${TOKEN}x` }, initialize);
    expect(wrong.status).toBe(401);
    await expect(connectHttp(server.url)).rejects.toThrow(/401|Unauthorized/);

    // a client with the token gets a session; its session id alone is not enough to call
    const ok = await connectHttp(server.url, TOKEN);
    try {
      expect((await ok.client.listTools()).tools.map((t) => t.name)).toContain("touch_it");
      const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "touch_it", arguments: {} } });
      const stolen = await raw(server.url, "POST", { ...MCP_HEADERS, "Mcp-Session-Id": ok.transport.sessionId!, "Mcp-Protocol-Version": "2025-06-18" }, call);
      expect(stolen.status).toBe(401);
      expect(existsSync(marker)).toBe(false);
      expect((await ok.client.callTool({ name: "touch_it", arguments: {} })).isError).toBeFalsy();
      expect(existsSync(marker)).toBe(true);
    } finally {
      await ok.close();
    }
  }, 60_000);

  it("a recipe that prints its environment never sees the token nor the token file's name", async () => {
    agent = makeAgentDir();
    agent.write("envdump", { description: "Print the environment", template: "env" });
    const file = join(agent.dir, "token");
    writeFileSync(file, `${TOKEN}\n`);
    chmodSync(file, 0o600);
    for (const env of [{ PI_RECIPES_MCP_TOKEN: TOKEN }, { PI_RECIPES_MCP_TOKEN_FILE: file }]) {
      server = await startHttpServer(agent, [], env);
      const ok = await connectHttp(server.url, TOKEN);
      try {
        const printed = textOf(await ok.client.callTool({ name: "envdump", arguments: {} }));
        // the rest of the environment is passed on as before
        expect(printed).toContain(`PI_CODING_AGENT_DIR=${agent.dir}`);
        expect(printed).not.toContain(TOKEN);
        expect(printed).not.toContain("PI_RECIPES_MCP_TOKEN");
      } finally {
        await ok.close();
      }
      await server.stop();
      server = undefined;
    }
  }, 60_000);

  it("reads the token from a file, and requires it on loopback too once configured", async () => {
    agent = makeAgentDir();
    agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
    const file = join(agent.dir, "token");
    writeFileSync(file, `${TOKEN}\n`);
    chmodSync(file, 0o600);
    server = await startHttpServer(agent, ["--token-file", file]);
    expect((await raw(server.url, "POST", MCP_HEADERS, initialize)).status).toBe(401);
    const ok = await connectHttp(server.url, TOKEN);
    try {
      expect(textOf(await ok.client.callTool({ name: "greet", arguments: { who: "file" } }))).toBe("hello file");
    } finally {
      await ok.close();
    }
  }, 60_000);

  it("hides the token file from every sandboxed call: a confined command cannot read it and call the server itself", async () => {
    agent = makeAgentDir();
    // outside /tmp, which every sandbox already replaces
    const secrets = mkdtempSync(join("/var/tmp", "pi-recipes-token-"));
    try {
      const file = join(secrets, "token");
      writeFileSync(file, `${TOKEN}\n`);
      chmodSync(file, 0o600);
      agent.write("peek", { description: "read a file", sandbox: true, args: ["file:path"], template: "cat {file}" });
      agent.write("peek_open", { description: "read a file", sandbox: false, args: ["file:path"], template: "cat {file}" });
      server = await startHttpServer(agent, ["--token-file", file]);
      const ok = await connectHttp(server.url, TOKEN);
      try {
        expect(textOf(await ok.client.callTool({ name: "peek_open", arguments: { file } }))).toContain(TOKEN);
        const confined = await ok.client.callTool({ name: "peek", arguments: { file } });
        expect(confined.isError).toBe(true);
        expect(textOf(confined)).not.toContain(TOKEN);
      } finally {
        await ok.close();
      }
    } finally {
      rmSync(secrets, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses foreign Host and Origin headers, proxied requests without a token, and oversized bodies", async () => {
    agent = makeAgentDir();
    server = await startHttpServer(agent, ["--max-body-bytes", "2048"]);
    const port = server.url.port;
    const rebound = await raw(server.url, "POST", { ...MCP_HEADERS, Host: `evil.example:${port}` }, initialize);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("DNS rebinding");
    const page = await raw(server.url, "POST", { ...MCP_HEADERS, Host: `127.0.0.1:${port}`, Origin: "https://evil.example" }, initialize);
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body)).toMatchObject({ error: { message: 'Forbidden: Origin "https://evil.example" is not allowed (see --allowed-origin)' } });
    // any header a proxy adds marks the request, alone: nginx is often set to send only X-Real-IP
    const proxyHeaders = {
      "X-Forwarded-For": "203.0.113.7",
      "X-Forwarded-Host": "evil.example",
      "X-Forwarded-Proto": "https",
      "X-Real-IP": "203.0.113.7",
      Forwarded: "for=203.0.113.7",
      Via: "1.1 proxy",
      "X-Client-IP": "203.0.113.7",
      "CF-Connecting-IP": "203.0.113.7",
      "True-Client-IP": "203.0.113.7",
    };
    for (const [name, value] of Object.entries(proxyHeaders)) {
      const proxied = await raw(server.url, "POST", { ...MCP_HEADERS, [name]: value }, initialize);
      expect({ name, status: proxied.status }).toEqual({ name, status: 401 });
      expect(proxied.body).toContain("this request came through a proxy");
    }
    const local = await raw(server.url, "POST", { ...MCP_HEADERS, Host: `localhost:${port}`, Origin: "http://localhost:3000" }, initialize);
    expect(local.status).toBe(200);
    expect(local.headers["mcp-session-id"]).toBeDefined();

    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(4096) } });
    const refused = await raw(server.url, "POST", MCP_HEADERS, big);
    expect(refused.status).toBe(413);
    expect(refused.body).toContain("request body over 2048 bytes");
  }, 60_000);

  it("bounds the open sessions; an initialize the transport refused holds none", async () => {
    agent = makeAgentDir();
    server = await startHttpServer(agent, ["--max-sessions", "1"]);
    const refused = await raw(server.url, "POST", { "Content-Type": "application/json", Accept: "application/json" }, initialize);
    expect(refused.status).toBe(406);
    const first = await connectHttp(server.url);
    try {
      await expect(connectHttp(server.url)).rejects.toThrow(/1 sessions are open, the most this server holds/);
    } finally {
      await first.transport.terminateSession();
      await first.close();
    }
    const again = await connectHttp(server.url);
    await again.close();
  }, 60_000);

  it("a batch of more calls than the limit is refused as too large, never 'busy, retry'", async () => {
    agent = makeAgentDir();
    const marker = join(agent.dir, "ran");
    agent.write("mark", { description: "Mark", template: `touch ${marker}` });
    server = await startHttpServer(agent, ["--max-calls", "2"]);
    const init = await rawInitialize(server.url);
    const sid = init.headers.get("mcp-session-id");
    expect(sid).not.toBeNull();
    await init.text();
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "mark", arguments: {} } });
    const r = await rawInitialize(server.url, { "Mcp-Session-Id": sid!, "Mcp-Protocol-Version": "2025-06-18" }, JSON.stringify([call(2), call(3), call(4)]));
    expect(r.status).toBe(413);
    expect(r.headers.get("retry-after")).toBeNull();
    expect(await r.json()).toMatchObject({ error: { message: "The batch holds 3 tool calls, more than the 2 this server runs at once. Nothing was run; send fewer at a time." } });
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("bounds the calls running at once: one over the limit is refused with a clear error and not run", async () => {
    agent = makeAgentDir();
    const pidFile = join(agent.dir, "nap.pid");
    agent.write("nap", { description: "Nap a little", template: `sh -c 'echo $$ >> ${pidFile}; sleep 2'` });
    server = await startHttpServer(agent, ["--max-calls", "1"]);
    const first = await connectHttp(server.url);
    const second = await connectHttp(server.url);
    try {
      const running = first.client.callTool({ name: "nap", arguments: {} });
      for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
      const busy = await second.client.callTool({ name: "nap", arguments: {} });
      expect(busy.isError).toBe(true);
      expect(textOf(busy)).toBe("The server is busy: 1 tool call is running, and it runs at most 1 at once. Nothing was run; retry in a moment.");
      expect((await running).isError).toBeFalsy();
      // the slot is free again
      expect((await second.client.callTool({ name: "nap", arguments: {} })).isError).toBeFalsy();
      expect(readFileSync(pidFile, "utf8").trim().split("\n")).toHaveLength(2);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);

  /** A server running one call at a time, with `long` (each run's pid appended to the file
   *  returned) and `tick`. */
  async function oneCallServer(): Promise<{ pidFile: string; url: URL }> {
    agent = makeAgentDir();
    const pidFile = join(agent.dir, "long.pid");
    agent.write("long", { description: "Sleep long", template: `sh -c 'echo $$ >> ${pidFile}; exec sleep 60'` });
    agent.write("tick", { description: "A trivial call", template: "echo tick" });
    server = await startHttpServer(agent, ["--max-calls", "1"]);
    return { pidFile, url: server.url };
  }

  it("a call the client cancelled (its request timeout) gives its place back once its process is gone", async () => {
    const { pidFile, url } = await oneCallServer();
    const impatient = await connectHttp(url);
    const other = await connectHttp(url);
    try {
      // the SDK client sends notifications/cancelled when its timeout passes
      for (let i = 0; i < 2; i++) {
        await expect(impatient.client.callTool({ name: "long", arguments: {} }, undefined, { timeout: 1500 })).rejects.toThrow(/timed out/i);
        const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
        expect(await waitUntil(() => !groupAlive(pids[pids.length - 1]!), 10_000)).toBe(true);
      }
      // the impatient client is still connected; another gets the one place once the cancelled call
      // has ended (its accounting after its process), not only once the impatient client goes
      let answer = "";
      const deadline = Date.now() + 10_000;
      while (answer !== "tick" && Date.now() < deadline) {
        answer = textOf(await other.client.callTool({ name: "tick", arguments: {} }));
        if (answer !== "tick") await new Promise((r) => setTimeout(r, 100));
      }
      expect(answer).toBe("tick");
    } finally {
      await impatient.close();
      await other.close();
    }
  }, 60_000);

  it("a request reusing the id of one of its session still running is refused, and the first stays stoppable and counted", async () => {
    const { pidFile, url } = await oneCallServer();
    const init = await rawInitialize(url);
    const sid = init.headers.get("mcp-session-id")!;
    await init.text();
    const headers = { "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18" };
    await (await rawInitialize(url, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).text();
    const call = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "long", arguments: {} } });
    const first = rawInitialize(url, headers, call);
    void first.catch(() => undefined);
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000)).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    const again = await rawInitialize(url, headers, call);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: -32600, message: "Invalid Request: id 5 is that of a request of this session still open; give each request an id of its own. Nothing was run." } });
    expect(readFileSync(pidFile, "utf8").trim().split("\n")).toHaveLength(1);
    // ending the session still stops the first call
    const ended = await fetch(url, { method: "DELETE", headers });
    expect(ended.status).toBe(200);
    expect(await waitUntil(() => !groupAlive(pid), 10_000)).toBe(true);
    expect(await (await first).text()).toContain("The session was ended by the client (DELETE)");
  }, 60_000);
});
