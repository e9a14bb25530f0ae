// The whole-root snapshot (runtime/root-snapshot.ts): discover() answered from the compile cache
// file's `root` section while nothing it was made from changed (no recipe, draft or import read,
// nothing compiled, nothing resolved), and by a full discovery as soon as anything did. Real files.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cacheBox, nextTick, twoWorkingDirs, type CacheBox } from "../support/compile-cache-box.js";
import { compileCachePath } from "../../runtime/compile-cache.js";
import { listIndexPath } from "../../runtime/list-index.js";

// every compile the registry runs (runtime/compile-step.ts is the one compile step it is given)
const compiles = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../runtime/compile-step.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../runtime/compile-step.js")>();
  return {
    compileStep: (...args: Parameters<typeof real.compileStep>) => {
      compiles.count++;
      return real.compileStep(...args);
    },
  };
});

let box: CacheBox;
afterEach(() => box?.cleanup());

/** waits for the file-system clock, so that the next write is newer than every pass so far */
// past every file the test wrote, the recipes and the files outside the root they import alike
const settle = (): Promise<void> => nextTick(box.dir, [box.dir]);

/** Discovers until the snapshot answers: a pass writes it only when every file it looked at is
 *  older than its clock, which after a change is the case from the pass after the one that
 *  rewrote the compile cache. Every answer is the discovery without any cache. */
async function warm(cwd?: string, after = "the set-up"): Promise<void> {
  for (let pass = 0; pass < 4; pass++) {
    const r = await box.cached({}, false, cwd);
    expect(r.discovery).toStrictEqual(box.plain(cwd));
    if (r.snapshot) return;
  }
  throw new Error(`the snapshot never answered after ${after}`);
}

/** one discovery through the cache, counting the compiles it ran */
async function counted(cwd?: string): Promise<{ snapshot: boolean; reads: number; compiles: number }> {
  const before = compiles.count;
  const r = await box.cached({}, false, cwd);
  const ran = compiles.count - before;
  expect(r.discovery).toStrictEqual(box.plain(cwd));
  return { snapshot: r.snapshot, reads: r.reads, compiles: ran };
}

const drafts = (): string => join(box.root, "drafts");
const draft = (name: string, body: unknown): string => {
  mkdirSync(drafts(), { recursive: true });
  const path = join(drafts(), name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};

describe("the whole-root snapshot", () => {
  it("answers an unchanged root without reading a recipe, a draft or an import, and compiles nothing", async () => {
    box = cacheBox();
    const parts = join(box.dir, "parts");
    mkdirSync(parts);
    writeFileSync(join(parts, "part.json"), JSON.stringify({ template: "echo part" }));
    box.write("alpha.json", { description: "a", template: "echo a {x}" });
    box.write("uses.json", { description: "u", imports: { part: join(parts, "part.json") }, template: [{ name: "part" }, "echo after"] });
    box.write("alpha.md", "---\ndescription: shadowed twin\n---\n\n```template\necho md\n```\n");
    box.write("broken.json", "{ not json");
    draft("idea.json", { description: "an idea", template: "echo idea" });
    await settle();
    // the first pass reads and compiles everything; a pass that the snapshot does not answer
    // still reads and compiles the draft (drafts are not in the compile cache)
    const cold = await counted();
    expect(cold).toMatchObject({ snapshot: false });
    expect(cold.compiles).toBeGreaterThan(4);
    await warm();
    const hit = await counted();
    expect(hit).toEqual({ snapshot: true, reads: 0, compiles: 0 });
    const { discovery } = await box.cached();
    expect(discovery.tools.map((t) => t.name)).toEqual(["alpha", "uses"]);
    expect(discovery.drafts.map((d) => d.id)).toEqual(["idea"]);
    expect(discovery.diagnostics.join("\n")).toContain("broken.json");
  });

  it("is not used after a change the discovery depends on, and is written again after it", async () => {
    box = cacheBox();
    const parts = join(box.dir, "parts");
    mkdirSync(parts);
    const part = join(parts, "part.json");
    writeFileSync(part, JSON.stringify({ template: "echo part" }));
    const alpha = box.write("alpha.json", { description: "a", template: "echo a" });
    box.write("uses.json", { description: "u", imports: { part }, template: [{ name: "part" }] });
    await settle();
    await warm();
    const changes: [string, () => void][] = [
      ["a new recipe file", () => box.write("gamma.md", "---\ndescription: g\n---\n\n```template\necho g\n```\n")],
      ["a removed recipe file", () => rmSync(join(box.root, "gamma.md"))],
      // the same bytes again: same size, a new identity, so the snapshot cannot vouch for it
      ["a same-size rewrite", () => writeFileSync(alpha, readFileSync(alpha))],
      ["a changed import target", () => writeFileSync(part, JSON.stringify({ template: "echo PART" }))],
      ["a new draft", () => draft("idea.json", { description: "an idea", template: "echo idea" })],
      ["a changed draft", () => draft("idea.json", { description: "an idea", template: "echo IDEA" })],
      ["a removed draft", () => rmSync(join(drafts(), "idea.json"))],
      ["a group-writable root", () => chmodSync(box.root, 0o775)],
    ];
    for (const [what, change] of changes) {
      await settle();
      change();
      await settle();
      const after = await counted();
      expect({ what, snapshot: after.snapshot }).toEqual({ what, snapshot: false });
      await warm(undefined, what);
      expect({ what, snapshot: (await counted()).snapshot }).toEqual({ what, snapshot: true });
    }
    // the root mode is one of the registry's diagnostics, from the snapshot too
    expect((await box.cached()).discovery.diagnostics.join("\n")).toContain("group-writable");
  });

  it("is written again when a draft changed in the very tick of a cache write: the cache is written once more, so the next pass's clock vouches for it", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    const idea = draft("idea.json", { description: "an idea", template: "echo idea" });
    await settle();
    await warm();
    await settle();
    draft("idea.json", { description: "an idea", template: "echo IDEA" });
    await settle();
    // the first pass after the change drops the section and writes the cache
    expect((await counted()).snapshot).toBe(false);
    // from here on the draft looks written in the tick of that write: no pass can vouch for it
    // until the cache file is written again, later
    const cacheWrite = statSync(compileCachePath(box.root), { bigint: true }).ctimeNs;
    const sameTick = new Map([[idea, cacheWrite]]);
    const passes: boolean[] = [];
    for (let pass = 0; pass < 4 && passes.at(-1) !== true; pass++) {
      await nextTick(box.dir, [compileCachePath(box.root)]);
      const r = await box.cached({}, false, undefined, sameTick);
      expect(r.discovery).toStrictEqual(box.plain());
      passes.push(r.snapshot);
    }
    // one pass too close to the draft writes the cache again; the next writes the section; the
    // third is answered from it
    expect(passes).toEqual([false, false, true]);
  });

  it("belongs to its working directory once a resolution read a path, and to none before", async () => {
    box = cacheBox();
    const { here, there } = twoWorkingDirs(box);
    await settle();
    // nothing read besides the recipes: one snapshot serves every working directory
    await warm(here);
    expect(await counted(there)).toMatchObject({ snapshot: true });
    // an import relative to the working directory: found from one folder, missing from the other
    await settle();
    box.write("uses.json", { description: "u", imports: { part: "parts/part.json" }, template: [{ name: "part" }] });
    await settle();
    await warm(here);
    expect(await counted(there)).toMatchObject({ snapshot: false });
    expect((await box.cached({}, false, there)).discovery.tools.map((t) => t.name)).toEqual(["alpha"]);
  });

  it("belongs to its working directory once a draft's resolution read a path, and not for a draft alone", async () => {
    box = cacheBox();
    // a draft may import a listed recipe by a path relative to the working directory: that read
    // is of a listed file (no other path is looked at), yet the result depends on the directory
    const here = box.root;
    const there = join(box.dir, "there");
    mkdirSync(there);
    box.write("alpha.json", { description: "a", template: "echo a" });
    draft("idea.json", { description: "an idea", template: "echo idea" });
    await settle();
    await warm(here);
    expect(await counted(there)).toMatchObject({ snapshot: true });
    await settle();
    draft("uses.json", { description: "u", imports: { part: "./alpha.json" }, template: [{ name: "part" }] });
    await settle();
    await warm(here);
    expect((await box.cached({}, false, here)).discovery.drafts.map((d) => [d.id, d.valid])).toEqual([["idea", true], ["uses", true]]);
    expect(await counted(there)).toMatchObject({ snapshot: false });
    expect((await box.cached({}, false, there)).discovery.drafts.map((d) => [d.id, d.valid])).toEqual([["idea", true], ["uses", false]]);
  });

  it("is not used by another version of the code", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    await settle();
    await warm();
    const other = await box.cached({ version: "0.0.0+another" });
    expect(other.snapshot).toBe(false);
    expect(other.reads).toBe(1);
    expect(other.discovery).toStrictEqual(box.plain());
  });

  it("is a miss, never an error, when its section is torn or damaged", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a {x}" });
    box.write("beta.json", { description: "b", template: "echo b" });
    await settle();
    await warm();
    const path = compileCachePath(box.root);
    const text = readFileSync(path, "utf8");
    const file = JSON.parse(text) as { root: Record<string, unknown> };
    const root = file.root;
    const withRoot = (r: unknown): string => `${JSON.stringify({ ...file, root: r })}\n`;
    const damaged = [
      text.slice(0, -1),
      text.slice(0, text.length / 2),
      withRoot(null),
      withRoot("root"),
      withRoot({ ...root, t: "soon" }),
      withRoot({ ...root, entries: [[7]] }),
      withRoot({ ...root, entries: (root["entries"] as unknown[]).slice(1) }),
      withRoot({ ...root, entries: [...(root["entries"] as unknown[]), ...(root["entries"] as unknown[])] }),
      withRoot({ ...root, tools: [99] }),
      withRoot({ ...root, sources: [] }),
      withRoot({ ...root, drafts: [{ path: 3 }] }),
      withRoot({ ...root, draftIds: ["x"] }),
      withRoot({ ...root, extra: [[1, 2]] }),
      // an entry the section names but the file no longer holds
      `${JSON.stringify({ ...file, entries: {} })}\n`,
    ];
    for (const bad of damaged) {
      writeFileSync(path, bad);
      const r = await box.cached();
      expect(r.snapshot).toBe(false);
      expect(r.discovery).toStrictEqual(box.plain());
    }
  });

  it("is never written for a recipe or draft name that is no regular file", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    execFileSync("mkfifo", [join(box.root, "pipe.json")]);
    await settle();
    for (let pass = 0; pass < 4; pass++) expect(await counted()).toMatchObject({ snapshot: false });
    rmSync(join(box.root, "pipe.json"));
    mkdirSync(drafts());
    execFileSync("mkfifo", [join(drafts(), "pipe.json")]);
    await settle();
    for (let pass = 0; pass < 4; pass++) expect(await counted()).toMatchObject({ snapshot: false });
    rmSync(join(drafts(), "pipe.json"));
    await settle();
    await warm();
  });

  it("is never written while a file is as new as the pass that read it", async () => {
    box = cacheBox();
    const alpha = box.write("alpha.json", { description: "a", template: "echo a" });
    await settle();
    await warm();
    // a file dated in the future is never older than a pass's clock: no pass can vouch for it
    const later = new Date(Date.now() + 3_600_000);
    writeFileSync(alpha, JSON.stringify({ description: "b", template: "echo b" }));
    utimesSync(alpha, later, later);
    for (let pass = 0; pass < 4; pass++) expect(await counted()).toMatchObject({ snapshot: false });
  });

  it("writes the list index when it answers a list the index could not", async () => {
    box = cacheBox();
    box.write("alpha.json", { description: "a", template: "echo a" });
    await settle();
    await warm();
    rmSync(listIndexPath(box.root), { force: true });
    const first = box.listed();
    expect(first).toMatchObject({ indexed: false, list: box.plainList() });
    expect(box.listed()).toMatchObject({ indexed: true, list: box.plainList(), reads: 0 });
  });
});
