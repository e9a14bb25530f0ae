// The crash properties are only worth what they catch. Each test runs the journal engine's
// property (props/journal-engine.test.ts) on a deliberately broken variant, and asserts that the
// property FAILS. The breakage is injected through the FileSystem port (a sync that does
// nothing) or the engine's test-only fault flag, never by editing code.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem } from "../adapters/fs/memfs.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import type { ProcessProbe } from "../adapters/lock/owner.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { readText, writeFileAtomic } from "../adapters/fs/FileSystem.js";
import { EVERY_STEP, engineViolations } from "./support/journal-scenarios.js";
import { CrashDisk, isSimulatedCrash } from "./support/crash-fs.js";

const SEEDS = [undefined, 1, 2, 3] as const;

/** violations over the worst case and a few seeded power failures */
async function caught(run: Parameters<typeof engineViolations>[1]): Promise<string[]> {
  const all: string[] = [];
  for (const seed of SEEDS) all.push(...(await engineViolations(EVERY_STEP, { ...run, ...(seed === undefined ? {} : { seed }), nested: true })));
  return all;
}

describe("the crash properties catch broken variants", () => {
  it("the honest engine passes (the control)", async () => {
    expect(await caught({})).toEqual([]);
  });

  it("no file fsync before a rename: caught (a torn or empty file, or a torn journal)", async () => {
    const violations = await caught({ breakage: { noFileSync: true } });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.join("\n")).toMatch(/neither all-before .* nor all-after|journal folder still holds .*quarantined/);
  });

  it("no folder fsync after a rename or unlink: caught (an acknowledged plan undone)", async () => {
    const violations = await caught({ breakage: { noDirSync: true } });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.join("\n")).toMatch(/runPlan had returned: must be after/);
  });

  it("a recovery that removes its journal before replaying it: caught (a half-applied plan stays)", async () => {
    const violations = await caught({ options: { faults: { dropJournalBeforeReplay: true } } });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.join("\n")).toMatch(/recovery crash at \d+: .* is neither all-before/);
  });
});

describe("locks on the crashable disk, two processes interleaving", () => {
  // two runtime instances share one volume; each holds the file lock (adapters/lock/file-lock.ts
  // over the crashing port) while it reads, bumps and atomically rewrites a counter
  const probeFor = (pid: number, alive: Set<number>): ProcessProbe => ({
    pid,
    hostname: () => "host",
    bootId: () => "boot",
    startTime: (p) => (alive.has(p) ? "1" : undefined),
    signalZero: (p) => (alive.has(p) ? "exists" : "gone"),
  });
  const COUNTER = "/data/counter";

  async function bump(fs: ReturnType<CrashDisk["process"]>, lock: Lock, times: number): Promise<number> {
    let done = 0;
    for (let i = 0; i < times; i++) {
      await lock.withLock(COUNTER, async () => {
        const n = Number(await readText(fs, COUNTER));
        await writeFileAtomic(fs, COUNTER, String(n + 1));
      });
      done++;
    }
    return done;
  }

  it("no acknowledged increment is lost, whatever mutation the power fails at; a dead holder's lock is reclaimed", async () => {
    const count = async (failAt: number, locked = true): Promise<{ acked: number; survived: number; after: number; mutations: number }> => {
      const disk = new CrashDisk(makeMemFileSystem(Volume.fromJSON({ [COUNTER]: "0", "/locks/.keep": "" }) as Volume), failAt);
      const alive = new Set([1, 2]);
      const a = disk.process("a");
      const b = disk.process("b");
      const none: Lock = { acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }), withLock: async (_p, fn) => fn() };
      const lockA = locked ? makeFileLock({ fs: a, lockRoot: "/locks", probe: probeFor(1, alive) }) : none;
      const lockB = locked ? makeFileLock({ fs: b, lockRoot: "/locks", probe: probeFor(2, alive) }) : none;
      let acked = 0;
      const run = async (fs: typeof a, lock: typeof lockA): Promise<void> => {
        for (let i = 0; i < 3; i++) {
          try {
            const done = await bump(fs, lock, 1);
            acked += done;
          } catch (e) {
            if (isSimulatedCrash(e) || (e instanceof Error && isSimulatedCrash(e.cause))) return;
            throw e;
          }
        }
      };
      await Promise.all([run(a, lockA), run(b, lockB)]);
      await disk.powerFail();
      // after the restart: both old processes are dead; a new one takes the lock and bumps once
      alive.clear();
      alive.add(3);
      const fresh = makeMemFileSystem(disk.inner.vol);
      const survived = Number(await readText(fresh, COUNTER));
      const lock = makeFileLock({ fs: fresh, lockRoot: "/locks", probe: probeFor(3, alive) });
      await lock.withLock(COUNTER, async () => writeFileAtomic(fresh, COUNTER, String(survived + 1)), { timeoutMs: 500 });
      return { acked, survived, after: Number(await readText(fresh, COUNTER)), mutations: disk.mutations };
    };
    const total = (await count(Infinity)).mutations;
    expect((await count(Infinity)).survived).toBe(6);
    for (let k = 0; k <= total; k++) {
      const r = await count(k);
      // each acknowledged bump is durable (its atomic write fsynced the folder); the one each
      // process had in flight may or may not have landed; none was lost to a race (the lock)
      expect(r.survived, `power fails at ${k}`).toBeGreaterThanOrEqual(r.acked);
      expect(r.survived, `power fails at ${k}`).toBeLessThanOrEqual(r.acked + 2);
      if (k === total) expect(r.survived).toBe(6);
      expect(r.after).toBe(r.survived + 1);
    }
  }, 60_000);
});
