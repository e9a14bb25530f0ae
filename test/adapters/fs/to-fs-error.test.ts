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

  it("an object whose code is no text is UNKNOWN too", () => {
    expect(toFsError({ code: ["ENOENT"] }, "stat", "/f")).toMatchObject({ code: "UNKNOWN", rawCode: undefined });
  });
});
