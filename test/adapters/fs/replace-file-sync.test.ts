// The synchronous whole-file replace of the caches (adapters/fs/replace-file-sync.ts): the file is
// replaced whole, and a temp that a killed writer of the same file left (its process gone) is
// removed by the next write; a live writer's temp, and anything else in the folder, stay.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeReplaceFileSync } from "../../../adapters/fs/replace-file-sync.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-replace-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("replaceFileSync", () => {
  it("replaces the file whole and removes only the temps of it whose writer is gone", () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const stale = `.compile.json.${gone}-3.tmp`;
    const live = `.compile.json.${process.pid}-99.tmp`;
    const other = `.list.json.${gone}-1.tmp`;
    const unrelated = "notes.tmp";
    for (const name of [stale, live, other, unrelated]) writeFileSync(join(dir, name), "x");
    makeNodeReplaceFileSync().replaceFileSync(join(dir, "compile.json"), Buffer.from("new\n"), 0o600);
    expect(readFileSync(join(dir, "compile.json"), "utf8")).toBe("new\n");
    expect(readdirSync(dir).sort()).toEqual([live, other, "compile.json", unrelated].sort());
  });
});
