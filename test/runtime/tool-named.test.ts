// One tool for a command that needs only it (`call`): made from its recipe file's one compile
// cache entry while the list index is current (runtime/registry.ts toolNamed), equal to the tool a
// discovery without any cache makes, and from a full discovery whenever that entry cannot vouch
// for itself. Real files.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheBox, nextTick, type CacheBox } from "../support/compile-cache-box.js";
import { compileCachePath } from "../../runtime/compile-cache.js";

let box: CacheBox;
afterEach(() => box?.cleanup());

// past every file the test wrote, the recipes and the files outside the root they import alike
const settle = (): Promise<void> => nextTick(box.dir, [box.dir]);

/** Lists until the list index answers (see list-index.test.ts): from then on it is current. */
function warm(): void {
  for (let pass = 0; pass < 3; pass++) if (box.listed().indexed) return;
  throw new Error("the list index never answered");
}

const plainTool = (name: string) => box.plain().tools.find((t) => t.name === name);

/** a recipe importing `part` (a file outside the root) */
function withImport(): string {
  const parts = join(box.dir, "parts");
  mkdirSync(parts, { recursive: true });
  const part = join(parts, "part.json");
  writeFileSync(part, JSON.stringify({ template: "echo part" }));
  box.write("uses.json", { description: "uses a part", imports: { part }, template: [{ name: "part" }, "echo after"] });
  return part;
}

describe("one tool by name", () => {
  it("under a current list index is made from its one compile cache entry, equal to a discovery's tool", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", args: ["n:int", "mode:enum(a,b)"], defaults: { n: "2" }, template: "echo {n} {mode}" });
    box.write("beta.md", "---\ndescription: b\nargs: [file:path]\n---\n\n```template\nwc -l {file}\n```\n");
    // a Markdown twin the JSON recipe shadows
    box.write("twin.json", { description: "json twin", template: "echo json" });
    box.write("twin.md", "---\ndescription: md twin\n---\n\n```template\necho md\n```\n");
    box.write("off.json", { description: "off", disabled: true, template: "echo off" });
    box.write("broken.json", "{ not json");
    withImport();
    await settle();
    warm();
    const names = box.plain().tools.map((t) => t.name);
    expect(names).toEqual(["alpha", "beta", "twin", "uses"]);
    for (const name of names) {
      const found = box.named(name);
      expect(found.discovery).toBeUndefined();
      expect(found.tool).toEqual(plainTool(name));
      // no recipe file read: the tool came from the compile cache
      expect(found.reads).toBe(0);
    }
    // no recipe of that name: the index says so, with the tools there are
    expect(box.named("nothing")).toEqual({ unknown: names, reads: 0 });
    // a disabled and a broken recipe: a discovery says why they are no tools
    for (const name of ["off", "broken"]) {
      const found = box.named(name);
      expect(found.tool).toBeUndefined();
      expect(found.unknown).toBeUndefined();
      expect(found.discovery).toEqual(box.plain());
    }
  });

  it("after an edit comes from a discovery, which writes the list index again for the next", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "first", template: "echo a" });
    await settle();
    warm();
    expect(box.named("alpha").tool?.description).toBe("first");
    await settle();
    box.write("alpha.json", { description: "second", template: "echo a" });
    await settle();
    const after = box.named("alpha");
    expect(after.tool).toBeUndefined();
    expect(after.discovery?.tools.find((t) => t.name === "alpha")?.description).toBe("second");
    // the discovery wrote the compile cache and the list index: within two more passes (the
    // clock has to pass the rewritten file) the tool is made from its entry again
    let fast = box.named("alpha");
    for (let pass = 0; pass < 3 && fast.tool === undefined; pass++) {
      await settle();
      fast = box.named("alpha");
    }
    expect(fast.tool).toEqual(plainTool("alpha"));
    expect(fast.reads).toBe(0);
  });

  it("an entry of an older compile cache is not served, though the list index is current", async () => {
    box = cacheBox();
    const alpha = box.write("alpha.json", { description: "old", template: "echo a" });
    const part = withImport();
    await settle();
    warm();
    const older = join(box.dir, "compile.older.json");
    copyFileSync(compileCachePath(box.root), older);
    // the recipe edited and the file it imports edited; then the index is made current again
    await settle();
    writeFileSync(alpha, JSON.stringify({ description: "new", template: "echo a" }));
    writeFileSync(part, JSON.stringify({ template: "echo other part" }));
    await settle();
    warm();
    expect(box.named("alpha").tool?.description).toBe("new");
    // the compile cache put back as it was before the edits: its entry for alpha was made from
    // other bytes, and its entry for uses read another part
    for (const name of ["alpha", "uses"]) {
      // (each time: the discovery that answers writes the cache afresh)
      copyFileSync(older, compileCachePath(box.root));
      const found = box.named(name);
      expect(found.tool).toBeUndefined();
      expect(found.discovery?.tools.find((t) => t.name === name)).toEqual(plainTool(name));
    }
    // the imported part is compiled into the tool: the older entry would show the older part
    expect(box.plain().tools.find((t) => t.name === "uses")?.config.template).toEqual(["echo other part", "echo after"]);
  });

  it("an entry of a cache file written by other code is not served", async () => {
    box = cacheBox();
    for (const n of ["alpha", "beta", "gamma"]) box.write(`${n}.json`, { description: n, template: `echo ${n}` });
    await settle();
    warm();
    expect(box.named("gamma").tool).toBeDefined();
    // the same entries under another code version: a version compiles differently
    const text = readFileSync(compileCachePath(box.root), "utf8");
    const version = /"version":("[^"]*")/.exec(text)![1]!;
    for (const name of ["alpha", "beta", "gamma"]) {
      // (each time: the discovery that answers writes the cache afresh)
      writeFileSync(compileCachePath(box.root), text.replace(`"version":${version}`, `"version":"0.0.0+other"`));
      const found = box.named(name);
      expect(found.tool).toBeUndefined();
      expect(found.discovery?.tools.map((t) => t.name)).toEqual(["alpha", "beta", "gamma"]);
    }
  });
});
