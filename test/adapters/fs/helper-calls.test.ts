// The helpers written once on the FileSystem port, seen through the calls they make: what gets
// flushed, in which order, and that every handle they open is closed, also when a step fails.
import { describe, expect, it } from "vitest";
import { FsError, fsyncFile, readJson, readText, writeFileAtomic, type FileHandle, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";

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
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function" || typeof key !== "string") return value;
      return async (...args: unknown[]) => {
        calls.push(key);
        fail(key);
        const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        return key === "open" ? wrapHandle(out as FileHandle) : out;
      };
    },
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
  it("writes and flushes a temp, closes it, renames it over the target, then flushes the folder", async () => {
    const { fs, calls } = recording();
    await fs.mkdir("/d", { recursive: true });
    calls.length = 0;
    await writeFileAtomic(fs, "/d/f.json", "new");
    expect(calls).toEqual(["open", "handle.write", "handle.sync", "handle.close", "rename", "fsyncDir"]);
    expect(await readText(fs, "/d/f.json")).toBe("new");
  });

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

describe("readText and readJson refusals keep the decoder's error as their cause", () => {
  it("bytes that are no UTF-8", async () => {
    const { fs } = recording();
    await fs.writeFile("/bad", new Uint8Array([0x66, 0xff, 0x66]));
    const e = await readText(fs, "/bad").catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "EILSEQ", syscall: "readFile", path: "/bad", message: "EILSEQ: readFile '/bad' is not valid UTF-8" });
    expect((e as FsError).cause).toBeInstanceOf(TypeError);
  });

  it("text that is no JSON", async () => {
    const { fs } = recording();
    await fs.writeFile("/bad.json", "{ nope");
    const e = await readJson(fs, "/bad.json").catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "EINVAL", syscall: "readFile", path: "/bad.json" });
    expect((e as FsError).message).toMatch(/^EINVAL: readFile '\/bad\.json' is not valid JSON \(.+\)$/);
    expect((e as FsError).cause).toBeInstanceOf(SyntaxError);
  });
});
