// A lock file that bears the caller's own token is the caller's, whatever path led to it: a
// network file system may answer a retried link with EEXIST although the first try linked.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { interceptFs } from "../../support/intercept-fs.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-own-token-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("takes a lock whose link answered EEXIST after linking, and releases it", async () => {
  const fs = interceptFs(makeNodeFileSystem(), async (name, args, call) => {
    const result = await call();
    if (name === "link") throw new FsError("EEXIST", "link", String(args[0]), "EEXIST: link (the reply to a retried request)");
    return result;
  });
  const root = join(dir, "locks");
  const lock = makeFileLock({ lockRoot: root, fs });
  let ran = false;
  await lock.withLock(join(dir, "recipe.json"), () => void (ran = true), { timeoutMs: 1_000 });
  expect(ran).toBe(true);
  expect(await readdir(root)).toEqual([]);
});
