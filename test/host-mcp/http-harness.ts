// Drives `pi-recipes mcp --http` as clients would: the server is the real CLI in its own process,
// the clients are the SDK's real Client over Streamable HTTP. Requests only ever go to 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { REPO, SERVER_ARGS, serverEnv, type AgentDir } from "./harness.js";

export interface HttpServer {
  readonly child: ChildProcess;
  /** the URL the server printed, rewritten to 127.0.0.1 when it listens on every interface */
  readonly url: URL;
  stderr(): string;
  /** SIGTERM, and the exit code */
  stop(): Promise<number | null>;
}

export async function startHttpServer(agent: AgentDir, args: readonly string[] = [], env: Readonly<Record<string, string>> = {}): Promise<HttpServer> {
  const child = spawn(process.execPath, [...SERVER_ARGS, "--http", "--port", "0", ...args], {
    cwd: REPO,
    env: { ...serverEnv(agent.dir), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m !== null) resolve(new URL(m[1]!.replace("0.0.0.0", "127.0.0.1")));
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${err}`)));
    setTimeout(() => reject(new Error(`server did not listen within 30 s:\n${err}`)), 30_000).unref();
  });
  return {
    child,
    url,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface HttpClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  listChanged(): number;
  /** resolves at the next list_changed after `seen` of them */
  nextListChanged(seen: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function connectHttp(url: URL, token?: string): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(url, token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "pi-recipes-http-test", version: "1.0.0" });
  let count = 0;
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    for (const w of waiters.splice(0)) w();
  });
  await client.connect(transport);
  return {
    client,
    transport,
    listChanged: () => count,
    async nextListChanged(seen, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (count <= seen) {
        if (Date.now() > deadline) throw new Error(`no tools/list_changed within ${timeoutMs} ms`);
        await new Promise<void>((done) => {
          waiters.push(done);
          setTimeout(done, 50);
        });
      }
    },
    close: () => client.close(),
  };
}

/** A raw POST of one JSON-RPC initialize request, to see what the server answers before any session. */
export function rawInitialize(url: URL, headers: Readonly<Record<string, string>> = {}, body?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body:
      body ??
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
}

export { REPO };
