// What the lock leaves behind it: a section's call chain holds the lock only while the section
// runs, and the first acquire's sweep of strays removes only regular files of dead processes.
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockReentryError } from "../../../adapters/lock/Lock.js";
import { deadOwner, useLockDir } from "./fixture.js";

const at = useLockDir("pi-recipes-lock-chain-");

it("a section that fails does not outlive itself: work it started, run later, may take the lock", async () => {
  const lock = makeFileLock({ lockRoot: at.root });
  let later: Promise<string> | undefined;
  const failed = await lock
    .withLock(at.path, () => {
      later = new Promise((done) => setTimeout(done, 20)).then(() => lock.withLock(at.path, () => "later"));
      throw new Error("the section failed");
    })
    .catch((e: unknown) => (e as Error).message);
  expect(failed).toBe("the section failed");
  expect(await later).toBe("later");
});

it("the sweep of strays leaves a symlink alone, whatever it points to", async () => {
  await mkdir(at.root, { recursive: true });
  await writeFile(join(at.dir, "target"), deadOwner());
  await symlink(join(at.dir, "target"), join(at.root, ".x.lock.link.tmp"));
  await makeFileLock({ lockRoot: at.root }).withLock(at.path, () => undefined);
  expect(await readdir(at.root)).toEqual([".x.lock.link.tmp"]);
});

it("a call chain that holds two locks may take neither again", async () => {
  const lock = makeFileLock({ lockRoot: at.root });
  const other = join(at.dir, "other.json");
  const again = await lock.withLock(at.path, () => lock.withLock(other, () => lock.withLock(at.path, () => "taken", { timeoutMs: 200 }).catch((e: unknown) => e)));
  expect(again).toBeInstanceOf(LockReentryError);
});

// The chain's async context is switched off whenever no section runs (so that promise work after a
// section pays no hook); re-entry must still be refused in every section that runs, including one
// that outlives a section beside it and one that starts after the chain was switched off.
it("re-entry is refused in a section that outlives another, and in one after all had ended", async () => {
  const lock = makeFileLock({ lockRoot: at.root });
  const other = join(at.dir, "other.json");
  let endShort!: () => void;
  const shortEnded = new Promise<void>((done) => (endShort = done));
  const long = lock.withLock(at.path, async () => {
    await shortEnded; // the section beside it has ended by now
    return lock.withLock(at.path, () => "taken", { timeoutMs: 200 }).catch((e: unknown) => e);
  });
  await lock.withLock(other, () => undefined);
  endShort();
  expect(await long).toBeInstanceOf(LockReentryError);
  // every section has ended: a new one starts the chain again
  expect(await lock.withLock(other, () => lock.withLock(other, () => "taken", { timeoutMs: 200 }).catch((e: unknown) => e))).toBeInstanceOf(LockReentryError);
  expect(await lock.withLock(other, () => lock.withLock(at.path, () => "nested"))).toBe("nested");
});
