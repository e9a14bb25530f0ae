import { describe, expect, it } from "vitest";
import { FsError, atomicTempName, hasCode, isAtomicTempName, toFsError } from "../../../adapters/fs/FileSystem.js";

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
  });
  it("turns anything else into UNKNOWN and keeps the raw code", () => {
    const e = toFsError(errnoError("ENOSPC"), "writeFile", "/f");
    expect(e).toMatchObject({ code: "UNKNOWN", rawCode: "ENOSPC", dest: undefined });
    expect(e.message).toMatch(/^ENOSPC: writeFile '\/f'/);
    expect(toFsError("a string", "stat", "/f")).toMatchObject({ code: "UNKNOWN", rawCode: undefined });
    expect(toFsError({ code: 42 }, "stat", "/f").code).toBe("UNKNOWN");
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
