// N concurrent MCP clients (N = 1, 8, 32), each making calls of a trivial recipe one after the
// other (40, 12 and 6 of them, so every row has enough samples and the whole stays under a
// minute): calls per second and p50/p99 latency over Streamable HTTP (one shared server, one
// session per client) against the same calls over stdio (one server process per client, which is
// what stdio means), and the server memory each client costs: the HTTP server's RSS growth per
// open session, against the RSS of a whole stdio server.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fmt } from "./stats.js";

const ROUNDS: readonly { readonly clients: number; readonly calls: number }[] = [
  { clients: 1, calls: 40 },
  { clients: 8, calls: 12 },
  { clients: 32, calls: 6 },
];

interface Round {
  readonly latencies: number[];
  readonly seconds: number;
}

/** Resident set size of a process in MiB (Linux /proc); NaN where that is not available. */
function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? NaN : Number(m[1]) / 1024;
  } catch {
    return NaN;
  }
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function round(clients: readonly Client[], calls: number): Promise<Round> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < calls; i++) {
        const start = performance.now();
        const result = await client.callTool({ name: "tick", arguments: {} });
        if (result.isError === true) throw new Error(`tick failed: ${JSON.stringify(result.content)}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - t0) / 1000 };
}

const line = (label: string, r: Round, memory: string): string =>
  `${label.padEnd(44)} ${`${((r.latencies.length / r.seconds) | 0).toString()} calls/s`.padStart(13)}  p50 ${fmt(quantile(r.latencies, 0.5)).padStart(9)}  p99 ${fmt(quantile(r.latencies, 0.99)).padStart(9)}  ${memory}`;

async function startHttp(cliPath: string, env: NodeJS.ProcessEnv): Promise<{ url: URL; pid: number | undefined; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, "mcp", "--http", "--port", "0", "--max-calls", "256"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m !== null) resolve(new URL(m[1]!));
    });
    child.on("exit", (code) => reject(new Error(`mcp --http exited (${code}):\n${err}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function connectAll(n: number, transport: () => StdioClientTransport | StreamableHTTPClientTransport): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = new Client({ name: "bench", version: "1" });
      await client.connect(transport());
      await client.listTools();
      return client;
    }),
  );
}

export async function benchMcpHttp(baseDir: string, cliPath: string): Promise<string[]> {
  const agentDir = join(baseDir, "mcp-http-agent");
  mkdirSync(join(agentDir, "recipes"), { recursive: true });
  writeFileSync(join(agentDir, "recipes", "tick.json"), JSON.stringify({ description: "A trivial call", template: "echo tick" }));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env["PI_CODING_AGENT_DIR"] = agentDir;
  const out: string[] = ["mcp: N clients at once, each calling a trivial recipe in turn; http = one server with a session per client, stdio = a server process per client"];

  const http = await startHttp(cliPath, env);
  try {
    // warm the server (module loading, first spawn) before measuring anything
    const [warm] = await connectAll(1, () => new StreamableHTTPClientTransport(http.url));
    await round([warm!], 10);
    await warm!.close();
    for (const { clients: n, calls } of ROUNDS) {
      const before = rssMiB(http.pid);
      const clients = await connectAll(n, () => new StreamableHTTPClientTransport(http.url));
      const perSession = (rssMiB(http.pid) - before) / n;
      const r = await round(clients, calls);
      await Promise.all(clients.map(async (c) => {
        await (c.transport as StreamableHTTPClientTransport).terminateSession();
        await c.close();
      }));
      out.push(line(`mcp http, ${n} client(s) x ${calls} calls`, r, `rss +${perSession.toFixed(2)} MiB/session (server ${rssMiB(http.pid).toFixed(0)} MiB)`));
    }
  } finally {
    await http.stop();
  }

  for (const { clients: n, calls } of ROUNDS) {
    const transports: StdioClientTransport[] = [];
    const clients = await connectAll(n, () => {
      const t = new StdioClientTransport({ command: process.execPath, args: [cliPath, "mcp"], env, stderr: "ignore" });
      transports.push(t);
      return t;
    });
    const rss = transports.map((t) => rssMiB(t.pid ?? undefined)).reduce((a, b) => a + b, 0) / n;
    const r = await round(clients, calls);
    await Promise.all(clients.map((c) => c.close()));
    out.push(line(`mcp stdio, ${n} client(s) x ${calls} calls`, r, `rss ${rss.toFixed(0)} MiB/client (a server process each)`));
  }
  return out;
}
