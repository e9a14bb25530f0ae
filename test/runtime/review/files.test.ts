// The review runtime's small file helpers on an in-memory volume: which failures read as absent
// and which are real errors, the exact JSON written, a digest only of a regular file, and folders
// made durable up to the recipe root.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { durableChain, exists, fileSha, readJsonOrUndefined, writeJson } from "../../../runtime/review/files.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { makeCrashingFileSystem, recoverView } from "../../../props/support/crash-fs.js";

const volume = () =>
  makeMemFileSystem(
    Volume.fromJSON({ "/r/good.json": '{"a":1}', "/r/bad.json": "{nope", "/r/file.txt": "plain", "/r/sub/x": "x" }) as Volume,
  );
const failing = (code: "EACCES" | "EBUSY", on: string) =>
  interceptFs(volume(), async (name, args, call) => (name === on ? Promise.reject(new FsError(code, on as "lstat", String(args[0]), `${code}: ${on}`)) : call()));

describe("readJsonOrUndefined", () => {
  it("reads JSON; a missing file, a path through a file, bad JSON and bad UTF-8 are absent", async () => {
    const fs = volume();
    await fs.writeFile("/r/latin1.json", new Uint8Array([0x22, 0xff, 0x22]));
    expect(await readJsonOrUndefined(fs, "/r/good.json")).toEqual({ a: 1 });
    expect(await readJsonOrUndefined(fs, "/r/missing.json")).toBeUndefined();
    expect(await readJsonOrUndefined(fs, "/r/file.txt/x.json")).toBeUndefined();
    expect(await readJsonOrUndefined(fs, "/r/bad.json")).toBeUndefined();
    expect(await readJsonOrUndefined(fs, "/r/latin1.json")).toBeUndefined();
  });

  it("any other failure is an error", async () => {
    await expect(readJsonOrUndefined(failing("EACCES", "readFile"), "/r/good.json")).rejects.toThrow("EACCES: readFile");
  });
});

describe("writeJson", () => {
  it("writes two-space JSON ending in a newline, making the folders it needs", async () => {
    const fs = volume();
    await writeJson(fs, "/r/new/deep/v.json", { a: [1], b: "x" });
    expect(new TextDecoder().decode(await fs.readFile("/r/new/deep/v.json"))).toBe('{\n  "a": [\n    1\n  ],\n  "b": "x"\n}\n');
  });
});

describe("fileSha", () => {
  it("is the sha256 of a regular file's bytes; nothing for a folder, a symlink, a missing path or a path through a file", async () => {
    const fs = volume();
    await fs.symlink("/r/good.json", "/r/link.json");
    expect(await fileSha(fs, "/r/good.json")).toBe(createHash("sha256").update('{"a":1}').digest("hex"));
    expect(await fileSha(fs, "/r/sub")).toBeUndefined();
    expect(await fileSha(fs, "/r/link.json")).toBeUndefined();
    expect(await fileSha(fs, "/r/missing")).toBeUndefined();
    expect(await fileSha(fs, "/r/file.txt/x")).toBeUndefined();
  });

  it("any other failure is an error", async () => {
    await expect(fileSha(failing("EBUSY", "lstat"), "/r/good.json")).rejects.toThrow("EBUSY: lstat");
  });
});

describe("exists", () => {
  it("is true for a file, a folder and a dangling symlink; false for a missing path or a path through a file", async () => {
    const fs = volume();
    await fs.symlink("/r/nowhere", "/r/dangling");
    expect(await exists(fs, "/r/good.json")).toBe(true);
    expect(await exists(fs, "/r/sub")).toBe(true);
    expect(await exists(fs, "/r/dangling")).toBe(true);
    expect(await exists(fs, "/r/missing")).toBe(false);
    expect(await exists(fs, "/r/file.txt/x")).toBe(false);
  });

  it("any other failure is an error", async () => {
    await expect(exists(failing("EACCES", "lstat"), "/r/sub")).rejects.toThrow("EACCES: lstat");
  });
});

describe("durableChain", () => {
  it("folders another component made with a plain mkdir survive a power failure once the chain is durable", async () => {
    const inner = volume();
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity });
    await fs.mkdir("/r/a/b", { recursive: true });
    await durableChain(fs, "/r/a/b/c", "/r");
    await fs.crash();
    expect(await exists(recoverView(inner), "/r/a/b/c")).toBe(true);
  });

  it("without the chain the plainly made folders are lost (the case above is not vacuous)", async () => {
    const inner = volume();
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity });
    await fs.mkdir("/r/a/b", { recursive: true });
    await fs.crash();
    expect(await exists(recoverView(inner), "/r/a")).toBe(false);
  });

  it("fsyncs each folder from the new one's parent up to the root and none above it; a folder outside the root is only made", async () => {
    const synced: string[] = [];
    const fs = interceptFs(volume(), async (name, args, call) => {
      if (name === "fsyncDir") synced.push(String(args[0]));
      return call();
    });
    await fs.mkdir("/r/a/b", { recursive: true });
    await durableChain(fs, "/r/a/b/c", "/r");
    expect(synced).toEqual(["/r/a/b", "/r/a/b", "/r/a", "/r"]);
    synced.length = 0;
    await durableChain(fs, "/elsewhere", "/r");
    expect(synced).toEqual(["/"]);
    synced.length = 0;
    await durableChain(fs, "/r", "/r");
    expect(synced).toEqual([]);
  });
});
