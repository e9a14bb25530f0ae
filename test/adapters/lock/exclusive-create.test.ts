// The lock where the file system refuses hard links: the lock file is created with open("wx")
// and its record written after. The file handle is always closed, and a write that fails leaves
// no lock of this caller behind, but never removes another owner's lock.
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsError, type FileHandle } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath } from "../../../adapters/lock/canonical.js";
import { lockFilePath, makeFileLock } from "../../../adapters/lock/file-lock.js";
import { decodeOwner, encodeOwner, makeOwnerRecord } from "../../../adapters/lock/owner.js";
import { interceptFs } from "../../support/intercept-fs.js";

let dir = "";
let root = "";
let path = "";
let lockFile = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-lock-wx-"));
  root = join(dir, "locks");
  path = join(dir, "recipe.json");
  lockFile = lockFilePath(root, await canonicalLockPath(makeNodeFileSystem(), path));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A lock on a file system without hard links whose lock-file handles write through `write`. */
function lockWithoutLinks(write: (real: FileHandle, data: Uint8Array | string) => Promise<void>, closed: string[]) {
  const fs = interceptFs(makeNodeFileSystem(), async (name, args, call) => {
    if (name === "link") throw new FsError("EPERM", "link", String(args[1]), "EPERM: link (no hard links here)");
    const result = await call();
    if (name !== "open" || String(args[0]) !== lockFile) return result;
    const real = result as FileHandle;
    const handle: FileHandle = {
      write: (data) => write(real, data),
      sync: () => real.sync(),
      close: async () => {
        closed.push(String(args[0]));
        await real.close();
      },
    };
    return handle;
  });
  return makeFileLock({ lockRoot: root, fs });
}

describe("without hard links", () => {
  it("takes and releases the lock, and closes the lock file's handle", async () => {
    const closed: string[] = [];
    const lock = lockWithoutLinks((real, data) => real.write(data), closed);
    let inside = "";
    await lock.withLock(path, async () => void (inside = await readFile(lockFile, "utf8")), { timeoutMs: 1_000 });
    expect(decodeOwner(inside)?.pid).toBe(process.pid);
    expect(closed).toEqual([lockFile]);
    expect(await readdir(root)).toEqual([]);
  });

  it("a record write that fails after writing it leaves no lock of the caller behind", async () => {
    const closed: string[] = [];
    const lock = lockWithoutLinks(async (real, data) => {
      await real.write(data);
      throw new FsError("UNKNOWN", "handle.write", lockFile, "EIO: write", { rawCode: "EIO" });
    }, closed);
    await expect(lock.withLock(path, () => undefined, { timeoutMs: 1_000 })).rejects.toMatchObject({ rawCode: "EIO" });
    expect(closed).toEqual([lockFile]);
    expect(await readdir(root)).toEqual([]);
  });

  it("a record write that fails while another owner has taken the lock over leaves that owner's lock", async () => {
    const theirs = encodeOwner(makeOwnerRecord("theirs", Date.now()));
    const lock = lockWithoutLinks(async () => {
      // meanwhile another process judged the half-written lock dead and wrote its own
      await writeFile(lockFile, theirs);
      throw new FsError("UNKNOWN", "handle.write", lockFile, "EIO: write", { rawCode: "EIO" });
    }, []);
    await expect(lock.withLock(path, () => undefined, { timeoutMs: 1_000 })).rejects.toMatchObject({ rawCode: "EIO" });
    expect(await readFile(lockFile, "utf8")).toBe(theirs);
  });
});
