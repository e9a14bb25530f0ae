// A stale lock is moved aside before it is deleted, and what was moved is compared with what was
// judged stale: a lock that changed in the meantime (another process took it, or its writer
// touched it) goes back in place. Here the change is made at the moment of the move, through a
// memfs file system, so the race happens on every run.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { lockFilePath, makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockTimeoutError } from "../../../adapters/lock/Lock.js";
import { encodeOwner, makeOwnerRecord, type ProcessProbe } from "../../../adapters/lock/owner.js";
import { interceptFs } from "../../support/intercept-fs.js";

const ROOT = "/locks";
const DEAD = 111;
const LIVE = 222;
const probeAs = (pid: number): ProcessProbe => ({
  pid,
  hostname: () => "host-a",
  bootId: () => "boot-1",
  startTime: () => "5000",
  signalZero: (p) => (p === DEAD ? "gone" : "exists"),
});
const recordOf = (pid: number, token: string): string => encodeOwner(makeOwnerRecord(token, 0, probeAs(pid)));

/** memfs, where `change` runs on the volume just before the first move of the lock file aside */
function racing(change: (vol: Volume, file: string) => void): { fs: FileSystem; vol: Volume } {
  const vol = new Volume();
  const inner = makeMemFileSystem(vol);
  let raced = false;
  const fs = interceptFs(inner, (name, [from, to], call) => {
    if (name === "rename" && !raced && String(to).endsWith(".stale")) {
      raced = true;
      change(vol, String(from));
    }
    return call();
  });
  return { fs, vol };
}

async function plantedLock(vol: Volume, text: string, mtimeSec: number): Promise<string> {
  const file = lockFilePath(ROOT, "/data/r.json");
  vol.mkdirSync(ROOT, { recursive: true });
  vol.mkdirSync("/data", { recursive: true });
  vol.writeFileSync("/data/r.json", "{}");
  vol.writeFileSync(file, text);
  vol.utimesSync(file, mtimeSec, mtimeSec);
  return file;
}

describe("reclaiming a stale lock that changes while it is moved aside", () => {
  it("a live owner's record written over it (same inode and time) goes back, and the lock is not taken", async () => {
    let planted = "";
    const live = recordOf(LIVE, "live-token");
    const { fs, vol } = racing((v, file) => {
      const { mtime } = v.statSync(file);
      v.writeFileSync(file, live);
      v.utimesSync(file, mtime, mtime);
    });
    planted = await plantedLock(vol, recordOf(DEAD, "dead-token"), 1000);
    const lock = makeFileLock({ lockRoot: ROOT, fs, probe: probeAs(process.pid) });
    await expect(lock.withLock("/data/r.json", () => "in", { timeoutMs: 200 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(String(vol.readFileSync(planted, "utf8"))).toBe(live);
  });

  it("an unowned lock its writer touches goes back: it is young again, and the lock is not taken", async () => {
    let planted = "";
    const { fs, vol } = racing((v, file) => {
      const now = Date.now() / 1000;
      v.utimesSync(file, now, now);
    });
    planted = await plantedLock(vol, "", 1000);
    const lock = makeFileLock({ lockRoot: ROOT, fs, probe: probeAs(process.pid), unownedGraceMs: 60_000 });
    await expect(lock.withLock("/data/r.json", () => "in", { timeoutMs: 200 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(vol.existsSync(planted)).toBe(true);
  });

  it("unchanged, the stale lock is removed and the lock is taken", async () => {
    const { fs, vol } = racing(() => undefined);
    await plantedLock(vol, recordOf(DEAD, "dead-token"), 1000);
    const lock = makeFileLock({ lockRoot: ROOT, fs, probe: probeAs(process.pid) });
    expect(await lock.withLock("/data/r.json", () => "in", { timeoutMs: 2000 })).toBe("in");
    expect(vol.readdirSync(ROOT)).toEqual([]);
  });
});
