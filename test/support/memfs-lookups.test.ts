// The setup file test/support/memfs-lookups.ts changes how memfs looks paths up in every test
// process; here, that a volume still answers as memfs's own code would.
import { posix } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { Volume } from "memfs";
import { describe, expect, it } from "vitest";
import { normalSteps, patchMemfsLookups } from "./memfs-lookups.js";

/** memfs's own rule: the path resolved against the working directory, split after the root */
const memfsSteps = (filename: string): string[] => {
  const full = posix.resolve(process.cwd(), filename).slice(1);
  return full === "" ? [] : full.split("/");
};

const segment = fc.constantFrom("", ".", "..", "a", "b.c", ".d", "..e", "f..", "g h", "\\");

describe("memfs lookups in the test processes", () => {
  test.prop([fc.array(segment, { maxLength: 6 }), fc.boolean()])("a path's steps are the ones memfs's resolve gives, or resolve is asked", (parts, absolute) => {
    const filename = (absolute ? "/" : "") + parts.join("/");
    const fast = normalSteps(filename);
    if (fast !== undefined) expect(fast).toEqual(memfsSteps(filename));
  });

  it("takes the fast way for normal absolute paths only", () => {
    expect(normalSteps("/")).toEqual([]);
    expect(normalSteps("/a/b.c/.d/..e")).toEqual(["a", "b.c", ".d", "..e"]);
    for (const p of ["a/b", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/a/", "", "./a"]) expect(normalSteps(p)).toBeUndefined();
  });

  it("is in place, and a patched volume still finds, lists and refuses what it should", () => {
    patchMemfsLookups(); // a second call changes nothing
    const vol = new Volume();
    vol.mkdirSync("/r/s", { recursive: true });
    vol.writeFileSync("/r/s/f.json", "{}");
    const before = vol.statSync("/r/s").mtimeMs;
    expect(vol.readFileSync("/r/s/f.json", "utf8")).toBe("{}");
    expect(vol.readFileSync("/r/x/../s/./f.json", "utf8")).toBe("{}");
    expect(vol.readdirSync("/r/s/")).toEqual(["f.json"]);
    expect(() => vol.readFileSync("/r/s/missing")).toThrow(/ENOENT/);
    expect(() => vol.readFileSync("/r/s/f.json/x")).toThrow(/ENOTDIR/);
    expect(vol.statSync("/r/s").mtimeMs).toBe(before);
    const core = (vol as unknown as { _core: { root: { getChild(n: string): unknown } } })._core;
    expect(core.root.getChild("r")).toBeDefined();
    expect(Object.getPrototypeOf(core)[Symbol.for("pi-recipes.memfs-lookups")]).toBe(true);
  });
});
