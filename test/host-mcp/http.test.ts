// `pi-recipes mcp --http` end to end: the SDK's real client over Streamable HTTP against the CLI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cliNodeArgs } from "../support/cli.js";
import { makeAgentDir, REPO, serverEnv, sleep, textOf, type AgentDir } from "./harness.js";
import { connectHttp, startHttpServer, type HttpClient, type HttpServer } from "./http-harness.js";

const run = promisify(execFile);

let agent: AgentDir;
let server: HttpServer;
let a: HttpClient;
let b: HttpClient;

beforeAll(async () => {
  agent = makeAgentDir();
  agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
  agent.write("later", { description: "An async run", async: true, template: "echo async {word}" });
  server = await startHttpServer(agent);
  a = await connectHttp(server.url);
  b = await connectHttp(server.url);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  expect(await server?.stop()).toBe(0);
  agent?.cleanup();
});

describe("pi-recipes mcp --http", () => {
  it("prints the loopback URL it bound, with the port it picked", () => {
    expect(server.url.hostname).toBe("127.0.0.1");
    expect(Number(server.url.port)).toBeGreaterThan(0);
    expect(server.url.pathname).toBe("/mcp");
    expect(server.stderr()).toContain("no token: loopback clients only");
  });

  it("gives each client its own session and lists the same tools to both", async () => {
    expect(a.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(a.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const names = ["register_tool", "inspect", "message", "greet", "later"];
    expect((await a.client.listTools()).tools.map((t) => t.name)).toEqual(names);
    expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(names);
  });

  it("calls a recipe and returns its output", async () => {
    const result = await a.client.callTool({ name: "greet", arguments: { who: "http" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("hello http");
  });

  it("announces an edit to both sessions, and gates stale calls per session", async () => {
    const seenA = a.listChanged();
    const seenB = b.listChanged();
    agent.write("greet", { description: "Say hello twice", template: "echo hello {who} {who}" });
    await Promise.all([a.nextListChanged(seenA), b.nextListChanged(seenB)]);

    const staleA = await a.client.callTool({ name: "greet", arguments: { who: "x" } });
    expect(staleA.isError).toBe(true);
    expect(textOf(staleA)).toContain('Tool "greet" changed since your last tools/list');
    expect(textOf(await a.client.callTool({ name: "greet", arguments: { who: "x" } }))).toBe("hello x x");
    // what session a was shown says nothing about what session b has seen
    const staleB = await b.client.callTool({ name: "greet", arguments: { who: "y" } });
    expect(staleB.isError).toBe(true);
    await b.client.listTools();
    expect(textOf(await b.client.callTool({ name: "greet", arguments: { who: "y" } }))).toBe("hello y y");
  });

  it("shows an async run to the session that started it and to the operator's CLI", async () => {
    const started = await a.client.callTool({ name: "later", arguments: { word: "done", run_id: "http-run-1" } });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ run_id: "http-run-1", async: true });
    const runDir = (started.structuredContent as { run_dir: string }).run_dir;
    const status = join(runDir, "status.json");
    for (let i = 0; i < 300 && !(existsSync(status) && readFileSync(status, "utf8").includes("succeeded")); i++) await sleep(100);

    const seen = await a.client.callTool({ name: "inspect", arguments: { target: "run:http-run-1", view: "tail" } });
    expect(seen.isError).toBeFalsy();
    expect(textOf(seen)).toContain("async done");
    const cli = await run(process.execPath, [...cliNodeArgs(), "inspect", "target=run:http-run-1"], {
      cwd: REPO,
      env: serverEnv(agent.dir),
    });
    expect(cli.stdout).toContain("http-run-1");
    expect(cli.stdout).toContain("succeeded");
  }, 60_000);

  it("counts every launch from every session in the one ledger", async () => {
    const before = await usageOf("greet");
    await Promise.all([a.client.callTool({ name: "greet", arguments: { who: "1" } }), b.client.callTool({ name: "greet", arguments: { who: "2" } })]);
    expect(await usageOf("greet")).toBe(before + 2);
  });

  it("ends a session on DELETE and answers 404 for it afterwards", async () => {
    const c = await connectHttp(server.url);
    const id = c.transport.sessionId!;
    await c.transport.terminateSession();
    await c.close();
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });
});

async function usageOf(tool: string): Promise<number> {
  const result = await a.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "summary", verbose: true } });
  const details = JSON.parse(textOf(result)) as { active: { id: string; usage?: { lifetime_calls: number } }[] };
  return details.active.find((x) => x.id === tool)?.usage?.lifetime_calls ?? 0;
}
