// The helpers written once on the FileSystem port, seen through the calls they make: what gets
// flushed, in which order, and that every handle they open is closed, also when a step fails.
import { describe, expect, it } from "vitest";
import { FsError, fsyncFile, readText, writeFileAtomic, type FileHandle, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { interceptFs } from "../../support/intercept-fs.js";

/** a memfs file system that logs each port call, and fails the calls named in `failing` */
function recording(failing: ReadonlySet<string> = new Set()): { fs: FileSystem; calls: string[] } {
  const inner = makeMemFileSystem();
  const calls: string[] = [];
  const fail = (name: string): void => {
    if (failing.has(name)) throw new FsError("UNKNOWN", "open", "/", `${name} failed`);
  };
  const wrapHandle = (h: FileHandle): FileHandle => ({
    write: async (data) => (calls.push("handle.write"), fail("handle.write"), h.write(data)),
    sync: async () => (calls.push("handle.sync"), fail("handle.sync"), h.sync()),
    close: async () => (calls.push("handle.close"), h.close()),
  });
  const fs = interceptFs(inner, async (name, _args, call) => {
    calls.push(name);
    fail(name);
    const out = await call();
    return name === "open" ? wrapHandle(out as FileHandle) : out;
  });
  return { fs, calls };
}

describe("fsyncFile", () => {
  it("opens the file, flushes it and closes it", async () => {
    const { fs, calls } = recording();
    await fs.writeFile("/f", "x");
    calls.length = 0;
    await fsyncFile(fs, "/f");
    expect(calls).toEqual(["open", "handle.sync", "handle.close"]);
  });

  it("closes the file when the flush fails, and rejects with the failure", async () => {
    const { fs, calls } = recording(new Set(["handle.sync"]));
    await fs.writeFile("/f", "x");
    calls.length = 0;
    await expect(fsyncFile(fs, "/f")).rejects.toThrow("handle.sync failed");
    expect(calls).toEqual(["open", "handle.sync", "handle.close"]);
  });
});

describe("writeFileAtomic", () => {
  // the order of a write that succeeds is in the port contract (contract.ts)
  it.each(["handle.write", "handle.sync", "rename"])("when %s fails: the handle is closed, the temp removed, the target untouched", async (step) => {
    const { fs, calls } = recording(new Set([step]));
    await fs.mkdir("/d", { recursive: true });
    await fs.writeFile("/d/f.json", "old");
    calls.length = 0;
    await expect(writeFileAtomic(fs, "/d/f.json", "new")).rejects.toThrow(`${step} failed`);
    expect(calls).toContain("handle.close");
    expect(calls.at(-1)).toBe("rm");
    expect(calls).not.toContain("fsyncDir");
    expect(await readText(fs, "/d/f.json")).toBe("old");
    expect((await fs.readdir("/d")).map((e) => e.name)).toEqual(["f.json"]);
  });
});
