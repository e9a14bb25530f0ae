// What the lock leaves behind it: a section's call chain holds the lock only while the section
// runs, and the first acquire's sweep of strays removes only regular files of dead processes.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockReentryError } from "../../../adapters/lock/Lock.js";
import { encodeOwner, makeOwnerRecord } from "../../../adapters/lock/owner.js";

let dir = "";
let root = "";
let path = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-lock-chain-"));
  root = join(dir, "locks");
  path = join(dir, "recipe.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("a section that fails does not outlive itself: work it started, run later, may take the lock", async () => {
  const lock = makeFileLock({ lockRoot: root });
  let later: Promise<string> | undefined;
  const failed = await lock
    .withLock(path, () => {
      later = new Promise((done) => setTimeout(done, 20)).then(() => lock.withLock(path, () => "later"));
      throw new Error("the section failed");
    })
    .catch((e: unknown) => (e as Error).message);
  expect(failed).toBe("the section failed");
  expect(await later).toBe("later");
});

it("the sweep of strays leaves a symlink alone, whatever it points to", async () => {
  await mkdir(root, { recursive: true });
  const dead = encodeOwner({ ...makeOwnerRecord("dead", 0), pid: spawnSync(process.execPath, ["-e", "0"]).pid! });
  await writeFile(join(dir, "target"), dead);
  await symlink(join(dir, "target"), join(root, ".x.lock.link.tmp"));
  await makeFileLock({ lockRoot: root }).withLock(path, () => undefined);
  expect(await readdir(root)).toEqual([".x.lock.link.tmp"]);
});

it("a call chain that holds two locks may take neither again", async () => {
  const lock = makeFileLock({ lockRoot: root });
  const other = join(dir, "other.json");
  const again = await lock.withLock(path, () => lock.withLock(other, () => lock.withLock(path, () => "taken", { timeoutMs: 200 }).catch((e: unknown) => e)));
  expect(again).toBeInstanceOf(LockReentryError);
});
