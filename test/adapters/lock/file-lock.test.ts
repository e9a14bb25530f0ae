// The file lock inside one process: queueing, re-entry, timeouts, reclaim rules, release.
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath } from "../../../adapters/lock/canonical-path.js";
import { lockFilePath, makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockReentryError, LockTimeoutError } from "../../../adapters/lock/Lock.js";
import { decodeOwner, encodeOwner, makeOwnerRecord, nodeProcessProbe } from "../../../adapters/lock/owner.js";

let dir = "";
let root = "";
let path = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-flock-"));
  root = join(dir, "locks");
  path = join(dir, "recipe.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lockFileOf = async (p: string): Promise<string> => lockFilePath(root, await canonicalLockPath(makeNodeFileSystem(), p));
const tick = (ms = 5): Promise<void> => new Promise((done) => setTimeout(done, ms));
const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid!;

async function plant(p: string, text: string, mtimeMs = Date.now()): Promise<string> {
  const file = await lockFileOf(p);
  await mkdir(root, { recursive: true });
  await writeFile(file, text);
  await utimes(file, mtimeMs / 1000, mtimeMs / 1000);
  return file;
}

describe("in-process callers", () => {
  it("take turns on one key", async () => {
    const lock = makeFileLock({ lockRoot: root });
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lock.withLock(path, async () => {
          most = Math.max(most, ++inside);
          order.push(i);
          await tick(1);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(await readdir(root)).toEqual([]);
  });

  it("do not wait for each other on unrelated keys", async () => {
    const lock = makeFileLock({ lockRoot: root });
    const a = await lock.acquire(join(dir, "a.json"));
    const b = await lock.acquire(join(dir, "b.json"), { timeoutMs: 200 });
    await Promise.all([a.release(), b.release()]);
  });

  it("a caller that times out in the queue does not wedge it", async () => {
    const lock = makeFileLock({ lockRoot: root });
    const first = await lock.acquire(path);
    const late = await lock.acquire(path, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(LockTimeoutError);
    expect((late as LockTimeoutError).holder?.pid).toBe(process.pid);
    await first.release();
    const next = await lock.acquire(path, { timeoutMs: 200 });
    await next.release();
  });

  it("withLock releases when the section throws and passes the error on", async () => {
    const lock = makeFileLock({ lockRoot: root });
    await expect(lock.withLock(path, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.withLock(path, () => 42, { timeoutMs: 100 })).toBe(42);
  });

  it("timeoutMs 0 still takes a free lock", async () => {
    const held = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 0 });
    await held.release();
  });
});

describe("re-entry", () => {
  it("rejects at once when the call chain already holds the key, an alias included", async () => {
    const lock = makeFileLock({ lockRoot: root });
    await lock.withLock(path, async () => {
      await expect(lock.withLock(path, () => 1)).rejects.toBeInstanceOf(LockReentryError);
      await expect(lock.acquire(join(dir, ".", "recipe.json"))).rejects.toThrow(`The lock on ${join(dir, ".", "recipe.json")} is already held by this call chain; locks are not re-entrant`);
      // another key nests fine
      expect(await lock.withLock(join(dir, "other.json"), () => "nested")).toBe("nested");
    });
  });

  it("does not outlive the section: work started inside and run later may take the lock", async () => {
    const lock = makeFileLock({ lockRoot: root });
    let later: Promise<string> | undefined;
    await lock.withLock(path, () => {
      later = tick(20).then(() => lock.withLock(path, () => "later"));
    });
    expect(await later).toBe("later");
  });
});

describe("timeouts", () => {
  it("name the path, the holder's pid and since when it holds the lock", async () => {
    const holder = makeFileLock({ lockRoot: root });
    const held = await holder.acquire(path);
    const record = decodeOwner(await readFile(await lockFileOf(path), "utf8"))!;
    const error = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toBe(`Timed out after 200 ms waiting for the lock on ${path}; held by pid ${process.pid} (this process) since ${record.acquired_at}`);
    await held.release();
  });

  it("say so for a holder in another process", async () => {
    const foreign = makeOwnerRecord("foreign", Date.parse("2026-01-01T00:00:00.000Z"), { ...nodeProcessProbe, pid: 1 });
    await plant(path, encodeOwner(foreign));
    const error = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Timed out after 150 ms waiting for the lock on ${path}; held by pid 1 since 2026-01-01T00:00:00.000Z`);
    expect((error as LockTimeoutError).holder).toEqual({ pid: 1, acquiredAt: "2026-01-01T00:00:00.000Z" });
  });
});

describe("reclaim", () => {
  it("takes over at once from an owner whose pid no longer exists", async () => {
    const file = await plant(path, encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    // a live owner would hold it for the whole hour of this timeout; the dead one is reclaimed
    const held = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 3_600_000 });
    expect(decodeOwner(await readFile(file, "utf8"))?.pid).toBe(process.pid);
    await held.release();
    expect(await readdir(root)).toEqual([]);
  });

  it("never takes over from a live owner because of age", async () => {
    const old = Date.now() - 3_600_000;
    await plant(path, encodeOwner(makeOwnerRecord("slow", old, { ...nodeProcessProbe, pid: 1 })), old);
    await expect(makeFileLock({ lockRoot: root, unownedGraceMs: 0 }).acquire(path, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
  });

  it("does not reclaim from a live owner with its start time when this host's boot id cannot be read", async () => {
    // an unreadable boot id proves nothing: the owner (pid 1, alive, same start time) keeps the lock
    await plant(path, encodeOwner(makeOwnerRecord("live", Date.now(), { ...nodeProcessProbe, pid: 1 })));
    const blind = { ...nodeProcessProbe, bootId: () => undefined };
    await expect(makeFileLock({ lockRoot: root, probe: blind }).acquire(path, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
  });

  it("treats a lock without a readable record as alive for the grace period from its mtime", async () => {
    await plant(path, '{"pid":12');
    const lock = makeFileLock({ lockRoot: root, unownedGraceMs: 400 });
    const early = await lock.acquire(path, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect((early as Error).message).toBe(`Timed out after 50 ms waiting for the lock on ${path}; held by an owner without a readable record`);
    const held = await lock.acquire(path, { timeoutMs: 3000 });
    await held.release();
  });

  it("reclaims a lock without a readable record at once when its mtime is past the grace period", async () => {
    await plant(path, "\u0000\u0000garbage", Date.now() - 10_000);
    const held = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 3_600_000 });
    expect(decodeOwner(await readFile(await lockFileOf(path), "utf8"))?.pid).toBe(process.pid);
    await held.release();
  });

  it("clears a removal boundary left by a reclaimer that died inside it", async () => {
    const file = await plant(path, encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    await writeFile(`${file}.reclaim`, encodeOwner({ ...makeOwnerRecord("dead-reclaimer", 0), pid: deadPid() }));
    const held = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 2000 });
    await held.release();
    expect(await readdir(root)).toEqual([]);
  });
});

describe("release", () => {
  it("removes only a lock that still bears its token, and is idempotent", async () => {
    const lock = makeFileLock({ lockRoot: root });
    const held = await lock.acquire(path);
    const file = await lockFileOf(path);
    const replacement = encodeOwner(makeOwnerRecord("someone-else", Date.now()));
    await writeFile(file, replacement);
    await held.release();
    await held.release();
    expect(await readFile(file, "utf8")).toBe(replacement);
  });
});

describe("setup", () => {
  it("recreates a lock root removed between uses", async () => {
    const lock = makeFileLock({ lockRoot: root });
    await lock.withLock(path, () => undefined);
    await rm(root, { recursive: true });
    await lock.withLock(path, () => undefined);
  });

  it("removes the stray temps of dead processes and keeps a live process's", async () => {
    await mkdir(root, { recursive: true });
    const dead = makeOwnerRecord("dead", Date.now(), { ...nodeProcessProbe, pid: deadPid() });
    const live = makeOwnerRecord("live", Date.now(), { ...nodeProcessProbe, pid: 1 });
    await writeFile(join(root, ".x.lock.dead.tmp"), encodeOwner(dead));
    await writeFile(join(root, ".x.lock.gone.stale"), encodeOwner(dead));
    await writeFile(join(root, ".x.lock.live.tmp"), encodeOwner(live));
    // only dot-files that end in .tmp or .stale are strays
    await writeFile(join(root, "y.lock.dead.tmp"), encodeOwner(dead));
    await writeFile(join(root, ".y.lock.dead.tmp.bak"), encodeOwner(dead));
    await makeFileLock({ lockRoot: root }).withLock(path, () => undefined);
    expect((await readdir(root)).sort()).toEqual([".x.lock.live.tmp", ".y.lock.dead.tmp.bak", "y.lock.dead.tmp"]);
  });

  // process.umask cannot be set in a worker thread (the pool `npm run mutate` runs tests in); the
  // next test gets the same effect through the port
  if (!isMainThread) console.log("skipping the real-umask lock folder test: a worker thread may not set process.umask");
  it.skipIf(!isMainThread)("creates the lock folder with the permissions of its parent, whatever the umask", async () => {
    const shared = join(dir, "shared");
    await mkdir(shared);
    await chmod(shared, 0o2775);
    const old = process.umask(0o077);
    try {
      await makeFileLock({ lockRoot: join(shared, ".locks") }).withLock(path, async () => {
        const [file] = (await readdir(join(shared, ".locks"))).filter((n) => n.endsWith(".lock"));
        // the record is readable by the other users who may take this lock
        expect((await stat(join(shared, ".locks", file!))).mode & 0o777).toBe(0o644);
      });
    } finally {
      process.umask(old);
    }
    expect((await stat(join(shared, ".locks"))).mode & 0o7777).toBe(0o2775);
  });

  it("fixes the permissions a restrictive umask took away: folder like its parent, record readable by all", async () => {
    const shared = join(dir, "shared");
    await mkdir(shared);
    await chmod(shared, 0o2775);
    // a umask of 077, as the file system would apply it on creation
    const node = makeNodeFileSystem();
    const umask077: FileSystem = {
      ...node,
      mkdir: async (p, o) => {
        await node.mkdir(p, o);
        await chmod(p, 0o700);
      },
      writeFile: async (p, data, o) => {
        await node.writeFile(p, data, o);
        await chmod(p, (o?.mode ?? 0o666) & 0o700);
      },
    };
    await makeFileLock({ fs: umask077, lockRoot: join(shared, ".locks") }).withLock(path, async () => {
      const [file] = (await readdir(join(shared, ".locks"))).filter((n) => n.endsWith(".lock"));
      expect((await stat(join(shared, ".locks", file!))).mode & 0o777).toBe(0o644);
    });
    expect((await stat(join(shared, ".locks"))).mode & 0o7777).toBe(0o2775);
  });

  it("sets the lock folder's permissions when it makes the folder, and leaves them alone after", async () => {
    const shared = join(dir, "shared");
    await mkdir(shared);
    await chmod(shared, 0o2775);
    const lock = makeFileLock({ lockRoot: join(shared, ".locks") });
    await lock.withLock(path, () => undefined);
    expect((await stat(join(shared, ".locks"))).mode & 0o7777).toBe(0o2775);
    // the owner narrows it on purpose; the next lock taken does not widen it again
    await chmod(join(shared, ".locks"), 0o700);
    await lock.withLock(path, () => undefined);
    expect((await stat(join(shared, ".locks"))).mode & 0o7777).toBe(0o700);
  });

  it("runs on the memfs adapter", async () => {
    const fs = makeMemFileSystem();
    await fs.mkdir("/work", { recursive: true });
    const lock = makeFileLock({ fs, lockRoot: "/locks" });
    let inside = 0;
    let most = 0;
    await Promise.all([1, 2, 3].map(() => lock.withLock("/work/r.json", async () => {
      most = Math.max(most, ++inside);
      await tick(1);
      inside--;
    })));
    expect(most).toBe(1);
    expect(await fs.readdir("/locks")).toEqual([]);
  });
});
