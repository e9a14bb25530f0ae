// The books stay small: every CLI-style launch (a one-shot session, one call, close: exactly what
// a `pi-recipes call` process does) closes its launch log, and an exiting launch folds the pending
// logs once enough of them wait and the store lock is free, so many launches leave a bounded
// number of files and every launch is counted exactly once.
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { closeAndFoldIfFree, foldPending, openLedger, PENDING_LOG_BOUND, readIndex, readLedger, recordLaunch } from "../../../runtime/ledger/index.js";
import { lockRootOf } from "../../../runtime/agent-paths.js";
import { openRegistry, type Registry } from "../../../runtime/registry.js";
import { openSession } from "../../../runtime/session.js";
import { callTool } from "../../../runtime/verbs/call.js";
import { resolved } from "./support.js";

let dir: string;
let registry: Registry;
const launches = (): string[] => {
  const d = join(registry.paths.recipeRoot, ".usage", "launches");
  return existsSync(d) ? readdirSync(d) : [];
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-exit-fold-"));
  const agent = join(dir, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  writeFileSync(join(agent, "recipes", "tally.json"), JSON.stringify({ description: "Tally", template: "true" }));
  registry = openRegistry({ env: { PI_CODING_AGENT_DIR: agent }, cwd: dir, home: dir, packagedRoot: null, scan: makeNodeScanPort() });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One `pi-recipes call tally`, minus the process: a one-shot session, the call, the close. */
async function cliLaunch(): Promise<void> {
  const session = openSession({ env: { PI_CODING_AGENT_DIR: registry.paths.agentDir }, cwd: dir, home: dir, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
  try {
    const r = await callTool(session.discovery(), "tally", {}, session.callContext());
    if (!r.ok) throw new Error(r.text);
  } finally {
    await session.close();
  }
}

async function lifetimeCalls(): Promise<number> {
  const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ fs: makeNodeFileSystem(), lockRoot: lockRootOf(registry.paths.recipeRoot) }), recipeRoot: registry.paths.recipeRoot });
  await foldPending(ctx);
  const id = (await readIndex(ctx)).index.paths["tally.json"]?.ledger;
  return id === undefined ? 0 : ((await readLedger(ctx, id))?.lifetime_calls ?? 0);
}

describe("launch logs folded at exit", () => {
  it("130 launches one after another never leave more than the bound of log files, and count exactly", async () => {
    let most = 0;
    for (let i = 0; i < 130; i++) {
      await cliLaunch();
      most = Math.max(most, launches().length);
    }
    // one log per launch; the launch whose log is the 8th folds them all at its exit, so
    // between calls 0 to 7 logs wait
    expect(most).toBe(PENDING_LOG_BOUND - 1);
    expect(launches().length).toBe(130 % PENDING_LOG_BOUND);
    expect(await lifetimeCalls()).toBe(130);
    // the fold above deleted every closed log
    expect(launches()).toEqual([]);
  });

  it("120 launches, six at a time, leave a bounded number of files and count exactly", async () => {
    let most = 0;
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 6 }, cliLaunch));
      most = Math.max(most, launches().length);
    }
    expect(most).toBeLessThanOrEqual(PENDING_LOG_BOUND + 6);
    expect(await lifetimeCalls()).toBe(120);
  });

  it("does not fold while another process holds the store lock, and folds once it is free", async () => {
    const path = join(registry.paths.recipeRoot, "tally.json");
    const input = resolved(path);
    const fs = makeNodeFileSystem();
    const open = () => openLedger({ fs, lock: makeFileLock({ fs, lockRoot: lockRootOf(registry.paths.recipeRoot) }), recipeRoot: registry.paths.recipeRoot });
    for (let i = 0; i < PENDING_LOG_BOUND - 1; i++) {
      const ctx = open();
      await recordLaunch(ctx, input);
      expect(await closeAndFoldIfFree(ctx)).toEqual({ folded: false, diagnostics: [] });
    }
    expect(launches().length).toBe(PENDING_LOG_BOUND - 1);
    // another lock instance stands for another process holding the index lock
    const other = makeFileLock({ fs, lockRoot: lockRootOf(registry.paths.recipeRoot) });
    const held = await other.acquire(join(registry.paths.recipeRoot, ".usage", "index.json"));
    const busy = open();
    await recordLaunch(busy, input);
    expect(await closeAndFoldIfFree(busy)).toEqual({ folded: false, diagnostics: [] });
    expect(launches().length).toBe(PENDING_LOG_BOUND);
    await held.release();
    const free = open();
    await recordLaunch(free, input);
    expect((await closeAndFoldIfFree(free)).folded).toBe(true);
    expect(launches()).toEqual([]);
    expect(await lifetimeCalls()).toBe(PENDING_LOG_BOUND + 1);
  });
});
