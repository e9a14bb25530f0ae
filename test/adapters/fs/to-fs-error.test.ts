// toFsError takes whatever an adapter threw: not only errors with a code, but anything a
// JavaScript `throw` can carry, including null and undefined.
import { describe, expect, it } from "vitest";
import { FsError, toFsError } from "../../../adapters/fs/FileSystem.js";

describe("toFsError with causes that are no error object", () => {
  it.each([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["a number", 7, "7"],
  ])("%s becomes an UNKNOWN FsError that names it", (_what, cause, shown) => {
    const e = toFsError(cause, "stat", "/f");
    expect(e).toBeInstanceOf(FsError);
    expect(e).toMatchObject({ code: "UNKNOWN", rawCode: undefined, syscall: "stat", path: "/f" });
    expect(e.message).toBe(`UNKNOWN: stat '/f' (${shown})`);
  });

  it("an aliased code is named by the code it maps to", () => {
    const e = toFsError(Object.assign(new Error("boom"), { code: "ERR_FS_EISDIR" }), "rm", "/d");
    expect(e).toMatchObject({ code: "EISDIR", rawCode: "ERR_FS_EISDIR" });
    expect(e.message).toBe("EISDIR: rm '/d' (boom)");
  });

  it("an object whose code is no text is UNKNOWN too", () => {
    expect(toFsError({ code: ["ENOENT"] }, "stat", "/f")).toMatchObject({ code: "UNKNOWN", rawCode: undefined });
  });
});
