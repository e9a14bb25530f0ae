// One launch path for every host: a launch through the CLI, the Pi host (a real Pi session through
// the SDK) and the MCP host (the SDK's real client) reads the recipe file no more than it must:
// the read that compiled the tool (the CLI's discovery, the Pi host's per-call refresh; none for
// MCP, whose watcher already read it) and the ledger's one source check. The source digest
// travels on the tool, so nothing is read again to account the launch. And an MCP session, once
// closed, leaves folded, exact ledgers behind.
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as nodeFs from "node:fs";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeScanPort, type ScanPort } from "../../adapters/fs/scan.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { lockRootOf } from "../../runtime/agent-paths.js";
import type { Watcher } from "../../adapters/watch/Watcher.js";
import { callIn } from "../../host-cli/verbs/call-command.js";
import { createRecipeServer } from "../../host-mcp/server.js";
import { createPiRecipesExtension } from "../../host-pi/index.js";
import { openLedger, readIndex, readLedger } from "../../runtime/ledger/index.js";
import { openLiveSession, openSession } from "../../runtime/session.js";
import { connect, makeAgentDir, textOf, type AgentDir } from "../host-mcp/harness.js";
import { call, makeSandbox, say, startPi, type PiSandbox } from "../host-pi/sdk-harness.js";

/** Counts reads of each path through the FileSystem port (the ledger) and the scan port (discovery). */
function counting(): { fs: FileSystem; scan: ScanPort; reads(path: string): { fs: number; scan: number } } {
  const fsReads = new Map<string, number>();
  const scanReads = new Map<string, number>();
  const bump = (m: Map<string, number>, p: string): void => void m.set(p, (m.get(p) ?? 0) + 1);
  const real = makeNodeFileSystem();
  const fs: FileSystem = {
    ...real,
    readFile: (path) => {
      bump(fsReads, path);
      return real.readFile(path);
    },
    open: (path, flag, mode) => {
      if (flag === "r") bump(fsReads, path);
      return real.open(path, flag, mode);
    },
  };
  const realScan = makeScanPort(nodeFs);
  const scan: ScanPort = {
    ...realScan,
    readBounded: (path, limit, options) => {
      bump(scanReads, path);
      return realScan.readBounded(path, limit, options);
    },
  };
  return { fs, scan, reads: (path) => ({ fs: fsReads.get(path) ?? 0, scan: scanReads.get(path) ?? 0 }) };
}

/** A watcher that never reports: the counts must not depend on when file events arrive. */
const quietWatcher: Watcher = {
  watchRecipeRoot: () => ({ ready: Promise.resolve(), mode: () => "root", close: async () => undefined }),
};

const GREET = { description: "Say hello", template: "echo hello {who}" };

let sandbox: PiSandbox;
let recipe: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  sandbox = makeSandbox();
  recipe = join(sandbox.recipeRoot, "greet.json");
  writeFileSync(recipe, JSON.stringify(GREET));
  env = { ...process.env, PI_CODING_AGENT_DIR: sandbox.agentDir };
});

afterEach(() => sandbox.cleanup());

/** lifetime calls of `key`'s lineage and whether every launch log line has been folded */
async function ledgerState(recipeRoot: string, key: string): Promise<{ calls: number | undefined; pendingLogs: number }> {
  const ledger = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot: lockRootOf(recipeRoot) }), recipeRoot });
  const { index } = await readIndex(ledger);
  const id = index.paths[key]?.ledger;
  const record = id === undefined ? undefined : await readLedger(ledger, id);
  const launches = join(recipeRoot, ".usage", "launches");
  let pendingLogs = 0;
  for (const name of existsSync(launches) ? readdirSync(launches) : []) {
    const lines = nodeFs.readFileSync(join(launches, name), "utf8").trim().split("\n").map((l) => JSON.parse(l.slice(l.indexOf("{"))) as { n: number; l?: number });
    const counted = lines.filter((l) => l.l !== undefined).map((l) => l.n);
    const applied = index.applied[name.replace(/\.log$/, "")] ?? 0;
    if (counted.some((n) => n > applied)) pendingLogs++;
  }
  return { calls: record?.lifetime_calls, pendingLogs };
}

describe("a launch reads the recipe file only to compile it and to check it", () => {
  it("CLI: one discovery read, one ledger check", async () => {
    const ports = counting();
    const session = openSession({ env, cwd: sandbox.cwd, packagedRoot: null, fs: ports.fs, scan: ports.scan });
    try {
      const result = await callIn(session, "greet", { who: "cli" });
      expect(result.text).toContain("hello cli");
    } finally {
      await session.close();
    }
    expect(ports.reads(recipe)).toEqual({ scan: 1, fs: 1 });
  });

  it("CLI: a file changed after discovery is refused with the reload-and-retry text and not counted", async () => {
    const session = openSession({ env, cwd: sandbox.cwd, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
    try {
      const tool = session.discovery().tools.find((t) => t.name === "greet")!;
      writeFileSync(recipe, JSON.stringify({ ...GREET, template: "echo changed {who}" }));
      const result = await session.launch(tool, { who: "x" }, { paths: session.paths });
      expect(result.ok).toBe(false);
      expect(result.text).toBe(`Recipe launch rejected because its source changed during activation: ${recipe}. Reload recipe tools and retry.`);
    } finally {
      await session.close();
    }
    expect((await ledgerState(sandbox.recipeRoot, "greet.json")).calls ?? 0).toBe(0);
  });

  it("Pi: the per-call refresh and one ledger check", async () => {
    const ports = counting();
    const saved = process.env["PI_CODING_AGENT_DIR"];
    process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
    const extension = createPiRecipesExtension({ packagedRoot: null, watcher: quietWatcher, fs: ports.fs, scan: ports.scan });
    const pi = await startPi({ sandbox, load: "none", extensionFactories: [extension], responses: [call("greet", { who: "pi" }), say("done")] });
    try {
      const before = ports.reads(recipe);
      await pi.session.prompt("greet pi");
      await pi.waitForRuns(1);
      expect(pi.outcomes).toEqual([{ tool: "greet", isError: false, text: expect.stringContaining("hello pi") as unknown as string }]);
      const after = ports.reads(recipe);
      expect({ scan: after.scan - before.scan, fs: after.fs - before.fs }).toEqual({ scan: 1, fs: 1 });
    } finally {
      await pi.close();
      if (saved === undefined) delete process.env["PI_CODING_AGENT_DIR"];
      else process.env["PI_CODING_AGENT_DIR"] = saved;
    }
    expect(await ledgerState(sandbox.recipeRoot, "greet.json")).toEqual({ calls: 1, pendingLogs: 0 });
  });

  it("MCP: no discovery read at all, one ledger check", async () => {
    const ports = counting();
    const session = await openLiveSession({ env, cwd: sandbox.cwd, packagedRoot: null, watcher: quietWatcher, fs: ports.fs, scan: ports.scan });
    const recipes = createRecipeServer({ session });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await recipes.server.connect(serverEnd);
    const client = new Client({ name: "launch-test", version: "1.0.0" });
    await client.connect(clientEnd);
    try {
      await client.listTools();
      const before = ports.reads(recipe);
      const result = await client.callTool({ name: "greet", arguments: { who: "mcp" } });
      expect(textOf(result)).toBe("hello mcp");
      const after = ports.reads(recipe);
      expect({ scan: after.scan - before.scan, fs: after.fs - before.fs }).toEqual({ scan: 0, fs: 1 });
    } finally {
      await client.close();
      await recipes.close();
      await session.close();
    }
  });
});

describe("pi-recipes mcp leaves folded, exact ledgers", () => {
  let agent: AgentDir;
  beforeEach(() => {
    agent = makeAgentDir();
  });
  afterEach(() => agent.cleanup());

  it("seeds the lineage at start and folds every launch when the client goes away", async () => {
    agent.write("greet", GREET);
    const mcp = await connect(agent);
    // seeded at start: the lineage exists before any launch
    expect(await ledgerState(agent.recipes, "greet.json")).toEqual({ calls: 0, pendingLogs: 0 });
    for (const who of ["a", "b", "c"]) {
      const result = await mcp.client.callTool({ name: "greet", arguments: { who } });
      expect(textOf(result)).toBe(`hello ${who}`);
    }
    // the client's close waits for the server process to end (stdin closed: the session closes)
    await mcp.close();
    expect(await ledgerState(agent.recipes, "greet.json")).toEqual({ calls: 3, pendingLogs: 0 });
  }, 30_000);
});
