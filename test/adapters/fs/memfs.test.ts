import { Volume } from "memfs";
import { describe, expect, it } from "vitest";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { fileSystemContract } from "./contract.js";

fileSystemContract("memfs", async () => {
  const mem = makeMemFileSystem();
  mem.vol.mkdirSync("/work/root", { recursive: true });
  return { fs: mem, root: "/work/root", cleanup: async () => mem.vol.reset() };
});

describe("makeMemFileSystem", () => {
  it("works on a given volume, visible through vol", async () => {
    const vol = Volume.fromJSON({ "/a/r.json": "{}" });
    const mem = makeMemFileSystem(vol);
    await mem.writeFile("/a/s.md", "x");
    expect(mem.vol).toBe(vol);
    expect(vol.toJSON()).toEqual({ "/a/r.json": "{}", "/a/s.md": "x" });
  });
  it("states where it differs from Linux", () => {
    expect(makeMemFileSystem().capabilities).toEqual({ strictRename: false, strictLink: false, durableSync: false, unlinkDirCode: "EPERM" });
  });
});
