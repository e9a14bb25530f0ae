// The run store over the FileSystem port: pruning crashed at every file operation never loses a
// run it must keep, and what is left always reads back (the store runs over memfs and the crash
// disk as it does over the real disk, because it reaches files only through the port).
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { pruneRuns } from "../runtime/runs/prune.js";
import { listRuns, readRun } from "../runtime/runs/store.js";
import { tailLines } from "../runtime/runs/tail.js";
import { exploreCrashes } from "./support/crash-fs.js";

const ROOT = "/agent/tmp/pi-recipes/runs";
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-06-10T12:00:00.000Z");
const iso = (ms: number): string => new Date(ms).toISOString();

function status(id: string, state: string, endedAgoMs: number): string {
  const ended = state === "running" ? null : iso(NOW - endedAgoMs);
  // a running run's supervisor is this process: alive, so the run is not stale
  return JSON.stringify({ run_id: id, tool: "t", status: state, pid: 1, pgid: null, exit_code: 0, started_at: iso(NOW - endedAgoMs - 1000), ended_at: ended, supervisor_pid: process.pid });
}

const seeded = (): MemFileSystem =>
  makeMemFileSystem(
    Volume.fromJSON({
      [`${ROOT}/busy/status.json`]: status("busy", "running", 30 * DAY),
      [`${ROOT}/busy/stdout.log`]: "working\n",
      [`${ROOT}/new/status.json`]: status("new", "succeeded", 1000),
      [`${ROOT}/new/result.json`]: JSON.stringify({ ok: true, text: "done", code: 0, details: {} }),
      [`${ROOT}/mid/status.json`]: status("mid", "failed", 2000),
      [`${ROOT}/old/status.json`]: status("old", "succeeded", 8 * DAY),
      [`${ROOT}/old/stdout.log`]: "old output\n",
    }) as Volume,
  );

describe("the run store over memfs", () => {
  it("lists, reads and tails runs through the port", async () => {
    const fs = seeded();
    expect((await listRuns(fs, ROOT)).map((e) => e.run_id)).toEqual(["new", "mid", "old", "busy"]);
    expect(await readRun(fs, ROOT, "new")).toMatchObject({ status: "succeeded", result_text: "done" });
    expect(await tailLines(fs, `${ROOT}/busy/stdout.log`, 5)).toEqual(["working"]);
    expect(await listRuns(fs, "/nowhere")).toEqual([]);
  });
});

describe("pruning crashed at every mutation", () => {
  it("without a crash, removes the finished runs beyond the newest one", async () => {
    const fs = seeded();
    expect((await pruneRuns(fs, ROOT, { now: NOW, keep: 1 })).sort()).toEqual(["mid", "old"]);
    expect((await listRuns(fs, ROOT)).map((e) => e.run_id)).toEqual(["new", "busy"]);
  });

  // pruning never throws (a failed removal is left for the next prune), so the harness sees every
  // crashed prune as one that returned: what it checks is what must hold after any of them
  const explore = (prune: (fs: FileSystem) => Promise<void>): Promise<number> =>
    exploreCrashes({
      setup: seeded,
      run: prune,
      check: async (view, k, trace) => {
        const context = `k=${k} ${trace.join(" | ")}`;
        const runs = new Map((await listRuns(view, ROOT)).map((e) => [e.run_id, e.run?.status]));
        expect(runs.get("busy"), context).toBe("running");
        expect(runs.get("new"), context).toBe("succeeded");
        expect(await tailLines(view, `${ROOT}/busy/stdout.log`, 5), context).toEqual(["working"]);
        // a run is there whole or not at all: what is listed reads back with its status
        for (const [id, state] of runs) expect(state, `${context}: ${id}`).toBeDefined();
      },
    });

  it("never removes a running run or the newest finished one", async () => {
    expect(await explore(async (fs) => void (await pruneRuns(fs, ROOT, { now: NOW, keep: 1 })))).toBeGreaterThan(0);
  });

  it("catches a prune that ignores the running state (the check can fail)", async () => {
    const careless = async (fs: FileSystem): Promise<void> => {
      for (const e of await listRuns(fs, ROOT)) if (e.run_id !== "new") await fs.rm(e.dir, { recursive: true, force: true });
    };
    await expect(explore(careless)).rejects.toThrow(/busy|running/);
  });
});
