// The temps a killed plan's writes left beside the files it wrote are removed once the plan is
// recovered: only those of a writer gone, only beside the files the plan wrote, and only inside
// the store whose lock recovery holds.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { removeDeadWriteTemps } from "../../../runtime/journal/recover.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-temps-"));
  mkdirSync(join(dir, "ring"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("removeDeadWriteTemps", () => {
  it("removes a dead writer's temps of the written files; keeps live, doubtful and unrelated ones", async () => {
    const ring = join(dir, "ring");
    const names = [".1.json.4000001-7.tmp", ".1.json.4000002-1.tmp", ".1.json.4000003-2.tmp", `.1.json.${process.pid}-3.tmp`, ".2.json.4000001-1.tmp", "1.json"];
    for (const n of names) writeFileSync(join(ring, n), "x");
    const probe = { signalZero: (pid: number) => (pid === 4000001 ? "gone" : pid === 4000002 ? "exists" : "unknown") as "gone" | "exists" | "unknown" };
    // a file the plan wrote outside the store (a recipe): its folder's temps are left to that file's writers
    const outside = mkdtempSync(join(tmpdir(), "journal-temps-out-"));
    writeFileSync(join(outside, ".x.json.4000001-1.tmp"), "x");
    await removeDeadWriteTemps(
      makeNodeFileSystem(),
      [{ op: "write", path: join(ring, "1.json"), before: null, after: "h" }, { op: "write", path: join(outside, "x.json"), before: null, after: "h" }],
      dir,
      probe,
    );
    expect(readdirSync(ring).sort()).toEqual([".1.json.4000002-1.tmp", ".1.json.4000003-2.tmp", `.1.json.${process.pid}-3.tmp`, ".2.json.4000001-1.tmp", "1.json"].sort());
    expect(readdirSync(outside)).toEqual([".x.json.4000001-1.tmp"]);
    rmSync(outside, { recursive: true, force: true });
  });
});
