// The list index (runtime/list-index.ts): `list` answered from one small file while nothing it
// was made from changed, and from a full discovery as soon as anything did. Real files.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheBox, nextTick, twoWorkingDirs, type CacheBox } from "../support/compile-cache-box.js";
import { listIndexPath } from "../../runtime/list-index.js";

let box: CacheBox;
afterEach(() => box?.cleanup());

/** waits for the file-system clock, so that the next write is newer than every pass so far */
// past every file the test wrote, the recipes and the files outside the root they import alike
const settle = (): Promise<void> => nextTick(box.dir, [box.dir]);

/** Lists until the index answers: a pass writes it only when every file it read is older than the
 *  pass's clock (the newest ctime of the root and the compile cache), which after a change is the
 *  case from the pass after the one that rewrote the compile cache. Every answer is the list of a
 *  discovery without any cache. */
function warm(): void {
  for (let pass = 0; pass < 3; pass++) {
    const r = box.listed();
    expect(r.list).toEqual(box.plainList());
    if (r.indexed) return;
  }
  throw new Error("the list index never answered");
}

describe("the list index", () => {
  it("answers a later list without reading a recipe, with the list a discovery gives", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    box.write("beta.json", { description: "b", template: "echo {x}" });
    box.write("broken.json", "{ not json");
    await settle();
    expect(box.listed().indexed).toBe(false);
    warm();
    const second = box.listed();
    expect(second).toEqual({ list: box.plainList(), indexed: true, reads: 0 });
    expect(second.list.names).toEqual(["alpha", "beta"]);
    // the broken recipe is an error of the list, also when the index answers
    expect(second.list.problems.length).toBeGreaterThan(0);
    for (const p of second.list.problems) expect(p).toContain("broken");
  });

  it("is not used once a recipe is added, removed, edited or only rewritten", async () => {
    box = cacheBox();
    const alpha = box.write("alpha.json", { description: "a", template: "echo a" });
    await settle();
    warm();
    const changes: (() => void)[] = [
      () => box.write("gamma.md", "---\ndescription: g\n---\n\n```template\necho g\n```\n"),
      () => rmSync(join(box.root, "gamma.md")),
      () => box.write("alpha.json", { description: "a", template: "echo a", disabled: true }),
      // the same bytes again: a new identity, so the index cannot vouch for it
      () => writeFileSync(alpha, readFileSync(alpha)),
    ];
    for (const change of changes) {
      await settle();
      change();
      await settle();
      const after = box.listed();
      expect(after.indexed).toBe(false);
      expect(after.list).toEqual(box.plainList());
      warm();
      expect(box.listed()).toEqual({ list: after.list, indexed: true, reads: 0 });
    }
    expect(box.plainList().names).toEqual([]);
  });

  it("follows a file outside the root that a recipe imports", async () => {
    box = cacheBox();
    const parts = join(box.dir, "parts");
    mkdirSync(parts);
    const part = join(parts, "part.json");
    writeFileSync(part, JSON.stringify({ template: "echo part" }));
    box.write("uses.json", { description: "u", imports: { part }, template: [{ name: "part" }, "echo after"] });
    await settle();
    warm();
    expect(box.listed()).toMatchObject({ indexed: true, list: { names: ["uses"], problems: [] } });
    await settle();
    rmSync(part);
    const gone = box.listed();
    expect(gone.indexed).toBe(false);
    expect(gone.list).toEqual(box.plainList());
    expect(gone.list.names).toEqual([]);
    expect(gone.list.problems.join("\n")).toContain("uses.json");
    // the import's absence is recorded too: the file coming back is seen
    warm();
    await settle();
    writeFileSync(part, JSON.stringify({ template: "echo part" }));
    expect(box.listed()).toMatchObject({ indexed: false, list: { names: ["uses"], problems: [] } });
  });

  it("belongs to its working directory once a recipe's resolution read a path, and to none before", async () => {
    box = cacheBox();
    const { here, there } = twoWorkingDirs(box);
    await settle();
    // nothing read besides the recipes: one index serves every working directory
    box.listed({}, false, here);
    box.listed({}, false, here);
    expect(box.listed({}, false, there)).toMatchObject({ indexed: true, list: box.plainList(there) });
    // an import relative to the working directory: found from one folder, missing from the other
    await settle();
    box.write("uses.json", { description: "u", imports: { part: "parts/part.json" }, template: [{ name: "part" }] });
    await settle();
    for (let pass = 0; pass < 3; pass++) box.listed({}, false, here);
    expect(box.listed({}, false, here)).toMatchObject({ indexed: true, list: { names: ["alpha", "uses"], problems: [] } });
    const elsewhere = box.listed({}, false, there);
    expect(elsewhere.indexed).toBe(false);
    expect(elsewhere.list).toEqual(box.plainList(there));
    expect(elsewhere.list.names).toEqual(["alpha"]);
  });

  it("is not used when the root's mode changed (a group-writable root is reported)", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    chmodSync(box.root, 0o755);
    await settle();
    warm();
    chmodSync(box.root, 0o775);
    expect(box.listed()).toMatchObject({ indexed: false, list: box.plainList() });
  });

  it("is ignored when torn, damaged or written by other code", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    await settle();
    warm();
    const path = listIndexPath(box.root);
    const text = readFileSync(path, "utf8");
    const damaged = [
      text.slice(0, -1),
      text.replace('"names":["alpha"]', '"names":[7]'),
      `${JSON.stringify({ ...JSON.parse(text), list: { names: ["other"], problems: [] }, version: "0.0.0+other" })}\n`,
      "{}\n",
      text.replace(/"list":\{[^}]*\}/, '"list":null'),
    ];
    for (const bad of damaged) {
      writeFileSync(path, bad);
      expect(box.listed()).toMatchObject({ indexed: false, list: { names: ["alpha"], problems: [] } });
    }
    // a version of its own, named by the caller: another version's index is not this one's
    expect(box.listed({ version: "another" }).indexed).toBe(false);
    expect(box.listed({ version: "another" }).indexed).toBe(true);
    expect(box.listed().indexed).toBe(false);
    expect(box.listed().indexed).toBe(true);
  });

  it("is not written for a recipe file as new as the pass that read it", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    // no wait: the file may share the clock's tick with the pass; whether the pass could vouch
    // for it or not, the list is the discovery's
    const first = box.listed();
    expect(first.list).toEqual(box.plainList());
    // a file dated in the future is never older than a pass: never indexed
    const later = new Date(Date.now() + 3_600_000);
    const { utimesSync } = await import("node:fs");
    utimesSync(join(box.root, "alpha.json"), later, later);
    for (let pass = 0; pass < 3; pass++) expect(box.listed()).toMatchObject({ indexed: false, list: box.plainList() });
  });
});
