// The helpers callers use to describe a plan from what is on disk now.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { currentBytes, currentState, newPlanId, runSteps } from "../../../runtime/journal/index.js";

let dir: string;
const fs = makeNodeFileSystem();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-steps-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("currentState and currentBytes", () => {
  it("give a file's hash and bytes, and null for a missing file", async () => {
    writeFileSync(join(dir, "f"), "content");
    expect(await currentState(fs, join(dir, "f"))).toEqual({ hash: createHash("sha256").update("content").digest("hex") });
    expect(Buffer.from((await currentBytes(fs, join(dir, "f")))!).toString()).toBe("content");
    expect(await currentState(fs, join(dir, "missing"))).toBeNull();
    expect(await currentBytes(fs, join(dir, "missing"))).toBeNull();
  });

  it("refuse a folder or a symlink: plans replace regular files only", async () => {
    mkdirSync(join(dir, "d"));
    symlinkSync(join(dir, "d"), join(dir, "link"));
    await expect(currentState(fs, join(dir, "d"))).rejects.toThrow(`${join(dir, "d")} is not a regular file`);
    await expect(currentBytes(fs, join(dir, "link"))).rejects.toThrow(`${join(dir, "link")} is not a regular file`);
  });
});

describe("a file that goes between two looks", () => {
  it("counts as absent; a file that cannot be read is an error", async () => {
    writeFileSync(join(dir, "f"), "content");
    const racing: FileSystem = { ...fs, readFile: (p) => Promise.reject(new FsError("ENOENT", "readFile", p, "ENOENT: readFile")) };
    expect(await currentState(racing, join(dir, "f"))).toBeNull();
    const denied: FileSystem = { ...fs, readFile: (p) => Promise.reject(new FsError("EACCES", "readFile", p, "EACCES: readFile")) };
    await expect(currentState(denied, join(dir, "f"))).rejects.toMatchObject({ code: "EACCES" });
    const unlisted: FileSystem = { ...fs, lstat: (p) => Promise.reject(new FsError("EACCES", "lstat", p, "EACCES: lstat")) };
    await expect(currentState(unlisted, join(dir, "f"))).rejects.toMatchObject({ code: "EACCES" });
  });
});

describe("newPlanId", () => {
  it("sorts by creation time, also across a change in the number of digits", () => {
    const times = [0, 35, 36, 1295, 1296, Date.UTC(2026, 0, 1), Date.UTC(2100, 0, 1)];
    const ids = times.map(newPlanId);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^000000000-[0-9a-f-]{36}$/);
  });

  it("never repeats for the same time", () => {
    expect(newPlanId(5)).not.toBe(newPlanId(5));
  });
});

describe("runSteps", () => {
  it("refuses a malformed plan with the reason, writing nothing", async () => {
    await expect(runSteps(fs, join(dir, "j"), { id: "x", kind: "t", phases: [[{ op: "mkdir", path: "relative" }]] })).rejects.toThrow(
      "Journal plan x: path 'relative' is not absolute",
    );
  });
});
