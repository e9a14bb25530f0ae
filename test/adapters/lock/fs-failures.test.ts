// The lock when the file system fails one of its calls: a lock that vanishes between two looks is
// taken again at once, a file this user may not read is a lock without a readable record, a link
// that cannot work falls back to an exclusive create, and every other failure reaches the caller
// as the file system's own error instead of being retried or renamed.
import { readdir, rm, unlink } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FsError, type FsErrorCode } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockAccessError, LockTimeoutError } from "../../../adapters/lock/Lock.js";
import { encodeOwner, makeOwnerRecord } from "../../../adapters/lock/owner.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { deadOwner, plantLock, useLockDir } from "./fixture.js";

const at = useLockDir("pi-recipes-lock-fail-");

const failure = (code: FsErrorCode, syscall: "stat" | "readFile" | "writeFile" | "link" | "open" | "rename", at: string, raw?: string): FsError =>
  new FsError(code, syscall, at, `${raw ?? code}: ${syscall} '${at}'`, raw === undefined ? {} : { rawCode: raw });

const plant = (text: string, ageMs = 0): Promise<void> => plantLock(at, text, ageMs);

/**
 * A lock over the real file system whose calls named in `fail` fail as told: each entry is asked,
 * call by call, whether to fail this one (it may also change the disk first, as a racing process
 * would). An entry answers undefined to let the call through.
 */
function lockWith(fail: (name: string, target: string, nth: number) => Promise<FsError | undefined> | FsError | undefined) {
  const seen = new Map<string, number>();
  const fs = interceptFs(makeNodeFileSystem(), async (name, args, call) => {
    // the path a call is about: link(existing, newPath) makes newPath
    const target = String(name === "link" ? args[1] : args[0]);
    const key = `${name} ${target}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const error = await fail(name, target, nth);
    if (error !== undefined) throw error;
    return call();
  });
  return makeFileLock({ lockRoot: at.root, fs });
}

const isLock = (target: string): boolean => target === at.lockFile;
const isTemp = (target: string): boolean => target.endsWith(".tmp") && !target.includes(".reclaim.");
const take = async (lock: ReturnType<typeof makeFileLock>, timeoutMs = 10_000): Promise<"taken"> => {
  await lock.withLock(at.path, () => undefined, { timeoutMs });
  return "taken";
};

describe("a lock that vanishes between two looks is taken at once", () => {
  it("gone before its stat (the link said it existed)", async () => {
    // the first link answers EEXIST though no lock is there: the look that follows finds nothing
    const lock = lockWith((name, target, nth) => (name === "link" && isLock(target) && nth === 1 ? failure("EEXIST", "link", target) : undefined));
    expect(await take(lock)).toBe("taken");
  });

  it("gone between its stat and its read", async () => {
    await plant(encodeOwner(makeOwnerRecord("alive", Date.now())));
    const lock = lockWith(async (name, target, nth) => {
      if (name !== "readFile" || !isLock(target) || nth !== 1) return undefined;
      await unlink(at.lockFile);
      return failure("ENOENT", "readFile", target);
    });
    expect(await take(lock)).toBe("taken");
  });

  it("gone when a reclaimer moves the dead owner's lock aside", async () => {
    await plant(deadOwner());
    const lock = lockWith(async (name, target, nth) => {
      if (name !== "rename" || !isLock(target) || nth !== 1) return undefined;
      await unlink(at.lockFile);
      return failure("ENOENT", "rename", target);
    });
    expect(await take(lock)).toBe("taken");
    expect(await readdir(at.root)).toEqual([]);
  });
});

describe("a dead owner's lock moved aside", () => {
  it("is taken though another process's sweep removed the moved-aside file first", async () => {
    await plant(deadOwner());
    const lock = lockWith(async (name, target) => {
      // another process's first acquire sweeps strays, the moved-aside lock among them
      if (name === "rm" && target.endsWith(".stale")) await rm(target, { force: true });
      return undefined;
    });
    expect(await take(lock)).toBe("taken");
    expect(await readdir(at.root)).toEqual([]);
  });
});

describe("a lock file this user may not read", () => {
  it("is a lock without a readable record: past the grace period it is reclaimed", async () => {
    await plant(encodeOwner(makeOwnerRecord("alive", Date.now())), 3_600_000);
    // unreadable where it lies and where it is moved aside, as a file of another user would be
    const lock = lockWith((name, target) => (name === "readFile" && (isLock(target) || target.endsWith(".stale")) ? failure("EACCES", "readFile", target) : undefined));
    expect(await take(lock)).toBe("taken");
  });
});

describe("other failures reach the caller as they are", () => {
  const cases: { what: string; code: FsErrorCode; raw?: string; fail: (name: string, target: string, nth: number) => FsError | undefined; planted?: () => Promise<void> }[] = [
    {
      what: "a stat of the lock that fails otherwise than ENOENT",
      code: "UNKNOWN",
      raw: "EIO",
      planted: () => plant(encodeOwner(makeOwnerRecord("alive", Date.now()))),
      fail: (name, target) => (name === "stat" && isLock(target) ? failure("UNKNOWN", "stat", target, "EIO") : undefined),
    },
    {
      what: "a read of the lock that fails otherwise than ENOENT, EACCES or EPERM",
      code: "UNKNOWN",
      raw: "EIO",
      planted: () => plant(encodeOwner(makeOwnerRecord("alive", Date.now()))),
      fail: (name, target) => (name === "readFile" && isLock(target) ? failure("UNKNOWN", "readFile", target, "EIO") : undefined),
    },
    {
      what: "a write of the record's temp that fails otherwise than ENOENT (which means the lock folder is gone)",
      code: "UNKNOWN",
      raw: "ENOSPC",
      // once: a second try would succeed, and must not be made
      fail: (name, target, nth) => (name === "writeFile" && isTemp(target) && nth === 1 ? failure("UNKNOWN", "writeFile", target, "ENOSPC") : undefined),
    },
    {
      what: "a link that fails otherwise than EEXIST or as unsupported",
      code: "EMFILE",
      fail: (name, target) => (name === "link" && isLock(target) ? failure("EMFILE", "link", target) : undefined),
    },
    {
      what: "an exclusive create (links unsupported) that fails otherwise than EEXIST, EACCES or EPERM",
      code: "EMFILE",
      fail: (name, target) =>
        name === "link" && isLock(target) ? failure("EPERM", "link", target) : name === "open" && isLock(target) ? failure("EMFILE", "open", target) : undefined,
    },
    {
      what: "a move aside of a dead owner's lock that fails otherwise than ENOENT, EACCES or EPERM",
      code: "EBUSY",
      planted: async () => plant(deadOwner()),
      fail: (name, target) => (name === "rename" && isLock(target) ? failure("EBUSY", "rename", target) : undefined),
    },
  ];

  it.each(cases)("$what", async ({ code, raw, fail, planted }) => {
    await planted?.();
    const error = await take(lockWith(fail), 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FsError);
    expect(error).not.toBeInstanceOf(LockTimeoutError);
    expect(error).not.toBeInstanceOf(LockAccessError);
    expect(error).toMatchObject({ code, rawCode: raw });
  });
});
