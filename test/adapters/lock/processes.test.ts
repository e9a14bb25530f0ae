// The lock between real processes: workers run adapters/lock (see worker.ts), built for this test run.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath } from "../../../adapters/lock/canonical-path.js";
import { lockFilePath, makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockTimeoutError } from "../../../adapters/lock/Lock.js";
import { encodeOwner, makeOwnerRecord, nodeProcessProbe } from "../../../adapters/lock/owner.js";
import { delay, killWorker, spawnWorker, type Worker } from "./harness.js";

// The tests run concurrently, so each one registers its own cleanups on its own context.
type Finished = TestContext["onTestFinished"];

async function scratch(onTestFinished: Finished): Promise<{ dir: string; root: string }> {
  const dir = await mkdtemp(join(tmpdir(), "pi-recipes-lock-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return { dir, root: join(dir, "locks") };
}

function workerFor(onTestFinished: Finished): (job: Record<string, unknown>) => Worker {
  return (job) => {
    const w = spawnWorker(job);
    onTestFinished(() => killWorker(w));
    return w;
  };
}

const ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.concurrent("file lock across processes", () => {
  it("4 processes x 50 increments under the lock give the exact total", async ({ onTestFinished }) => {
    const { dir, root } = await scratch(onTestFinished);
    const worker = workerFor(onTestFinished);
    const counter = join(dir, "counter");
    await writeFile(counter, "0");
    const workers = [1, 2, 3, 4].map(() => worker({ mode: "count", root, path: join(dir, "recipe.json"), counter, n: 50 }));
    for (const w of workers) await w.next("done", 30_000);
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0, 0, 0]);
    expect(await readFile(counter, "utf8")).toBe("200");
    // every lock was released and no temp was left behind
    expect(await readdir(root)).toEqual([]);
  });

  it("a real path and its symlink alias serialize; an unrelated path does not wait", async ({ onTestFinished }) => {
    const { dir, root } = await scratch(onTestFinished);
    const worker = workerFor(onTestFinished);
    await mkdir(join(dir, "real"));
    await writeFile(join(dir, "real", "r.json"), "{}");
    await symlink(join(dir, "real"), join(dir, "alias"));
    const holder = worker({ mode: "hold", root, path: join(dir, "real", "r.json") });
    await holder.next("locked");
    const viaAlias = worker({ mode: "acquire", root, path: join(dir, "alias", "r.json"), timeoutMs: 15_000 });
    const unrelated = worker({ mode: "acquire", root, path: join(dir, "real", "other.json"), timeoutMs: 15_000 });
    const [aliasWaiting, , locked] = await Promise.all([viaAlias.next("waiting"), unrelated.next("waiting"), unrelated.next("locked")]);
    // the unrelated path was locked while the holder still holds r.json
    expect(locked.ev).toBe("locked");
    await delay(Math.max(0, 300 - (Date.now() - aliasWaiting.t)));
    expect(viaAlias.events.map((e) => e.ev)).toEqual(["waiting"]);
    // only the release lets the alias in
    holder.send("release");
    await holder.next("released");
    await viaAlias.next("locked");
    expect(viaAlias.events.map((e) => e.ev).slice(0, 2)).toEqual(["waiting", "locked"]);
  });

  it("an owner killed with SIGKILL keeps the lock until its death, then the waiter gets it", async ({ onTestFinished }) => {
    const { dir, root } = await scratch(onTestFinished);
    const worker = workerFor(onTestFinished);
    const path = join(dir, "recipe.json");
    const holder = worker({ mode: "hold", root, path });
    await holder.next("locked");
    const contender = worker({ mode: "acquire", root, path, timeoutMs: 15_000 });
    const waiting = await contender.next("waiting");
    await delay(Math.max(0, 300 - (Date.now() - waiting.t)));
    expect(contender.events.map((e) => e.ev)).toEqual(["waiting"]);
    expect(() => process.kill(holder.pid, 0)).not.toThrow();
    holder.child.kill("SIGKILL");
    expect(await holder.exited).toBeNull();
    await contender.next("locked");
    expect(contender.events.map((e) => e.ev).slice(0, 2)).toEqual(["waiting", "locked"]);
  });

  it("a SIGSTOPped owner keeps its lock: the waiter times out naming the holder", async ({ onTestFinished }) => {
    const { dir, root } = await scratch(onTestFinished);
    const worker = workerFor(onTestFinished);
    const path = join(dir, "recipe.json");
    const holder = worker({ mode: "hold", root, path });
    await holder.next("locked");
    holder.child.kill("SIGSTOP");
    const contender = worker({ mode: "acquire", root, path, timeoutMs: 1000 });
    const failure = await contender.next("error");
    expect(failure.name).toBe("LockTimeoutError");
    expect(failure.message).toMatch(new RegExp(`^Timed out after 1000 ms waiting for the lock on ${escape(path)}; held by pid ${holder.pid} since ${ISO}$`));
    holder.child.kill("SIGCONT");
    holder.send("release");
    await holder.next("released");
    expect(await holder.exited).toBe(0);
    expect(await readdir(root)).toEqual([]);
  });

  it("a record whose pid now belongs to another process (other start time) is reclaimed; the true owner is not", async ({ onTestFinished }) => {
    const { dir, root } = await scratch(onTestFinished);
    const sleeper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    onTestFinished(() => void sleeper.kill("SIGKILL"));
    const pid = sleeper.pid!;
    await delay(100); // let /proc/<pid>/stat show the new process, not the fork parent's image
    const path = join(dir, "recipe.json");
    const file = lockFilePath(root, await canonicalLockPath(makeNodeFileSystem(), path));
    await mkdir(root, { recursive: true });
    const probeAs = { ...nodeProcessProbe, pid };
    const live = makeOwnerRecord("live-owner", Date.now(), probeAs);
    expect(live.start_time).toMatch(/^\d+$/);

    const lock = makeFileLock({ lockRoot: root });
    await writeFile(file, encodeOwner(live));
    const refused = await lock.acquire(path, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockTimeoutError);
    expect((refused as LockTimeoutError).holder).toEqual({ pid, acquiredAt: live.acquired_at });

    await writeFile(file, encodeOwner({ ...live, token: "recycled", start_time: "1" }));
    const held = await lock.acquire(path, { timeoutMs: 3000 });
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ pid: process.pid });
    await held.release();
    expect(await readdir(root)).toEqual([]);
  });
});
