// The lock where the file system refuses hard links: the lock file is created with open("wx")
// and its record written after. The file handle is always closed, and a write that fails leaves
// no lock of this caller behind, but never removes another owner's lock.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FsError, type FileHandle } from "../../../adapters/fs/FileSystem.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { decodeOwner, encodeOwner, makeOwnerRecord } from "../../../adapters/lock/owner.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { useLockDir, withoutLinks } from "./fixture.js";

const at = useLockDir("pi-recipes-lock-wx-");

/** A lock on a file system without hard links whose lock-file handles write through `write`. */
function lockWithoutLinks(write: (real: FileHandle, data: Uint8Array | string) => Promise<void>, closed: string[]) {
  const fs = interceptFs(withoutLinks("EPERM"), async (name, args, call) => {
    const result = await call();
    if (name !== "open" || String(args[0]) !== at.lockFile) return result;
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
  return makeFileLock({ lockRoot: at.root, fs });
}

describe("without hard links", () => {
  it("takes and releases the lock, and closes the lock file's handle", async () => {
    const closed: string[] = [];
    const lock = lockWithoutLinks((real, data) => real.write(data), closed);
    let inside = "";
    await lock.withLock(at.path, async () => void (inside = await readFile(at.lockFile, "utf8")), { timeoutMs: 1_000 });
    expect(decodeOwner(inside)?.pid).toBe(process.pid);
    expect(closed).toEqual([at.lockFile]);
    expect(await readdir(at.root)).toEqual([]);
  });

  it("a record write that fails after writing it leaves no lock of the caller behind", async () => {
    const closed: string[] = [];
    const lock = lockWithoutLinks(async (real, data) => {
      await real.write(data);
      throw new FsError("UNKNOWN", "handle.write", at.lockFile, "EIO: write", { rawCode: "EIO" });
    }, closed);
    await expect(lock.withLock(at.path, () => undefined, { timeoutMs: 1_000 })).rejects.toMatchObject({ rawCode: "EIO" });
    expect(closed).toEqual([at.lockFile]);
    expect(await readdir(at.root)).toEqual([]);
  });

  it("a record write that fails while another owner has taken the lock over leaves that owner's lock", async () => {
    const theirs = encodeOwner(makeOwnerRecord("theirs", Date.now()));
    const lock = lockWithoutLinks(async () => {
      // meanwhile another process judged the half-written lock dead and wrote its own
      await writeFile(at.lockFile, theirs);
      throw new FsError("UNKNOWN", "handle.write", at.lockFile, "EIO: write", { rawCode: "EIO" });
    }, []);
    await expect(lock.withLock(at.path, () => undefined, { timeoutMs: 1_000 })).rejects.toMatchObject({ rawCode: "EIO" });
    expect(await readFile(at.lockFile, "utf8")).toBe(theirs);
  });
});
