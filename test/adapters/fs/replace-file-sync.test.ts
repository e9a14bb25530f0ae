// The synchronous whole-file replace of the caches (adapters/fs/replace-file-sync.ts): the file is
// replaced whole, and a temp that a killed writer of the same file left (its process gone) is
// removed by the next write; a live writer's temp, and anything else in the folder, stay.
import { spawnSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { beginReplaceFileSync, makeNodeReplaceFileSync } from "../../../adapters/fs/replace-file-sync.js";

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

  it("moves on to the next temp name when one is taken, and gives up on other errors", () => {
    // a temp of this pid already there (left earlier, or by a process of the same pid before
    // this one): the first open finds it taken
    let opens = 0;
    const taken = { ...nodeFs, openSync: ((...a: Parameters<typeof nodeFs.openSync>) => {
      if (++opens === 1) {
        writeFileSync(a[0] as string, "left");
        throw Object.assign(new Error("EEXIST: file already exists"), { code: "EEXIST" });
      }
      return nodeFs.openSync(...a);
    }) as typeof nodeFs.openSync };
    makeNodeReplaceFileSync(taken).replaceFileSync(join(dir, "compile.json"), "new\n", 0o600);
    expect(readFileSync(join(dir, "compile.json"), "utf8")).toBe("new\n");
    expect(opens).toBe(2);
    // the taken temp is not this write's: it stays
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toHaveLength(1);
    const denied = { ...nodeFs, openSync: (() => {
      throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    }) as typeof nodeFs.openSync };
    expect(() => makeNodeReplaceFileSync(denied).replaceFileSync(join(dir, "compile.json"), "x", 0o600)).toThrow(/EACCES/);
    expect(readFileSync(join(dir, "compile.json"), "utf8")).toBe("new\n");
  });

  it("writes text as UTF-8, pieces and bytes alike, and finishes a string a short write cut", () => {
    makeNodeReplaceFileSync().replaceFileSync(join(dir, "list.json"), "ünïcode — ok\n", 0o600);
    expect(readFileSync(join(dir, "list.json"), "utf8")).toBe("ünïcode — ok\n");
    // a system whose write of a string stops after 3 bytes, inside a two-byte character
    const short = { ...nodeFs, writeSync: ((fd: number, data: unknown, ...rest: unknown[]) =>
      typeof data === "string" ? nodeFs.writeSync(fd, Buffer.from(data).subarray(0, 3)) : (nodeFs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest)) as typeof nodeFs.writeSync };
    const r = beginReplaceFileSync(join(dir, "compile.json"), 0o600, short);
    r.write("head ");
    r.write(Buffer.from("bytes "));
    r.write("née — fin\n");
    r.commit();
    expect(readFileSync(join(dir, "compile.json"), "utf8")).toBe("head bytes née — fin\n");
    expect(readdirSync(dir).sort()).toEqual(["compile.json", "list.json"]);
  });
});
