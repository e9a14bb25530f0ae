import { describe, expect, it } from "vitest";
import { FsError, atomicTempName, cleanStrayTemps, exists, hasCode, isAtomicTempName, readJson, readText, toFsError, writeFileAtomic, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";

const errnoError = (code: string): Error => Object.assign(new Error(`${code}: boom`), { code });

describe("toFsError", () => {
  it("keeps a known errno and names the port operation and the caller's paths", () => {
    const e = toFsError(errnoError("ENOTEMPTY"), "rename", "/a", "/b");
    expect(e).toBeInstanceOf(FsError);
    expect(e).toMatchObject({ code: "ENOTEMPTY", syscall: "rename", path: "/a", dest: "/b", rawCode: "ENOTEMPTY" });
    expect(e.message).toBe("ENOTEMPTY: rename '/a' -> '/b' (ENOTEMPTY: boom)");
  });
  it("maps Node's rm folder code to EISDIR and ENFILE to EMFILE", () => {
    expect(toFsError(errnoError("ERR_FS_EISDIR"), "rm", "/d").code).toBe("EISDIR");
    expect(toFsError(errnoError("ENFILE"), "open", "/f").code).toBe("EMFILE");
    // the message names the code it maps to, the raw code is kept
    const e = toFsError(Object.assign(new Error("boom"), { code: "ERR_FS_EISDIR" }), "rm", "/d");
    expect(e).toMatchObject({ code: "EISDIR", rawCode: "ERR_FS_EISDIR" });
    expect(e.message).toBe("EISDIR: rm '/d' (boom)");
  });
  it("turns anything else into UNKNOWN and keeps the raw code", () => {
    const e = toFsError(errnoError("ENOSPC"), "writeFile", "/f");
    expect(e).toMatchObject({ code: "UNKNOWN", rawCode: "ENOSPC", dest: undefined });
    expect(e.message).toMatch(/^ENOSPC: writeFile '\/f'/);
    expect(toFsError("a string", "stat", "/f")).toMatchObject({ code: "UNKNOWN", rawCode: undefined });
    expect(toFsError({ code: 42 }, "stat", "/f").code).toBe("UNKNOWN");
    expect(toFsError({ code: ["ENOENT"] }, "stat", "/f")).toMatchObject({ code: "UNKNOWN", rawCode: undefined });
  });
  // anything a JavaScript `throw` can carry
  it.each([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["a number", 7, "7"],
  ])("turns %s into an UNKNOWN FsError that names it", (_what, cause, shown) => {
    const e = toFsError(cause, "stat", "/f");
    expect(e).toBeInstanceOf(FsError);
    expect(e).toMatchObject({ code: "UNKNOWN", rawCode: undefined, syscall: "stat", path: "/f" });
    expect(e.message).toBe(`UNKNOWN: stat '/f' (${shown})`);
  });
  it("keeps the adapter's error as its cause, and has none of its own", () => {
    const raw = errnoError("EACCES");
    expect(toFsError(raw, "open", "/f").cause).toBe(raw);
    expect("cause" in new FsError("EINVAL", "open", "/f", "EINVAL: made here")).toBe(false);
  });
  it("prints as an FsError", () => {
    expect(String(toFsError(errnoError("ENOENT"), "stat", "/f"))).toBe("FsError: ENOENT: stat '/f' (ENOENT: boom)");
    // node's own message, which names the code, the call and the path, is said once
    const nodes = Object.assign(new Error("ENOTDIR: not a directory, open '/d/x.tmp'"), { code: "ENOTDIR" });
    expect(toFsError(nodes, "open", "/d/x.tmp").message).toBe("ENOTDIR: not a directory, open '/d/x.tmp'");
  });
  it("passes an FsError through unchanged", () => {
    const inner = new FsError("EXDEV", "rename", "/x", "EXDEV: inner");
    expect(toFsError(inner, "writeFile", "/y")).toBe(inner);
    expect(hasCode(inner, "ENOENT", "EXDEV")).toBe(true);
    expect(hasCode(errnoError("EXDEV"), "EXDEV")).toBe(false);
  });
});

describe("atomic temp names", () => {
  it("recognises the names writeFileAtomic makes and nothing plainer", () => {
    expect(atomicTempName("r.json", "123-4")).toBe(".r.json.123-4.tmp");
    expect(isAtomicTempName(atomicTempName("a b.md", "x_Y-9"))).toBe(true);
    for (const name of ["r.json", ".r.json", "r.json.1.tmp", ".tmp", "..tmp", ".r..tmp", ".r.a b.tmp", ".r.1.tmp.bak"]) {
      expect(isAtomicTempName(name), name).toBe(false);
    }
  });
});

describe("writeFileAtomic's temp names", () => {
  it("gives up after eight taken temp names with EEXIST, leaving the target and the strays alone", async () => {
    const fs = makeMemFileSystem();
    fs.vol.fromJSON({ "/d/r.json": "old", "/d/.r.json.taken.tmp": "stray" });
    let asked = 0;
    const err = await writeFileAtomic(fs, "/d/r.json", "new", { tempId: () => (asked++, "taken") }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "EEXIST", syscall: "open", path: "/d/.r.json.taken.tmp" });
    expect(asked).toBe(8);
    expect(fs.vol.toJSON()).toEqual({ "/d/r.json": "old", "/d/.r.json.taken.tmp": "stray" });
  });

  it("takes the eighth name when the first seven are taken", async () => {
    const fs = makeMemFileSystem();
    const strays = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`/d/.r.json.s${n}.tmp`, "stray"]));
    fs.vol.fromJSON({ ...strays, "/d/r.json": "old" });
    let n = 0;
    await writeFileAtomic(fs, "/d/r.json", "new", { tempId: () => `s${++n}` });
    expect(fs.vol.toJSON()).toEqual({ ...strays, "/d/r.json": "new" });
  });

  it("refuses a temp id outside [A-Za-z0-9_-] with EINVAL naming it, and writes nothing", async () => {
    const fs = makeMemFileSystem();
    fs.vol.fromJSON({ "/d/r.json": "old" });
    for (const id of ["a/b", "a.b", ""]) {
      const err = await writeFileAtomic(fs, "/d/r.json", "new", { tempId: () => id }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "EINVAL", path: "/d/r.json", message: `EINVAL: temp id '${id}' is not [A-Za-z0-9_-]+` });
    }
    expect(fs.vol.toJSON()).toEqual({ "/d/r.json": "old" });
  });

  it("names its temps after the target, the process id and a counter by default", async () => {
    const fs = makeMemFileSystem();
    fs.vol.mkdirSync("/d", { recursive: true });
    const opened: string[] = [];
    const spy: FileSystem = { ...fs, open: (p, flag, mode) => (opened.push(p), fs.open(p, flag, mode)) };
    await writeFileAtomic(spy, "/d/r.json", "1");
    await writeFileAtomic(spy, "/d/r.json", "2");
    expect(opened).toHaveLength(2);
    const [a, b] = opened.map((p) => /^\/d\/\.r\.json\.(\d+)-(\d+)\.tmp$/.exec(p));
    expect([a?.[1], b?.[1]]).toEqual([String(process.pid), String(process.pid)]);
    expect(Number(b?.[2])).toBe(Number(a?.[2]) + 1);
  });
});

describe("derived helpers' errors", () => {
  it("readText and readJson name the file and say what is wrong", async () => {
    const fs = makeMemFileSystem();
    fs.vol.fromJSON({ "/d/bad.txt": Buffer.from([0x61, 0xc3, 0x28]) as unknown as string, "/d/bad.json": "{ nope" });
    const text = await readText(fs, "/d/bad.txt").catch((e: unknown) => e);
    expect(text).toMatchObject({ code: "EILSEQ", syscall: "readFile", path: "/d/bad.txt", message: "EILSEQ: readFile '/d/bad.txt' is not valid UTF-8" });
    // the decoder's and the parser's own errors are kept as the cause
    expect((text as Error).cause).toBeInstanceOf(TypeError);
    const bad = await readJson(fs, "/d/bad.json").catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: "EINVAL", syscall: "readFile", path: "/d/bad.json" });
    expect((bad as Error).message).toMatch(/^EINVAL: readFile '\/d\/bad\.json' is not valid JSON \(.+\)$/);
    expect((bad as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it("exists rejects a failure that is not absence", async () => {
    const fs = makeMemFileSystem();
    const denied: FileSystem = { ...fs, stat: (p) => Promise.reject(new FsError("EACCES", "stat", p, `EACCES: stat '${p}'`)) };
    await expect(exists(denied, "/x")).rejects.toMatchObject({ code: "EACCES" });
  });

  it("cleanStrayTemps passes over a temp that vanished meanwhile and rejects other failures", async () => {
    const fs = makeMemFileSystem();
    fs.vol.fromJSON({ "/d/.a.json.1.tmp": "t", "/d/.b.json.2.tmp": "t" });
    const racing: FileSystem = { ...fs, unlink: async (p) => (p.endsWith(".a.json.1.tmp") ? Promise.reject(new FsError("ENOENT", "unlink", p, "ENOENT")) : fs.unlink(p)) };
    expect(await cleanStrayTemps(racing, "/d")).toEqual([".b.json.2.tmp"]);
    const denied: FileSystem = { ...fs, unlink: (p) => Promise.reject(new FsError("EACCES", "unlink", p, "EACCES")) };
    await expect(cleanStrayTemps(denied, "/d")).rejects.toMatchObject({ code: "EACCES" });
  });
});
