// Many clients on one `pi-recipes mcp --http`: a client that goes away mid-call leaves no process
// behind (the server keeps serving the others), and launches from many sessions at once are
// counted exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { groupAlive, isAlive, waitUntil } from "../../adapters/process/group.js";
import { makeAgentDir, textOf, type AgentDir } from "./harness.js";
import { connectHttp, startHttpServer, type HttpClient, type HttpServer } from "./http-harness.js";

let agent: AgentDir;
let server: HttpServer;
let pidFile: string;

beforeAll(async () => {
  agent = makeAgentDir();
  pidFile = join(agent.dir, "sleep.pid");
  agent.write("nap", { description: "Sleep a long time", template: `sh -c 'echo $$ > ${pidFile}; exec sleep 30'` });
  agent.write("tick", { description: "A trivial call", template: "echo tick {n:int}" });
  server = await startHttpServer(agent);
}, 60_000);

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  agent?.cleanup();
});

/** Starts a long call and answers the pid of its process once it runs. */
async function napping(client: HttpClient): Promise<{ sleepPid: number; call: Promise<string> }> {
  rmSync(pidFile, { force: true });
  const call = client.client.callTool({ name: "nap", arguments: {} }).then(
    () => "answered",
    (e: unknown) => String(e),
  );
  expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000)).toBe(true);
  const sleepPid = Number(readFileSync(pidFile, "utf8").trim());
  expect(groupAlive(sleepPid)).toBe(true);
  return { sleepPid, call };
}

async function stillServes(): Promise<void> {
  const other = await connectHttp(server.url);
  try {
    expect(textOf(await other.client.callTool({ name: "tick", arguments: { n: 1 } }))).toBe("tick 1");
  } finally {
    await other.close();
  }
}

describe("pi-recipes mcp --http with clients that leave", () => {
  it("kills a call's process group when its client drops the connection mid-call", async () => {
    const client = await connectHttp(server.url);
    const { sleepPid, call } = await napping(client);
    await client.close(); // aborts the open requests: the TCP connections drop, no DELETE is sent
    expect(await call).toMatch(/closed|abort/i);
    expect(await waitUntil(() => !groupAlive(sleepPid), 10_000)).toBe(true);
    expect(isAlive(server.child.pid!)).toBe(true);
    await stillServes();
  }, 60_000);

  it("kills a call's process group when its client ends the session (DELETE) mid-call", async () => {
    const client = await connectHttp(server.url);
    const { sleepPid, call } = await napping(client);
    const id = client.transport.sessionId!;
    await client.transport.terminateSession();
    expect(await waitUntil(() => !groupAlive(sleepPid), 10_000)).toBe(true);
    // the call is answered, before and without the client closing its side
    expect(await call).toContain("The session was ended by the client (DELETE); the call was stopped.");
    await client.close();
    const closed = new RegExp(`session ${id.slice(0, 8)} closed: closed by the client`);
    expect(await waitUntil(() => closed.test(server.stderr()), 10_000)).toBe(true);
    // said once, with its reason
    expect(server.stderr().match(new RegExp(`session ${id.slice(0, 8)} closed`, "g"))).toHaveLength(1);
    await stillServes();
  }, 60_000);

  it("closes a session its client left without DELETE once it has been idle", async () => {
    const idle = await startHttpServer(agent, ["--idle-timeout", "1"]);
    try {
      const client = await connectHttp(idle.url);
      const id = client.transport.sessionId!;
      await client.close(); // no DELETE: the server only sees the connections end
      const closed = new RegExp(`session ${id.slice(0, 8)} closed: idle`);
      expect(await waitUntil(() => closed.test(idle.stderr()), 15_000)).toBe(true);
      // one line with the true reason (closing the session's server used to log a second close,
      // first and wrongly as the client's)
      expect(idle.stderr().match(new RegExp(`session ${id.slice(0, 8)} closed`, "g"))).toHaveLength(1);
    } finally {
      expect(await idle.stop()).toBe(0);
    }
  }, 60_000);

  it("on SIGTERM aborts the calls in progress, waits for their processes and exits 0", async () => {
    const own = await startHttpServer(agent);
    const client = await connectHttp(own.url);
    const { sleepPid, call } = await napping(client);
    expect(await own.stop()).toBe(0);
    expect(groupAlive(sleepPid)).toBe(false);
    expect(own.stderr()).toContain("stopping: SIGTERM");
    expect(await call).toContain("The pi-recipes server is stopping; the call was stopped.");
    await client.close();
  }, 60_000);

  it("counts 32 concurrent clients × 20 calls exactly", async () => {
    const CLIENTS = 32;
    const CALLS = 20;
    const before = await usageOf("tick");
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(server.url)));
    try {
      const answers = await Promise.all(
        clients.map(async (c, i) => {
          const texts: string[] = [];
          for (let k = 0; k < CALLS; k++) texts.push(textOf(await c.client.callTool({ name: "tick", arguments: { n: i * CALLS + k } })));
          return texts;
        }),
      );
      expect(answers.flat().sort()).toEqual(Array.from({ length: CLIENTS * CALLS }, (_, n) => `tick ${n}`).sort());
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect(await usageOf("tick")).toBe(before + CLIENTS * CALLS);
  }, 180_000);
});

async function usageOf(tool: string): Promise<number> {
  const client = await connectHttp(server.url);
  try {
    const result = await client.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "summary", verbose: true } });
    const details = JSON.parse(textOf(result)) as { active: { id: string; usage?: { lifetime_calls: number } }[] };
    return details.active.find((x) => x.id === tool)?.usage?.lifetime_calls ?? 0;
  } finally {
    await client.close();
  }
}
