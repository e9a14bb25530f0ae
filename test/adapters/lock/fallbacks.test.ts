// The lock on file systems that refuse what the usual path relies on: hard links (FAT, some FUSE
// and network mounts), and lock files this user may not read (another user's, not made by this
// code). The refusals are injected through the FileSystem port; everything else is real files.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath } from "../../../adapters/lock/canonical-path.js";
import { lockFilePath, makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockTimeoutError } from "../../../adapters/lock/Lock.js";
import { decodeOwner, encodeOwner, makeOwnerRecord, nodeProcessProbe } from "../../../adapters/lock/owner.js";
import { withoutLinks } from "./fixture.js";

let dir = "";
let root = "";
let path = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-flock-fallback-"));
  root = join(dir, "locks");
  path = join(dir, "recipe.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const node = makeNodeFileSystem();
const lockFileOf = async (p: string): Promise<string> => lockFilePath(root, await canonicalLockPath(node, p));
const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid!;


async function plant(text: string, mtimeMs = Date.now()): Promise<string> {
  const file = await lockFileOf(path);
  await mkdir(root, { recursive: true });
  await writeFile(file, text);
  await utimes(file, mtimeMs / 1000, mtimeMs / 1000);
  return file;
}

describe("a file system without hard links", () => {
  it.each(["EPERM", "UNKNOWN", "EINVAL"] as const)("(link fails with %s) still excludes other lock users and records the owner", async (code) => {
    const fs = withoutLinks(code);
    const first = makeFileLock({ fs, lockRoot: root });
    const second = makeFileLock({ fs, lockRoot: root });
    const held = await first.acquire(path);
    const record = decodeOwner(await readFile(await lockFileOf(path), "utf8"));
    expect(record).toMatchObject({ pid: process.pid, start_time: nodeProcessProbe.startTime(process.pid) });
    const waited = await second.acquire(path, { timeoutMs: 60 }).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(LockTimeoutError);
    expect((waited as Error).message).toBe(`Timed out after 60 ms waiting for the lock on ${path}; held by pid ${process.pid} (this process) since ${record!.acquired_at}`);
    await held.release();
    // a hang guard: a released key is free at once, also on a loaded machine
    const next = await second.acquire(path, { timeoutMs: 5000 });
    await next.release();
    // no record temp and no lock file left behind
    expect(await readdir(root)).toEqual([]);
  });

  it("takes over a dead owner's lock", async () => {
    await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const held = await makeFileLock({ fs: withoutLinks("EPERM"), lockRoot: root }).acquire(path, { timeoutMs: 3_600_000 });
    expect(decodeOwner(await readFile(await lockFileOf(path), "utf8"))?.pid).toBe(process.pid);
    await held.release();
    expect(await readdir(root)).toEqual([]);
  });

  it("a record write that fails leaves no lock behind: the key is free at once", async () => {
    const failing: FileSystem = {
      ...withoutLinks("EPERM"),
      open: async (p, flag, mode) => {
        const handle = await node.open(p, flag, mode);
        return { ...handle, write: () => Promise.reject(new FsError("UNKNOWN", "handle.write", p, "ENOSPC: no space left", { rawCode: "ENOSPC" })) };
      },
    };
    await expect(makeFileLock({ fs: failing, lockRoot: root }).acquire(path)).rejects.toMatchObject({ rawCode: "ENOSPC" });
    expect(await readdir(root)).toEqual([]);
    // without the clean-up the unreadable lock would count as alive for the whole grace period
    // well inside the 2 s grace an unreadable lock would get, and long enough for a loaded machine
    const held = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 1000 });
    await held.release();
  });

  it("a writer whose lock was taken over while it wrote its record does not count it as its own", async () => {
    const other = encodeOwner(makeOwnerRecord("other", Date.now(), { ...nodeProcessProbe, pid: 1 }));
    const robbed: FileSystem = {
      ...withoutLinks("EPERM"),
      open: async (p, flag, mode) => {
        const handle = await node.open(p, flag, mode);
        return {
          ...handle,
          write: async (data) => {
            await handle.write(data);
            // the file is replaced by a live owner's lock before the writer looks again
            await writeFile(`${p}.new`, other);
            await node.rename(`${p}.new`, p);
          },
        };
      },
    };
    const err = await makeFileLock({ fs: robbed, lockRoot: root }).acquire(path, { timeoutMs: 60 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).holder?.pid).toBe(1);
    expect(await readFile(await lockFileOf(path), "utf8")).toBe(other);
  });

  it("a folder this user may not write gives a LockAccessError", async () => {
    const denied: FileSystem = {
      ...withoutLinks("EPERM"),
      open: (p) => Promise.reject(new FsError("EACCES", "open", p, `EACCES: open '${p}'`)),
    };
    await mkdir(root, { recursive: true });
    await expect(makeFileLock({ fs: denied, lockRoot: root }).acquire(path)).rejects.toMatchObject({ name: "LockAccessError", lockRoot: root });
  });
});

describe("a lock file this user may not read", () => {
  const unreadable = (code: "EACCES" | "EPERM"): FileSystem => ({
    ...node,
    readFile: (p) => (/\.lock(\.|$)/.test(p) ? Promise.reject(new FsError(code, "readFile", p, `${code}: readFile '${p}'`)) : node.readFile(p)),
  });

  it.each(["EACCES", "EPERM"] as const)("(%s) counts as alive for the grace period, then is reclaimed", async (code) => {
    // a dead owner's record: readable, it would be reclaimed at once
    await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const lock = makeFileLock({ fs: unreadable(code), lockRoot: root, unownedGraceMs: 300 });
    const early = await lock.acquire(path, { timeoutMs: 40 }).catch((e: unknown) => e);
    expect((early as Error).message).toBe(`Timed out after 40 ms waiting for the lock on ${path}; held by an owner without a readable record`);
    const held = await lock.acquire(path, { timeoutMs: 5000 });
    await held.release();
  });
});

describe("a lock that changes hands while it is being reclaimed", () => {
  it("a dead owner's lock replaced by a live owner's just before the move aside is put back, not deleted", async () => {
    const file = await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const live = encodeOwner(makeOwnerRecord("live", Date.now(), { ...nodeProcessProbe, pid: 1 }));
    let swapped = false;
    const racing: FileSystem = {
      ...node,
      rename: async (from, to) => {
        if (from === file && to.endsWith(".stale") && !swapped) {
          swapped = true;
          // a new owner took the lock between the reclaimer's last look and its move
          await writeFile(`${file}.new`, live);
          await node.rename(`${file}.new`, file);
        }
        return node.rename(from, to);
      },
    };
    const err = await makeFileLock({ fs: racing, lockRoot: root }).acquire(path, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(swapped).toBe(true);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(await readFile(file, "utf8")).toBe(live);
    // nothing moved aside is left over
    expect((await readdir(root)).filter((n) => n.endsWith(".stale"))).toEqual([]);
  });

  it("a dead owner's lock replaced by a live owner's while the reclaimer takes its boundary is left alone", async () => {
    const file = await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const live = encodeOwner(makeOwnerRecord("live", Date.now(), { ...nodeProcessProbe, pid: 1 }));
    const racing: FileSystem = {
      ...node,
      link: async (from, to) => {
        if (to === `${file}.reclaim`) await writeFile(file, live);
        return node.link(from, to);
      },
    };
    const err = await makeFileLock({ fs: racing, lockRoot: root }).acquire(path, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(await readFile(file, "utf8")).toBe(live);
    expect(await readdir(root)).toEqual([file.slice(root.length + 1)]);
  });

  it("waits while another live reclaimer holds the boundary", async () => {
    const file = await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    await writeFile(`${file}.reclaim`, encodeOwner(makeOwnerRecord("reclaimer", Date.now(), { ...nodeProcessProbe, pid: 1 })));
    const err = await makeFileLock({ lockRoot: root }).acquire(path, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((await readdir(root)).sort()).toEqual([file, `${file}.reclaim`].map((f) => f.slice(root.length + 1)).sort());
  });
});

describe("stray temps in the lock folder", () => {
  it("removes unreadable strays past the grace period only, and only dot-files named like strays", async () => {
    await mkdir(root, { recursive: true });
    const old = (Date.now() - 60_000) / 1000;
    const names = [".a.lock.t1.tmp", ".b.lock.t2.stale", ".c.lock.t3.tmp", "d.lock.t4.tmp", ".e.lock.t5.tmp.bak", ".f.lock.t6.stale"];
    for (const n of names) await writeFile(join(root, n), "half a record");
    for (const n of names.filter((n) => n !== ".c.lock.t3.tmp")) await utimes(join(root, n), old, old);
    await mkdir(join(root, ".g.lock.t7.tmp"));
    await utimes(join(root, ".g.lock.t7.tmp"), old, old);
    await makeFileLock({ lockRoot: root, unownedGraceMs: 10_000 }).withLock(path, () => undefined);
    expect((await readdir(root)).sort()).toEqual([".c.lock.t3.tmp", ".e.lock.t5.tmp.bak", ".g.lock.t7.tmp", "d.lock.t4.tmp"]);
  });

  it("sweeps once per Lock", async () => {
    const lock = makeFileLock({ lockRoot: root });
    await lock.withLock(path, () => undefined);
    const stray = join(root, ".a.lock.t1.tmp");
    await writeFile(stray, encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    await lock.withLock(path, () => undefined);
    expect(await readdir(root)).toEqual([".a.lock.t1.tmp"]);
    await makeFileLock({ lockRoot: root }).withLock(path, () => undefined);
    expect(await readdir(root)).toEqual([]);
  });
});

describe("a lock folder this user may not create or write", () => {
  it("gives a LockAccessError naming the folder when it cannot be made, and passes other failures on", async () => {
    const denied: FileSystem = { ...node, mkdir: (p) => Promise.reject(new FsError("EACCES", "mkdir", p, `EACCES: mkdir '${p}'`)) };
    await expect(makeFileLock({ fs: denied, lockRoot: root }).acquire(path)).rejects.toMatchObject({ name: "LockAccessError", lockRoot: root });
    const broken: FileSystem = { ...node, mkdir: (p) => Promise.reject(new FsError("UNKNOWN", "mkdir", p, "ENOSPC: mkdir", { rawCode: "ENOSPC" })) };
    await expect(makeFileLock({ fs: broken, lockRoot: root }).acquire(path)).rejects.toMatchObject({ name: "FsError", rawCode: "ENOSPC" });
  });

  it("gives a LockAccessError when the record cannot be written there", async () => {
    const denied: FileSystem = { ...node, writeFile: (p) => Promise.reject(new FsError("EPERM", "writeFile", p, `EPERM: writeFile '${p}'`)) };
    await expect(makeFileLock({ fs: denied, lockRoot: root }).acquire(path)).rejects.toMatchObject({ name: "LockAccessError", lockRoot: root });
    expect(await readdir(root)).toEqual([]);
  });
});

describe("a release that fails", () => {
  const noUnlink: FileSystem = { ...node, unlink: (p) => Promise.reject(new FsError("UNKNOWN", "unlink", p, "EIO: unlink", { rawCode: "EIO" })) };

  it("is reported after a section that succeeded", async () => {
    await expect(makeFileLock({ fs: noUnlink, lockRoot: root }).withLock(path, () => "done")).rejects.toMatchObject({ rawCode: "EIO" });
  });

  it("gives way to the section's own error", async () => {
    await expect(
      makeFileLock({ fs: noUnlink, lockRoot: root }).withLock(path, () => {
        throw new Error("the section failed");
      }),
    ).rejects.toThrow("the section failed");
  });

  it("a lock file already gone at release is fine", async () => {
    const gone: FileSystem = { ...node, unlink: async (p) => {
      await node.unlink(p);
      throw new FsError("ENOENT", "unlink", p, "ENOENT: unlink");
    } };
    expect(await makeFileLock({ fs: gone, lockRoot: root }).withLock(path, () => "done")).toBe("done");
  });
});

describe("moving a dead owner's lock aside", () => {
  const refusingAside = (fail: (from: string) => Promise<never>): FileSystem => ({
    ...node,
    rename: (from, to) => (to.endsWith(".stale") && from.endsWith(".lock") ? fail(from) : node.rename(from, to)),
  });

  it("a lock this user may not move (another user's, in a sticky folder) is waited for", async () => {
    const file = await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const sticky = refusingAside((from) => Promise.reject(new FsError("EPERM", "rename", from, "EPERM: rename")));
    await expect(makeFileLock({ fs: sticky, lockRoot: root }).acquire(path, { timeoutMs: 60 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await readdir(root)).toEqual([file.slice(root.length + 1)]);
  });

  it("a lock that vanished before the move is free", async () => {
    await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const vanishing = refusingAside(async (from) => {
      await node.unlink(from);
      throw new FsError("ENOENT", "rename", from, "ENOENT: rename");
    });
    // the wait is a hang guard, not a timing goal: a loaded machine took longer than 60 ms here
    const held = await makeFileLock({ fs: vanishing, lockRoot: root }).acquire(path, { timeoutMs: 5000 });
    await held.release();
    expect(await readdir(root)).toEqual([]);
  });

  it("any other failure is the caller's error", async () => {
    await plant(encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() }));
    const broken = refusingAside((from) => Promise.reject(new FsError("UNKNOWN", "rename", from, "EIO: rename", { rawCode: "EIO" })));
    await expect(makeFileLock({ fs: broken, lockRoot: root }).acquire(path, { timeoutMs: 5000 })).rejects.toMatchObject({ rawCode: "EIO" });
    // the boundary it took is released on the way out
    expect((await readdir(root)).filter((n) => n.endsWith(".reclaim"))).toEqual([]);
  });
});
