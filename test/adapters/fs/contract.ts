// One contract for every FileSystem adapter. Linux behaviour is the standard; where an adapter
// declares a capability as false, the test for that behaviour is replaced by one that proves the
// flag is honest (so a stale flag fails too).
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FsError, cleanStrayTemps, exists, fsyncFile, isAtomicTempName, readJson, readText, writeFileAtomic, writeFileAtomicExclusive,
  type FileSystem, type FsErrorCode, type FsOperation,
} from "../../../adapters/fs/FileSystem.js";

export interface ContractEnv {
  readonly fs: FileSystem;
  /** an empty folder owned by the test */
  readonly root: string;
  readonly cleanup: () => Promise<void>;
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function failure(run: Promise<unknown>): Promise<FsError> {
  try {
    await run;
  } catch (e) {
    expect(e).toBeInstanceOf(FsError);
    return e as FsError;
  }
  throw new Error("expected the operation to fail");
}

async function expectCode(run: Promise<unknown>, code: FsErrorCode, syscall?: FsOperation): Promise<FsError> {
  const e = await failure(run);
  expect(e.code).toBe(code);
  if (syscall !== undefined) expect(e.syscall).toBe(syscall);
  return e;
}

const names = async (fs: FileSystem, dir: string): Promise<string[]> => (await fs.readdir(dir)).map((e) => e.name).sort();

export function fileSystemContract(name: string, makeFs: () => Promise<ContractEnv>): void {
  describe(`FileSystem contract: ${name}`, () => {
    let env: ContractEnv;
    let fs: FileSystem;
    const at = (...parts: string[]): string => join(env.root, ...parts);
    beforeEach(async () => {
      env = await makeFs();
      fs = env.fs;
    });
    afterEach(async () => {
      await env.cleanup();
    });

    describe("errno mapping", () => {
      it("readFile of a missing file is ENOENT naming the path and operation", async () => {
        const e = await expectCode(fs.readFile(at("missing")), "ENOENT", "readFile");
        expect(e.path).toBe(at("missing"));
        expect(e.message).toContain(at("missing"));
      });
      it("ENOENT for unlink, rmdir, rm, stat, readdir, rename, readlink of missing paths", async () => {
        await expectCode(fs.unlink(at("m")), "ENOENT", "unlink");
        await expectCode(fs.rmdir(at("m")), "ENOENT", "rmdir");
        await expectCode(fs.rm(at("m")), "ENOENT", "rm");
        await expectCode(fs.stat(at("m")), "ENOENT", "stat");
        await expectCode(fs.readdir(at("m")), "ENOENT", "readdir");
        const e = await expectCode(fs.rename(at("m"), at("n")), "ENOENT", "rename");
        expect(e.dest).toBe(at("n"));
        await expectCode(fs.readlink(at("m")), "ENOENT", "readlink");
        await expectCode(fs.mkdir(at("m", "n")), "ENOENT", "mkdir");
        await expectCode(fs.writeFile(at("m", "f"), "x", { flag: "wx" }), "ENOENT");
      });
      it("EEXIST for wx, mkdir, symlink and link onto an existing name", async () => {
        await fs.writeFile(at("f"), "old");
        await expectCode(fs.writeFile(at("f"), "new", { flag: "wx" }), "EEXIST", "writeFile");
        await expectCode(fs.open(at("f"), "wx"), "EEXIST", "open");
        await fs.mkdir(at("d"));
        await expectCode(fs.mkdir(at("d")), "EEXIST", "mkdir");
        await expectCode(fs.mkdir(at("f"), { recursive: true }), "EEXIST", "mkdir");
        await expectCode(fs.symlink("f", at("d")), "EEXIST", "symlink");
        await expectCode(fs.link(at("f"), at("d")), "EEXIST", "link");
        expect(text(await fs.readFile(at("f")))).toBe("old");
      });
      it("ENOTDIR when a file stands where a folder is needed", async () => {
        await fs.writeFile(at("f"), "x");
        await expectCode(fs.readFile(at("f", "x")), "ENOTDIR");
        await expectCode(fs.writeFile(at("f", "x"), "y"), "ENOTDIR");
        await expectCode(fs.readdir(at("f")), "ENOTDIR", "readdir");
        await expectCode(fs.rmdir(at("f")), "ENOTDIR", "rmdir");
        await expectCode(fs.mkdir(at("f", "a", "b"), { recursive: true }), "ENOTDIR");
        await expectCode(fs.fsyncDir(at("f")), "ENOTDIR", "fsyncDir");
      });
      it("EISDIR when a folder stands where a file is needed", async () => {
        await fs.mkdir(at("d"));
        await expectCode(fs.readFile(at("d")), "EISDIR", "readFile");
        await expectCode(fs.writeFile(at("d"), "x"), "EISDIR", "writeFile");
        await expectCode(fs.rm(at("d")), "EISDIR", "rm");
        await expectCode(fs.unlink(at("d")), fs.capabilities.unlinkDirCode, "unlink");
        expect((await fs.stat(at("d"))).kind).toBe("dir");
      });
      it("ENOTEMPTY on rmdir of a non-empty folder, which stays intact", async () => {
        await fs.mkdir(at("d"));
        await fs.writeFile(at("d", "f"), "x");
        await expectCode(fs.rmdir(at("d")), "ENOTEMPTY", "rmdir");
        expect(await names(fs, at("d"))).toEqual(["f"]);
      });
      it("EINVAL on readlink of a non-link, ELOOP through a symlink cycle", async () => {
        await fs.writeFile(at("f"), "x");
        await expectCode(fs.readlink(at("f")), "EINVAL", "readlink");
        await fs.symlink(at("b"), at("a"));
        await fs.symlink(at("a"), at("b"));
        await expectCode(fs.readFile(at("a")), "ELOOP");
        await expectCode(fs.stat(at("a")), "ELOOP");
        await expectCode(fs.realpath(at("a")), "ELOOP");
      });
    });

    describe("rename", () => {
      it("replaces an existing file with the moved one, in one step", async () => {
        await fs.writeFile(at("new"), "new content");
        await fs.writeFile(at("target"), "old content");
        const moved = await fs.stat(at("new"));
        const reads = Array.from({ length: 40 }, () => fs.readFile(at("target")).then(text));
        await fs.rename(at("new"), at("target"));
        for (const seen of await Promise.all(reads)) expect(["old content", "new content"]).toContain(seen);
        expect(text(await fs.readFile(at("target")))).toBe("new content");
        expect((await fs.stat(at("target"))).ino).toBe(moved.ino);
        expect(await names(fs, env.root)).toEqual(["target"]);
      });
      it("moves a folder with its contents, and a folder over an empty folder", async () => {
        await fs.mkdir(at("a", "sub"), { recursive: true });
        await fs.writeFile(at("a", "sub", "f"), "x");
        await fs.rename(at("a"), at("b"));
        expect(await names(fs, env.root)).toEqual(["b"]);
        expect(text(await fs.readFile(at("b", "sub", "f")))).toBe("x");
        await fs.mkdir(at("empty"));
        await fs.rename(at("b"), at("empty"));
        expect(await names(fs, at("empty"))).toEqual(["sub"]);
      });
      const invalid = async (): Promise<Array<{ what: string; run: () => Promise<void>; code: FsErrorCode }>> => {
        await fs.mkdir(at("d", "inner"), { recursive: true });
        await fs.mkdir(at("full"));
        await fs.writeFile(at("full", "keep"), "k");
        await fs.mkdir(at("empty"));
        await fs.writeFile(at("f"), "f");
        return [
          { what: "a folder into itself", run: () => fs.rename(at("d"), at("d", "inner", "x")), code: "EINVAL" },
          { what: "a file over a folder", run: () => fs.rename(at("f"), at("empty")), code: "EISDIR" },
          { what: "a folder over a file", run: () => fs.rename(at("empty"), at("f")), code: "ENOTDIR" },
          { what: "a folder over a non-empty folder", run: () => fs.rename(at("d"), at("full")), code: "ENOTEMPTY" },
        ];
      };
      it("refuses what Linux refuses when strictRename, or is flagged otherwise", async () => {
        const cases = await invalid();
        if (fs.capabilities.strictRename) {
          for (const c of cases) await expectCode(c.run(), c.code, "rename");
          expect(await names(fs, env.root)).toEqual(["d", "empty", "f", "full"]);
          expect(await names(fs, at("full"))).toEqual(["keep"]);
        } else {
          // strictRename=false: at least one invalid rename goes through, so callers must check kinds first.
          const outcomes = await Promise.allSettled(cases.map((c) => c.run()));
          expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
        }
      });
    });

    describe("symlinks", () => {
      it("realpath resolves a path through a symlinked folder", async () => {
        await fs.mkdir(at("real", "sub"), { recursive: true });
        await fs.writeFile(at("real", "sub", "f"), "x");
        await fs.symlink(at("real"), at("abs"));
        await fs.symlink("real", at("rel"));
        const base = await fs.realpath(env.root);
        expect(await fs.realpath(at("abs", "sub", "f"))).toBe(join(base, "real", "sub", "f"));
        expect(await fs.realpath(at("rel", "sub"))).toBe(join(base, "real", "sub"));
        expect(text(await fs.readFile(at("rel", "sub", "f")))).toBe("x");
      });
      it("stat follows a symlink, lstat describes the link itself", async () => {
        await fs.writeFile(at("f"), "12345");
        await fs.mkdir(at("d"));
        await fs.symlink("f", at("lf"));
        await fs.symlink(at("d"), at("ld"));
        await fs.symlink(at("missing"), at("dangling"));
        expect(await fs.stat(at("lf"))).toMatchObject({ kind: "file", size: 5 });
        expect((await fs.stat(at("ld"))).kind).toBe("dir");
        expect((await fs.lstat(at("lf"))).kind).toBe("symlink");
        expect((await fs.lstat(at("ld"))).kind).toBe("symlink");
        expect((await fs.lstat(at("dangling"))).kind).toBe("symlink");
        await expectCode(fs.stat(at("dangling")), "ENOENT", "stat");
        expect(await fs.readlink(at("lf"))).toBe("f");
        expect(await fs.readlink(at("dangling"))).toBe(at("missing"));
      });
      it("readdir reports each entry's own kind, symlinks unresolved", async () => {
        await fs.writeFile(at("f"), "x");
        await fs.mkdir(at("d"));
        await fs.symlink(at("f"), at("lf"));
        await fs.symlink(at("d"), at("ld"));
        await fs.symlink(at("missing"), at("dangling"));
        const kinds = Object.fromEntries((await fs.readdir(env.root)).map((e) => [e.name, e.kind]));
        expect(kinds).toEqual({ f: "file", d: "dir", lf: "symlink", ld: "symlink", dangling: "symlink" });
      });
      it("rm of a symlink to a folder removes only the link", async () => {
        await fs.mkdir(at("d"));
        await fs.writeFile(at("d", "keep"), "x");
        await fs.symlink(at("d"), at("ld"));
        await fs.rm(at("ld"), { recursive: true });
        expect(await names(fs, env.root)).toEqual(["d"]);
        expect(await names(fs, at("d"))).toEqual(["keep"]);
      });
    });

    describe("writeFile flags and handles", () => {
      it("wx lets exactly one of many concurrent creators win", async () => {
        const tries = Array.from({ length: 12 }, (_, i) => fs.writeFile(at("lock"), `owner ${i}`, { flag: "wx" }));
        const outcomes = await Promise.allSettled(tries);
        const won = outcomes.flatMap((o, i) => (o.status === "fulfilled" ? [i] : []));
        expect(won).toHaveLength(1);
        for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toMatchObject({ code: "EEXIST" });
        expect(text(await fs.readFile(at("lock")))).toBe(`owner ${won[0]}`);
      });
      it("w truncates, a appends, mode applies on creation", async () => {
        await fs.writeFile(at("f"), "a long first text", { mode: 0o600 });
        await fs.writeFile(at("f"), "short");
        await fs.writeFile(at("f"), "+tail", { flag: "a" });
        await fs.writeFile(at("g"), new Uint8Array([0xff, 0x00]), { flag: "a" });
        expect(text(await fs.readFile(at("f")))).toBe("short+tail");
        expect(Array.from(await fs.readFile(at("g")))).toEqual([0xff, 0x00]);
        expect((await fs.stat(at("f"))).mode & 0o777).toBe(0o600);
      });
      it("an open handle writes, syncs and closes; fsyncFile and fsyncDir accept real paths", async () => {
        const h = await fs.open(at("f"), "wx");
        await h.write("héllo ");
        await h.write(new TextEncoder().encode("world"));
        await h.sync();
        await h.close();
        expect(text(await fs.readFile(at("f")))).toBe("héllo world");
        await fsyncFile(fs, at("f"));
        await fs.fsyncDir(env.root);
        await expectCode(fs.fsyncDir(at("missing")), "ENOENT", "fsyncDir");
      });
    });

    describe("link", () => {
      it("gives one file two names", async () => {
        await fs.writeFile(at("a"), "one");
        await fs.link(at("a"), at("b"));
        const [sa, sb] = [await fs.stat(at("a")), await fs.stat(at("b"))];
        expect(sa.ino).toBe(sb.ino);
        expect(sa.nlink).toBe(2);
        await fs.writeFile(at("a"), "two");
        expect(text(await fs.readFile(at("b")))).toBe("two");
        await fs.unlink(at("a"));
        expect(text(await fs.readFile(at("b")))).toBe("two");
        expect((await fs.stat(at("b"))).nlink).toBe(1);
        await expectCode(fs.link(at("missing"), at("c")), "ENOENT", "link");
      });
      it("refuses to link a folder when strictLink, or is flagged otherwise", async () => {
        await fs.mkdir(at("d"));
        if (fs.capabilities.strictLink) await expectCode(fs.link(at("d"), at("dl")), "EPERM", "link");
        else await expect(fs.link(at("d"), at("dl"))).resolves.toBeUndefined();
      });
    });

    describe("folders and stat", () => {
      it("mkdir recursive creates every level and accepts an existing folder", async () => {
        await fs.mkdir(at("a", "b", "c"), { recursive: true });
        await fs.mkdir(at("a", "b", "c"), { recursive: true });
        await fs.mkdir(at("a", "b"), { recursive: true });
        expect((await fs.stat(at("a", "b", "c"))).kind).toBe("dir");
        expect(await names(fs, at("a"))).toEqual(["b"]);
      });
      it("rm recursive removes a tree; force ignores a missing path", async () => {
        await fs.mkdir(at("t", "x", "y"), { recursive: true });
        await fs.writeFile(at("t", "x", "y", "f"), "1");
        await fs.writeFile(at("t", "g"), "2");
        await fs.rm(at("t"), { recursive: true });
        await fs.rm(at("t"), { recursive: true, force: true });
        await fs.writeFile(at("f"), "x");
        await fs.rm(at("f"));
        expect(await names(fs, env.root)).toEqual([]);
      });
      it("stat reports size, kind and times; utimes sets mtime", async () => {
        await fs.writeFile(at("f"), "1234");
        const s = await fs.stat(at("f"));
        expect(s).toMatchObject({ kind: "file", size: 4, nlink: 1 });
        expect(s.mode & 0o170000).toBe(0o100000);
        expect(s.mtimeMs).toBeGreaterThan(0);
        expect(s.birthtimeMs).toBeGreaterThan(0);
        await fs.utimes(at("f"), 1_000_000, 2_000_000);
        expect((await fs.stat(at("f"))).mtimeMs).toBe(2_000_000);
      });
    });

    describe("readAt", () => {
      it("reads a part of a file: fewer bytes at its end, none past it", async () => {
        await fs.writeFile(at("log"), "0123456789");
        expect(text(await fs.readAt(at("log"), 2, 3))).toBe("234");
        expect(text(await fs.readAt(at("log"), 7, 10))).toBe("789");
        expect(text(await fs.readAt(at("log"), 12, 4))).toBe("");
        expect(text(await fs.readAt(at("log"), 0, 0))).toBe("");
      });
      it("fails with ENOENT for a missing file and EISDIR for a folder", async () => {
        await expectCode(fs.readAt(at("missing"), 0, 4), "ENOENT", "readAt");
        await fs.mkdir(at("d"));
        await expectCode(fs.readAt(at("d"), 0, 4), "EISDIR", "readAt");
      });
    });

    describe("derived helpers", () => {
      it("writeFileAtomic replaces content and leaves no temp behind", async () => {
        await fs.writeFile(at("r.json"), "old");
        await writeFileAtomic(fs, at("r.json"), '{"v":2}');
        await writeFileAtomic(fs, at("new.md"), new TextEncoder().encode("# hi"));
        expect(await readJson(fs, at("r.json"))).toEqual({ v: 2 });
        expect(await readText(fs, at("new.md"))).toBe("# hi");
        expect(await names(fs, env.root)).toEqual(["new.md", "r.json"]);
      });
      it("writeFileAtomic writes through a recognisable dot-temp, skipping a stray one", async () => {
        const ids = ["stray", "w1"];
        const seen: string[] = [];
        await fs.writeFile(at(".r.json.stray.tmp"), "left by a crash");
        const spy: FileSystem = { ...fs, open: (p, flag, mode) => (seen.push(p), fs.open(p, flag, mode)) };
        await writeFileAtomic(spy, at("r.json"), "new", { tempId: () => ids.shift() ?? "x" });
        expect(seen).toEqual([at(".r.json.stray.tmp"), at(".r.json.w1.tmp")]);
        expect(seen.map((p) => isAtomicTempName(p.slice(env.root.length + 1)))).toEqual([true, true]);
        expect(await names(fs, env.root)).toEqual([".r.json.stray.tmp", "r.json"]);
      });
      it("writeFileAtomic syncs the temp before the rename and the folder after it", async () => {
        const log: string[] = [];
        const rel = (p: string): string => p.slice(env.root.length + 1) || ".";
        const recording: FileSystem = {
          ...fs,
          open: async (p, flag, mode) => {
            log.push(`open ${rel(p)} ${flag}`);
            const h = await fs.open(p, flag, mode);
            return {
              write: (d) => (log.push("write"), h.write(d)),
              sync: () => (log.push("sync"), h.sync()),
              close: () => (log.push("close"), h.close()),
            };
          },
          rename: (a, b) => (log.push(`rename ${rel(a)} ${rel(b)}`), fs.rename(a, b)),
          fsyncDir: (p) => (log.push(`fsyncDir ${rel(p)}`), fs.fsyncDir(p)),
        };
        await writeFileAtomic(recording, at("r.json"), "{}", { tempId: () => "t1" });
        expect(log).toEqual(["open .r.json.t1.tmp wx", "write", "sync", "close", "rename .r.json.t1.tmp r.json", "fsyncDir ."]);
      });
      it("writeFileAtomic removes its temp and keeps the target when the rename fails", async () => {
        await fs.writeFile(at("r.json"), "old");
        const failing: FileSystem = { ...fs, rename: (from) => Promise.reject(new FsError("EXDEV", "rename", from, "EXDEV: injected")) };
        await expectCode(writeFileAtomic(failing, at("r.json"), "new"), "EXDEV", "rename");
        expect(await names(fs, env.root)).toEqual(["r.json"]);
        expect(await readText(fs, at("r.json"))).toBe("old");
        await expectCode(writeFileAtomic(fs, at("missing", "r.json"), "x"), "ENOENT", "open");
      });
      it("writeFileAtomicExclusive creates a new file whole and leaves no temp behind", async () => {
        await writeFileAtomicExclusive(fs, at("d.json"), '{"v":1}', { mode: 0o600 });
        expect(await readJson(fs, at("d.json"))).toEqual({ v: 1 });
        expect((await fs.stat(at("d.json"))).nlink).toBe(1);
        expect(await names(fs, env.root)).toEqual(["d.json"]);
      });
      it("writeFileAtomicExclusive never replaces an existing file: EEXIST from link, the old bytes kept, no temp left", async () => {
        await fs.writeFile(at("d.json"), "old");
        await expectCode(writeFileAtomicExclusive(fs, at("d.json"), "new"), "EEXIST", "link");
        expect(await readText(fs, at("d.json"))).toBe("old");
        expect(await names(fs, env.root)).toEqual(["d.json"]);
        // a folder or a symlink at the name is not replaced either
        await fs.mkdir(at("dir"));
        await fs.symlink(at("nowhere"), at("dangling"));
        await expectCode(writeFileAtomicExclusive(fs, at("dir"), "new"), "EEXIST", "link");
        await expectCode(writeFileAtomicExclusive(fs, at("dangling"), "new"), "EEXIST", "link");
        expect(await names(fs, env.root)).toEqual(["d.json", "dangling", "dir"]);
        expect(await fs.readlink(at("dangling"))).toBe(at("nowhere"));
      });
      it("writeFileAtomicExclusive syncs the temp before the link and the folder after the temp is gone", async () => {
        const log: string[] = [];
        const rel = (p: string): string => p.slice(env.root.length + 1) || ".";
        const recording: FileSystem = {
          ...fs,
          open: async (p, flag, mode) => {
            log.push(`open ${rel(p)} ${flag}`);
            const h = await fs.open(p, flag, mode);
            return { write: (d) => (log.push("write"), h.write(d)), sync: () => (log.push("sync"), h.sync()), close: () => (log.push("close"), h.close()) };
          },
          link: (a, b) => (log.push(`link ${rel(a)} ${rel(b)}`), fs.link(a, b)),
          unlink: (p) => (log.push(`unlink ${rel(p)}`), fs.unlink(p)),
          fsyncDir: (p) => (log.push(`fsyncDir ${rel(p)}`), fs.fsyncDir(p)),
        };
        await writeFileAtomicExclusive(recording, at("d.json"), "{}", { tempId: () => "t1" });
        expect(log).toEqual(["open .d.json.t1.tmp wx", "write", "sync", "close", "link .d.json.t1.tmp d.json", "unlink .d.json.t1.tmp", "fsyncDir ."]);
      });
      it("cleanStrayTemps removes only temp files", async () => {
        await fs.writeFile(at(".a.json.123-4.tmp"), "t");
        await fs.writeFile(at(".b.md.x.tmp"), "t");
        await fs.writeFile(at("a.json"), "keep");
        await fs.writeFile(at(".hidden"), "keep");
        await fs.writeFile(at("c.tmp"), "keep");
        await fs.mkdir(at(".d.1.tmp"));
        expect((await cleanStrayTemps(fs, env.root)).sort()).toEqual([".a.json.123-4.tmp", ".b.md.x.tmp"]);
        expect(await names(fs, env.root)).toEqual([".d.1.tmp", ".hidden", "a.json", "c.tmp"]);
      });
      it("exists is false only for absence; readText and readJson reject bad content", async () => {
        await fs.writeFile(at("f"), "x");
        await fs.symlink(at("missing"), at("dangling"));
        expect(await exists(fs, at("f"))).toBe(true);
        expect(await exists(fs, env.root)).toBe(true);
        expect(await exists(fs, at("missing"))).toBe(false);
        expect(await exists(fs, at("dangling"))).toBe(false);
        expect(await exists(fs, at("f", "under"))).toBe(false);
        await fs.writeFile(at("bad.txt"), new Uint8Array([0x61, 0xc3, 0x28]));
        await expectCode(readText(fs, at("bad.txt")), "EILSEQ");
        await fs.writeFile(at("bad.json"), "{ nope");
        await expectCode(readJson(fs, at("bad.json")), "EINVAL");
        await fs.writeFile(at("bom.txt"), "\uFEFFhi");
        expect(await readText(fs, at("bom.txt"))).toBe("hi");
      });
    });
  });
}
