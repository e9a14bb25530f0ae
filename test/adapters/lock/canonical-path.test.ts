import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath, lockKey } from "../../../adapters/lock/canonical-path.js";

const fs = makeNodeFileSystem();
let dir = "";
let real = "";

beforeEach(async () => {
  // the temp dir may itself sit behind a symlink (macOS /tmp): compare against its realpath
  dir = await fs.realpath(await mkdtemp(join(tmpdir(), "pi-recipes-canon-")));
  real = join(dir, "real");
  await mkdir(real);
  await writeFile(join(real, "a.json"), "{}");
  await symlink(real, join(dir, "alias"));
  await symlink(join(real, "a.json"), join(dir, "link.json"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("canonicalLockPath", () => {
  it("gives a real path and its aliases one identity", async () => {
    const key = await canonicalLockPath(fs, join(real, "a.json"));
    expect(key).toBe(join(real, "a.json"));
    expect(await canonicalLockPath(fs, join(dir, "alias", "a.json"))).toBe(key);
    expect(await canonicalLockPath(fs, join(dir, "link.json"))).toBe(key);
    expect(await canonicalLockPath(fs, join(dir, "alias", "..", "real", "a.json"))).toBe(key);
  });

  it("resolves the nearest existing ancestor and keeps the missing segments", async () => {
    expect(await canonicalLockPath(fs, join(dir, "alias", "new", "deeper", "b.json"))).toBe(join(real, "new", "deeper", "b.json"));
  });

  it("keeps the name of a dangling symlink or a symlink loop under its resolved folder", async () => {
    await symlink(join(dir, "nowhere"), join(real, "dangling"));
    await symlink(join(real, "loop"), join(real, "loop"));
    expect(await canonicalLockPath(fs, join(dir, "alias", "dangling"))).toBe(join(real, "dangling"));
    expect(await canonicalLockPath(fs, join(dir, "alias", "loop"))).toBe(join(real, "loop"));
  });

  it("does not merge unrelated paths", async () => {
    expect(await canonicalLockPath(fs, join(real, "b.json"))).not.toBe(await canonicalLockPath(fs, join(real, "a.json")));
  });

  it("lower-cases on Windows", async () => {
    expect(await canonicalLockPath(fs, join(dir, "alias", "New.JSON"), "win32")).toBe(join(real, "New.JSON").toLowerCase());
  });

  it("keeps the whole path when an adapter finds no ancestor at all, lower-cased on Windows", async () => {
    const nothing: FileSystem = { ...fs, realpath: (p) => Promise.reject(new FsError("ENOENT", "realpath", p, `ENOENT: realpath '${p}'`)) };
    expect(await canonicalLockPath(nothing, "/Some/Where.json", "linux")).toBe("/Some/Where.json");
    expect(await canonicalLockPath(nothing, "/Some/Where.json", "win32")).toBe("/some/where.json");
  });

  it("rejects a failure that is not absence: a wrong key would split one lock in two", async () => {
    const denied: FileSystem = { ...fs, realpath: (p) => Promise.reject(new FsError("EACCES", "realpath", p, `EACCES: realpath '${p}'`)) };
    await expect(canonicalLockPath(denied, "/x/y.json")).rejects.toMatchObject({ code: "EACCES" });
  });

  it("works on the memfs adapter", async () => {
    const mem = makeMemFileSystem();
    await mem.mkdir("/r/real", { recursive: true });
    await mem.symlink("/r/real", "/r/alias");
    expect(await canonicalLockPath(mem, "/r/alias/x/y.json")).toBe("/r/real/x/y.json");
  });
});

describe("lockKey", () => {
  it("is the sha256 of the canonical path's UTF-8 bytes, hex", () => {
    // known vectors (printf '/a' | sha256sum), then node:crypto for more paths
    expect(lockKey("/a")).toBe("6a50dc8584134c7de537c0052ff6d236bf874355e050c90523e0c5ff2a543a28");
    expect(lockKey("/tmp/é x.json")).toBe("ca8e3240b3f4fecc2fc610214cc304457389967e7363cb091c0bdca5d4e470cc");
    for (const p of ["/", "/b", "/r/real/x/y.json", "/😀/\u0001"]) expect(lockKey(p)).toBe(createHash("sha256").update(Buffer.from(p, "utf8")).digest("hex"));
  });
});
