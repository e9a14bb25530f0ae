// The compile cache never serves stale content: each hazard named by the cache's design, on real
// files, against discovery without the cache; and a current cache spares the reads.
import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeScanPort } from "../../adapters/fs/scan.js";
import { discover } from "../../core/discovery/discover.js";
import { agentPaths } from "../../runtime/agent-paths.js";
import { beginCompileCache, compileCachePath } from "../../runtime/compile-cache.js";
import { readSnapshot } from "../../runtime/recipe-snapshot.js";
import { cacheBox, nextTick, type CacheBox } from "../support/compile-cache-box.js";
import { CACHE_FORMAT } from "../../runtime/compile-cache-file.js";

let box: CacheBox;
beforeEach(() => {
  box = cacheBox();
});
afterEach(() => box.cleanup());

const tool = (d: { tools: readonly { name: string; description: string; config: { template: unknown }; surface: { names: readonly string[]; types: unknown } }[] }, name: string) =>
  d.tools.find((t) => t.name === name);
const cacheText = (): string => readFileSync(compileCachePath(box.root), "utf8");
/** the cache file parsed, its entries (stored as a flat list: path, entry, ...) as path -> entry */
const cacheHeader = (): { format: string; size: number; entries: Record<string, unknown> } => {
  const file = JSON.parse(cacheText()) as { format: string; size: number; entries: unknown[] };
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < file.entries.length; i += 2) entries[file.entries[i] as string] = file.entries[i + 1];
  return { ...file, entries };
};
/** the cache file written back from cacheHeader's form, on one line */
const writeHeader = (header: { entries: Record<string, unknown> }): void => {
  writeFileSync(compileCachePath(box.root), JSON.stringify({ ...header, entries: Object.entries(header.entries).flat() }) + "\n");
};

describe("the compile cache", () => {
  it("serves unchanged files without reading them, once their times are older than a pass", async () => {
    const paths = ["a", "b", "c"].map((n) => box.write(`${n}.json`, { description: `tool ${n}`, template: `echo ${n} {x}` }));
    expect((await box.cached()).reads).toBe(3);
    await nextTick(box.dir, paths);
    // the first pass ran in the files' own tick: this one checks their content once and re-stamps them
    await box.cached();
    const warm = await box.cached();
    expect(warm.reads).toBe(0);
    expect(warm.discovery).toEqual(box.plain());
  });

  it("an edit in the same tick, same size and same mtime, is not served stale", async () => {
    const path = box.write("same.json", { description: "first", template: "echo aaaa" });
    const future = new Date(Date.now() + 60_000);
    utimesSync(path, future, future);
    expect(tool((await box.cached({}, true)).discovery, "same")?.description).toBe("first");
    // a rewrite no identity can tell apart: same inode, same size, the same (future) mtime, and
    // a ctime that does not help (as when both writes land in one tick)
    writeFileSync(path, JSON.stringify({ description: "other", template: "echo bbbb" }));
    utimesSync(path, future, future);
    const after = await box.cached({}, true);
    expect(tool(after.discovery, "same")?.description).toBe("other");
    expect(after.discovery).toEqual(box.plain());
  });

  it("a racily clean entry is checked by content until its times are older than a pass", async () => {
    const path = box.write("racy.json", { description: "one", template: "echo 1" });
    const future = new Date(Date.now() + 60_000);
    utimesSync(path, future, future);
    await box.cached();
    // times not older than any pass yet (the mtime is in the future): every pass reads the file
    // to compare its hash
    expect((await box.cached()).reads).toBe(1);
    expect((await box.cached()).reads).toBe(1);
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    await nextTick(box.dir, [path]);
    // the pass's clock is the cache file's ctime, older than the ctime utimes just gave the file:
    // checked by content, and the cache is written again; the next pass's clock is newer, so it
    // checks once more and re-stamps the entry
    expect((await box.cached()).reads).toBe(1);
    expect((await box.cached()).reads).toBe(1);
    expect((await box.cached()).reads).toBe(0);
    expect((await box.cached()).discovery).toEqual(box.plain());
  });

  it("a torn cache file is ignored and rebuilt", async () => {
    box.write("t.json", { description: "torn", template: "echo t" });
    await box.cached();
    const text = cacheText();
    writeFileSync(compileCachePath(box.root), text.slice(0, Math.floor(text.length / 2)));
    const torn = await box.cached();
    expect(torn.reads).toBe(1);
    expect(torn.discovery).toEqual(box.plain());
    expect(cacheHeader()).toMatchObject({ format: CACHE_FORMAT });
  });

  it("a cache cut short after its header is ignored and rebuilt", async () => {
    const path = box.write("s.json", { description: "short", template: "echo s" });
    await box.cached();
    await nextTick(box.dir, [path]);
    await box.cached();
    const text = cacheText();
    writeFileSync(compileCachePath(box.root), text.slice(0, text.length - 5));
    const cut = await box.cached();
    expect(cut.reads).toBe(1);
    expect(cut.discovery).toEqual(box.plain());
    expect((await box.cached()).reads).toBe(0);
  });

  it("an entry whose stored config or argument surface is not of the stored shape is a miss: the file is compiled afresh", async () => {
    const c = box.write("c.json", { description: "config", template: "echo {x}", defaults: { x: "1" } });
    const s = box.write("s.json", { description: "surface", args: ["n:int"], template: "echo {n}", defaults: { n: "2" } });
    await box.cached();
    await nextTick(box.dir, [c, s]);
    await box.cached();
    expect((await box.cached()).reads).toBe(0);
    const header = cacheHeader() as { entries: Record<string, { r: { config: unknown; surface: { types: unknown } } }> };
    header.entries[c]!.r.config = "not a config";
    header.entries[s]!.r.surface.types = ["not", "types"];
    writeHeader(header);
    const damaged = await box.cached();
    // each damaged entry is a miss: its file is read and compiled again, nothing crashes
    expect(damaged.reads).toBe(2);
    expect(tool(damaged.discovery, "s")?.surface.types).toEqual({ n: { kind: "int" } });
    expect(damaged.discovery).toEqual(box.plain());
  });

  it("a served tool is a plain value: a structured clone equals it, and so does a fresh compile", async () => {
    const paths = [
      box.write("p.json", { description: "plain", args: ["n:int", "mode:enum(a,b)"], arg_descriptions: { n: "how many" }, template: ["echo {n}", { label: "two", template: "echo {mode=a}" }] }),
      box.write("q.md", "---\ndescription: markdown\nargs: file:path\n---\n\n```template\nwc -w {file}\n```\n"),
    ];
    await box.cached();
    await nextTick(box.dir, paths);
    await box.cached();
    const warm = await box.cached();
    expect(warm.reads).toBe(0);
    expect(warm.discovery.tools.length).toBe(2);
    for (const t of warm.discovery.tools) {
      // no getter, proxy or class instance: what a structured clone copies is all there is
      expect(structuredClone(t)).toStrictEqual(t);
      expect(Object.keys(t.config)).toEqual(Object.keys(tool(box.plain(), t.name)!.config));
    }
    expect(warm.discovery).toStrictEqual(box.plain());
  });

  it("a foreign file, or entries that are not entries, are ignored", async () => {
    box.write("f.json", { description: "foreign", template: "echo f" });
    await box.cached();
    writeFileSync(compileCachePath(box.root), JSON.stringify({ hello: "world" }));
    expect((await box.cached()).discovery).toEqual(box.plain());
    const valid = cacheHeader();
    for (const key of Object.keys(valid.entries)) valid.entries[key] = { id: 1, deps: "no" };
    writeHeader(valid);
    const damaged = await box.cached();
    expect(damaged.reads).toBe(1);
    expect(damaged.discovery).toEqual(box.plain());
  });

  it("a cache written by another version of the code is not used", async () => {
    const path = box.write("v.json", { description: "real", template: "echo v" });
    await box.cached({ version: "1.0.0+aaaa" });
    await nextTick(box.dir, [path]);
    await box.cached({ version: "1.0.0+aaaa" });
    // doctor the cached config: this version would now serve it, which shows the cache is used
    const doctored = cacheText().replace('"description":"real"', '"description":"doctored"');
    writeFileSync(compileCachePath(box.root), doctored);
    expect(tool((await box.cached({ version: "1.0.0+aaaa" })).discovery, "v")?.description).toBe("doctored");
    writeFileSync(compileCachePath(box.root), doctored);
    const other = await box.cached({ version: "1.0.1+bbbb" });
    expect(other.reads).toBe(1);
    expect(tool(other.discovery, "v")?.description).toBe("real");
  });

  it("an import edited while its importer is not is seen by the importer", async () => {
    const importer = box.write("uses.json", { description: "Uses", imports: { helper: "helper" }, template: ["echo start", { name: "helper" }] });
    const helper = box.write("helper.json", { description: "Helper", template: "echo helper-one" });
    await box.cached();
    await nextTick(box.dir, [importer, helper]);
    await box.cached();
    expect((await box.cached()).reads).toBe(0);
    writeFileSync(helper, JSON.stringify({ description: "Helper", template: "echo helper-two-changed" }));
    const after = await box.cached();
    expect(JSON.stringify(tool(after.discovery, "uses")?.config.template)).toContain("helper-two-changed");
    expect(after.discovery).toEqual(box.plain());
  });

  it("an import that appears, or is replaced by a rename, is seen", async () => {
    const importer = box.write("needs.json", { description: "Needs", imports: { part: "part" }, template: [{ name: "part" }] });
    await box.cached();
    await nextTick(box.dir, [importer]);
    await box.cached();
    expect((await box.cached()).discovery).toEqual(box.plain());
    box.write("part.json", { description: "Part", template: "echo part-one" });
    expect((await box.cached()).discovery).toEqual(box.plain());
    writeFileSync(join(box.dir, "other.json"), JSON.stringify({ description: "Part", template: "echo part-two" }));
    renameSync(join(box.dir, "other.json"), join(box.root, "part.json"));
    const after = await box.cached();
    expect(JSON.stringify(tool(after.discovery, "needs")?.config.template)).toContain("part-two");
    expect(after.discovery).toEqual(box.plain());
  });

  it("two writers at once leave a whole cache file, and it serves the truth", async () => {
    box.write("w1.json", { description: "one", template: "echo 1" });
    box.write("w2.json", { description: "two", template: "echo 2" });
    const scan = makeScanPort(nodeFs);
    const paths = agentPaths({ PI_CODING_AGENT_DIR: join(box.root, "..") }, box.dir, box.dir);
    const first = beginCompileCache(scan, paths)!;
    const second = beginCompileCache(scan, paths)!;
    // both passes compile before either writes: the later rename wins, whole
    const a = discover(readSnapshot(scan, { paths }, first), { compiled: first.hook });
    writeFileSync(join(box.root, "w2.json"), JSON.stringify({ description: "two, edited", template: "echo 2" }));
    const b = discover(readSnapshot(scan, { paths }, second), { compiled: second.hook });
    expect(tool(a, "w2")?.description).toBe("two");
    expect(tool(b, "w2")?.description).toBe("two, edited");
    second.finish();
    first.finish();
    expect(cacheHeader()).toMatchObject({ format: CACHE_FORMAT });
    // the first writer's older compile of w2 is what the file holds now: its identity no longer matches
    expect(tool((await box.cached()).discovery, "w2")?.description).toBe("two, edited");
    expect((await box.cached()).discovery).toEqual(box.plain());
    // no temp file is left behind
    expect(nodeFs.readdirSync(join(box.root, ".cache"))).toEqual(["compile.json"]);
  });

  it("a deleted file leaves the cache, and a file renamed onto another's name is compiled afresh", async () => {
    const a = box.write("a.json", { description: "A", template: "echo a" });
    const b = box.write("b.json", { description: "B", template: "echo b" });
    await box.cached();
    await nextTick(box.dir, [a, b]);
    await box.cached();
    nodeFs.rmSync(a);
    expect((await box.cached()).discovery).toEqual(box.plain());
    expect(Object.keys(cacheHeader().entries)).toEqual([b]);
    renameSync(b, a);
    const after = await box.cached();
    expect(after.discovery).toEqual(box.plain());
    expect(tool(after.discovery, "a")?.description).toBe("B");
    expect(statSync(a).size).toBeGreaterThan(0);
  });
});
