// Eight real processes register, update, merge and delete tools at once, some names shared, half
// of them through a symlink alias of the agent folder.
//
// Ordering: each worker reads CLOCK_MONOTONIC (process.hrtime, one clock for every process of the
// host) in the refresh callback, which runs inside the operation's lock window after the write or
// delete. Windows of one name never overlap (one lock per canonical recipe path), so for each
// name the stamps order its changes exactly as they were committed, and the file on disk at the
// end must be the content seen by the change with the greatest stamp (absent after a delete).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgsFor } from "../support/cli.js";
import { afterAll, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { agentPaths } from "../../runtime/agent-paths.js";
import { discoverThroughFs } from "../../runtime/fs-discovery.js";
import type { OpLog, WorkerOp } from "./register-worker.js";

const WORKERS = 8;
const OPS = 50;
const SHARED = ["s0", "s1", "s2", "s3", "s4", "s5"];
const WORKER = fileURLToPath(new URL("./register-worker.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "register-conc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a small deterministic generator, so a failure can be replayed */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function opsFor(worker: number): WorkerOp[] {
  const next = rng(7919 * (worker + 1));
  const out: WorkerOp[] = [];
  for (let k = 0; k < OPS; k++) {
    const shared = next() < 0.6;
    const name = shared ? SHARED[Math.floor(next() * SHARED.length)]! : `w${worker}_${Math.floor(next() * 4)}`;
    const roll = next();
    const kind = roll < 0.3 ? "create" : roll < 0.6 ? "update" : roll < 0.8 ? "merge" : "delete";
    const tag = `w${worker}k${k}`;
    out.push(kind === "delete" ? { kind, name } : kind === "merge" ? { kind, name, description: `merged ${tag}` } : { kind, name, description: `set ${tag}`, template: `echo ${tag} {x}` });
  }
  return out;
}

function runWorker(job: Record<string, unknown>): Promise<OpLog[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(WORKER), JSON.stringify(job)], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`worker exited ${code}: ${err}`));
      else resolve(out.trim().split("\n").map((l) => JSON.parse(l) as OpLog));
    });
  });
}

describe("register_tool across 8 processes", () => {
  it("serializes per recipe: every file is a complete valid recipe and equals the last committed change", async () => {
    const real = join(dir, "agent");
    mkdirSync(join(real, "recipes"), { recursive: true });
    symlinkSync(real, join(dir, "alias"));
    const lockRoot = join(dir, "locks");
    const logs = (
      await Promise.all(
        Array.from({ length: WORKERS }, (_, worker) => runWorker({ worker, agentDir: join(dir, worker % 2 === 0 ? "agent" : "alias"), lockRoot, ops: opsFor(worker) })),
      )
    ).flat();
    expect(logs).toHaveLength(WORKERS * OPS);

    // every answer is one the registry gives under contention, never a failure to persist or lock
    const expected = /^(Registered tool|Updated tool|Deleted tool|Tool "[^"]+" (already registered|not found)|Tool template is required for new registrations\.)/;
    for (const l of logs) expect(l.text, JSON.stringify(l)).toMatch(expected);

    const root = join(real, "recipes");
    const names = [...new Set(logs.map((l) => l.op.name))];
    for (const name of names) {
      const changes = logs.filter((l) => l.op.name === name && l.stamp !== undefined).sort((a, b) => (BigInt(a.stamp!) < BigInt(b.stamp!) ? -1 : 1));
      // the history replays: each change saw what the previous one left
      let previous: string | null = null;
      for (const c of changes) {
        if (c.op.kind === "delete") expect(c.content).toBeNull();
        else {
          const now = JSON.parse(c.content!) as { description: string; template: string };
          expect(now.description).toBe(c.op.description);
          if (c.op.kind === "create") expect(previous).toBeNull();
          if (c.op.kind === "merge") expect(now.template).toBe((JSON.parse(previous!) as { template: string }).template);
          else expect(now.template).toBe(c.op.template);
        }
        previous = c.content ?? null;
      }
      let onDisk: string | null = null;
      try {
        onDisk = readFileSync(join(root, `${name}.json`), "utf8");
      } catch {
        onDisk = null;
      }
      expect(onDisk, name).toBe(changes.at(-1)?.content ?? null);
    }

    // no temp left behind, and discovery finds every file a valid tool
    // (.usage holds the journal folder of the deletes, empty once each delete is done)
    expect(readdirSync(root).filter((f) => f.startsWith(".") && f !== ".usage")).toEqual([]);
    expect(readdirSync(join(root, ".usage", "register-journal"))).toEqual([]);
    const discovery = await discoverThroughFs(makeNodeFileSystem(), agentPaths({ PI_CODING_AGENT_DIR: real }, dir, dir));
    expect(discovery.entries.filter((e) => e.invalid)).toEqual([]);
    expect(discovery.tools.map((t) => t.name).sort()).toEqual(readdirSync(root).filter((f) => !f.startsWith(".")).map((f) => f.replace(/\.json$/, "")).sort());
    expect(logs.filter((l) => l.stamp !== undefined).length).toBeGreaterThan(100);
  }, 60_000);
});
