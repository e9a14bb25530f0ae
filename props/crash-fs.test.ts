// The crash harness itself: what a power failure may lose and what it must keep, so that the
// properties built on it mean something (see props/support/crash-disk.ts for the model).
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { Volume } from "memfs";
import { isAtomicTempName, readText, writeFileAtomic, writeFileAtomicExclusive, type FileSystem } from "../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import { CrashDisk, countMutations, exploreCrashes, isSimulatedCrash, makeCrashingFileSystem, recoverView, SimulatedCrash } from "./support/crash-fs.js";
import { numRuns } from "./support/runs.js";

const DIR = "/r";
const TARGET = `${DIR}/x.json`;

const seeded = (files: Record<string, string>): MemFileSystem => makeMemFileSystem(Volume.fromJSON(files) as Volume);

async function listing(fs: FileSystem, dir = DIR): Promise<string[]> {
  return (await fs.readdir(dir)).map((e) => e.name).sort();
}

const read = async (fs: FileSystem, path: string): Promise<string | undefined> => readText(fs, path).catch(() => undefined);

/** the target holds old or new whole (or is absent when it was), plus at most one recognised temp */
async function expectAllOldOrAllNew(view: FileSystem, old: string | undefined, next: string, context: string): Promise<void> {
  const names = await listing(view);
  const strays = names.filter((n) => n !== "x.json" && n !== "other.json");
  expect(strays.every(isAtomicTempName), `${context}: strays ${strays.join()}`).toBe(true);
  expect(strays.length, context).toBeLessThanOrEqual(1);
  expect([old, next], `${context}: content`).toContain(await read(view, TARGET));
}

describe("the crashing wrapper", () => {
  it("counts mutations only, and writeFileAtomic makes five (open wx, write, sync, rename, fsyncDir)", async () => {
    const n = await countMutations(async (fs) => {
      await fs.readdir("/");
      await fs.stat("/");
      await writeFileAtomic(fs, TARGET, "{}");
      await readText(fs, TARGET);
    }, seeded({ [`${DIR}/other.json`]: "{}" }));
    expect(n).toBe(5);
  });

  it("loses power before the k-th mutation, then fails every call", async () => {
    const inner = seeded({ [`${DIR}/a.json`]: "a" });
    const fs = makeCrashingFileSystem(inner, { crashAt: 1 });
    await fs.writeFile(`${DIR}/b.json`, "b");
    const crash = await fs.rename(`${DIR}/a.json`, `${DIR}/c.json`).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(SimulatedCrash);
    expect(fs.crashed).toBe(true);
    expect(fs.trace).toEqual([`writeFile ${DIR}/b.json`, `CRASH before rename ${DIR}/a.json -> ${DIR}/c.json`, `  lost: writeFile ${DIR}/b.json`]);
    for (const call of [() => fs.readFile(`${DIR}/a.json`), () => fs.readdir(DIR), () => fs.mkdir("/z"), () => fs.stat(DIR)]) {
      expect(isSimulatedCrash(await call().catch((e: unknown) => e))).toBe(true);
    }
    // the rename never happened and the unsynced create was lost
    expect(await listing(recoverView(inner))).toEqual(["a.json"]);
  });

  it("kills open handles too", async () => {
    const fs = makeCrashingFileSystem(seeded({ [`${DIR}/a.json`]: "a" }), { crashAt: 2 });
    const h = await fs.open(`${DIR}/n.json`, "wx");
    await h.write("x");
    expect(isSimulatedCrash(await h.sync().catch((e: unknown) => e))).toBe(true);
    expect(isSimulatedCrash(await h.close().catch((e: unknown) => e))).toBe(true);
  });
});

describe("the worst case loses everything not durable", () => {
  const after = async (files: Record<string, string>, run: (fs: FileSystem) => Promise<void>): Promise<MemFileSystem> => {
    const inner = seeded(files);
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity });
    await run(fs);
    await fs.crash();
    return recoverView(inner);
  };

  it("file data needs its fsync: unsynced overwrites and appends fall back, synced data stays", async () => {
    const view = await after({ [`${DIR}/w.json`]: "old", [`${DIR}/a.json`]: "head", [`${DIR}/s.json`]: "s0" }, async (fs) => {
      await fs.writeFile(`${DIR}/w.json`, "new");
      await fs.writeFile(`${DIR}/a.json`, "+tail", { flag: "a" });
      const h = await fs.open(`${DIR}/s.json`, "w");
      await h.write("s1");
      await h.sync();
      await h.close();
    });
    expect([await read(view, `${DIR}/w.json`), await read(view, `${DIR}/a.json`), await read(view, `${DIR}/s.json`)]).toEqual(["old", "head", "s1"]);
  });

  it("a new file's name needs its folder's fsync, even when its data was synced", async () => {
    const make = async (fs: FileSystem, name: string): Promise<void> => {
      const h = await fs.open(`${DIR}/${name}`, "wx");
      await h.write(name);
      await h.sync();
      await h.close();
    };
    const view = await after({ [`${DIR}/keep`]: "" }, async (fs) => {
      await make(fs, "durable");
      await fs.fsyncDir(DIR);
      await make(fs, "lost");
    });
    expect(await listing(view)).toEqual(["durable", "keep"]);
    expect(await read(view, `${DIR}/durable`)).toBe("durable");
  });

  it("unlink, mkdir, link and rmdir are undone without the folder fsync", async () => {
    const view = await after({ [`${DIR}/gone.json`]: "g", [`${DIR}/src.json`]: "s", [`${DIR}/empty/.keep`]: "" }, async (fs) => {
      await fs.unlink(`${DIR}/gone.json`);
      await fs.mkdir(`${DIR}/new`);
      await fs.link(`${DIR}/src.json`, `${DIR}/alias.json`);
      await fs.unlink(`${DIR}/empty/.keep`);
      await fs.fsyncDir(`${DIR}/empty`);
      await fs.rmdir(`${DIR}/empty`);
    });
    expect(await listing(view)).toEqual(["empty", "gone.json", "src.json"]);
    expect(await read(view, `${DIR}/gone.json`)).toBe("g");
    expect(await listing(view, `${DIR}/empty`)).toEqual([]);
  });

  it("a rename needs both of its folders fsynced; one is not enough", async () => {
    const files = { [`${DIR}/a/f.json`]: "F", [`${DIR}/b/f.json`]: "old" };
    const move = (sync: readonly string[]) => async (fs: FileSystem) => {
      await fs.rename(`${DIR}/a/f.json`, `${DIR}/b/f.json`);
      for (const d of sync) await fs.fsyncDir(d);
    };
    for (const sync of [[], [`${DIR}/a`], [`${DIR}/b`]]) {
      const view = await after(files, move(sync));
      expect([await read(view, `${DIR}/a/f.json`), await read(view, `${DIR}/b/f.json`)], sync.join()).toEqual(["F", "old"]);
    }
    const view = await after(files, move([`${DIR}/a`, `${DIR}/b`]));
    expect([await read(view, `${DIR}/a/f.json`), await read(view, `${DIR}/b/f.json`)]).toEqual([undefined, "F"]);
  });

  it("a folder whose own name is not durable takes its files with it", async () => {
    const view = await after({ [`${DIR}/.keep`]: "" }, async (fs) => {
      await fs.mkdir(`${DIR}/d`);
      await writeFileAtomic(fs, `${DIR}/d/f.json`, "f");
    });
    expect(await listing(view)).toEqual([".keep"]);
  });
});

describe("a seeded power failure", () => {
  it("leaves an unsynced overwrite old, new, cut short or garbage, depending on the seed", async () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const inner = seeded({ [TARGET]: "old-content" });
      const fs = makeCrashingFileSystem(inner, { crashAt: Infinity, seed });
      await fs.writeFile(TARGET, "new-content");
      await fs.crash();
      const bytes = new TextDecoder().decode(inner.vol.readFileSync(TARGET) as Buffer);
      seen.add(bytes === "old-content" ? "old" : bytes === "new-content" ? "new" : "new-content".startsWith(bytes) ? "cut" : "garbage");
    }
    expect([...seen].sort()).toEqual(["cut", "garbage", "new", "old"]);
  });

  test.prop([fc.integer({ min: 0, max: 2 ** 30 })], { numRuns: numRuns(30) })("never undoes what was made durable (acknowledged means durable)", async (seed) => {
    const inner = seeded({ [`${DIR}/old.json`]: "o", [`${DIR}/sub/.keep`]: "" });
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity, seed });
    await writeFileAtomic(fs, `${DIR}/a.json`, "A");
    await fs.rename(`${DIR}/old.json`, `${DIR}/sub/moved.json`);
    await fs.mkdir(`${DIR}/made`);
    await fs.fsyncDir(`${DIR}`);
    await fs.fsyncDir(`${DIR}/sub`);
    await fs.writeFile(`${DIR}/unsynced.json`, "u");
    await fs.crash();
    const view = recoverView(inner);
    expect(await read(view, `${DIR}/a.json`)).toBe("A");
    expect(await read(view, `${DIR}/sub/moved.json`)).toBe("o");
    expect(await read(view, `${DIR}/old.json`)).toBeUndefined();
    expect((await view.stat(`${DIR}/made`)).kind).toBe("dir");
  });

  it("replays exactly from its seed", async () => {
    const outcome = async (seed: number): Promise<unknown> => {
      const inner = seeded({ [TARGET]: "0123456789" });
      const fs = makeCrashingFileSystem(inner, { crashAt: Infinity, seed });
      await fs.writeFile(TARGET, "abcdefghij");
      await fs.rename(TARGET, `${DIR}/y.json`);
      await fs.crash();
      return inner.vol.toJSON();
    };
    for (const seed of [1, 2, 3]) expect(await outcome(seed)).toEqual(await outcome(seed));
  });
});

describe("processes on one disk", () => {
  it("a killed process loses nothing the disk accepted; a power failure kills every process", async () => {
    const disk = new CrashDisk(seeded({ [`${DIR}/.keep`]: "" }));
    const a = disk.process("a");
    const b = disk.process("b");
    await a.writeFile(`${DIR}/a.json`, "A");
    a.kill();
    expect(isSimulatedCrash(await a.readFile(`${DIR}/a.json`).catch((e: unknown) => e))).toBe(true);
    expect(new TextDecoder().decode(await b.readFile(`${DIR}/a.json`))).toBe("A");
    await b.writeFile(`${DIR}/b.json`, "B");
    expect(disk.mutations).toBe(2);
    await disk.powerFail();
    expect(isSimulatedCrash(await b.stat(DIR).catch((e: unknown) => e))).toBe(true);
    expect(await listing(recoverView(disk.inner))).toEqual([".keep"]);
  });
});

const contentArb = fc.string({ maxLength: 40 }).map((s) => JSON.stringify({ s }));

describe("writeFileAtomic under a crash at every mutation", () => {
  test.prop([fc.option(contentArb, { nil: undefined }), contentArb, fc.option(fc.integer({ min: 0, max: 2 ** 30 }), { nil: undefined })], { numRuns: numRuns(40) })(
    "leaves the target all-old or all-new, a complete write durable, and at most one recognised temp",
    async (old, next, seed) => {
      const files: Record<string, string> = { [`${DIR}/other.json`]: "{}" };
      if (old !== undefined) files[TARGET] = old;
      const n = await exploreCrashes({
        setup: () => seeded(files),
        run: (fs) => writeFileAtomic(fs, TARGET, next),
        ...(seed === undefined ? {} : { seed }),
        check: async (view, k, trace, { completed }) => {
          const context = `k=${k} ${trace.join(" | ")}`;
          await expectAllOldOrAllNew(view, old, next, context);
          if (completed) {
            expect(await readText(view, TARGET), context).toBe(next);
            expect(await listing(view), context).toEqual(["other.json", "x.json"]);
          }
          expect(await readText(view, `${DIR}/other.json`)).toBe("{}");
        },
      });
      expect(n).toBe(5);
    },
  );
});

describe("writeFileAtomicExclusive under a crash at every mutation", () => {
  // what a create-only writer may leave at the target after any crash: what was there before
  // (never replaced), or nothing, or the whole new file; a write that returned is durable and
  // leaves no temp; a target that existed fails the write with EEXIST and keeps its bytes.
  // The harness counts a crash in the writer's best-effort temp cleanup as a completed run.
  const explore = (old: string | undefined, next: string, seed: number | undefined, write: (fs: FileSystem) => Promise<void>): Promise<number> => {
    const files: Record<string, string> = { [`${DIR}/other.json`]: "{}" };
    if (old !== undefined) files[TARGET] = old;
    return exploreCrashes({
      setup: () => seeded(files),
      run: async (fs) => {
        try {
          await write(fs);
        } catch (e) {
          if (old !== undefined && (e as { code?: unknown }).code === "EEXIST") return;
          throw e;
        }
      },
      ...(seed === undefined ? {} : { seed }),
      check: async (view, k, trace, { completed }) => {
        const context = `k=${k} ${trace.join(" | ")}`;
        const names = await listing(view);
        const strays = names.filter((n) => n !== "x.json" && n !== "other.json");
        expect(strays.every(isAtomicTempName), `${context}: strays ${strays.join()}`).toBe(true);
        const content = await read(view, TARGET);
        if (old !== undefined) expect(content, `${context}: an existing file was replaced`).toBe(old);
        else expect([undefined, next], `${context}: content`).toContain(content);
        if (completed) {
          expect(content, context).toBe(old ?? next);
          // a refused write removes its temp without a folder fsync: a crash may bring the temp
          // back (a recognised stray, checked above), never anything at the target
          if (old === undefined) expect(names, context).toEqual(["other.json", "x.json"]);
        }
      },
    });
  };

  test.prop([fc.option(contentArb, { nil: undefined }), contentArb, fc.option(fc.integer({ min: 0, max: 2 ** 30 }), { nil: undefined })], { numRuns: numRuns(30) })(
    "never replaces an existing file, leaves none or the whole new one, and a complete write is durable without a temp",
    async (old, next, seed) => {
      const n = await explore(old, next, seed, (fs) => writeFileAtomicExclusive(fs, TARGET, next));
      // open wx, write, sync, link, then unlink the temp and fsyncDir; a taken name: the failed
      // link and the temp's removal
      expect(n).toBe(old === undefined ? 6 : 5);
    },
  );

  it("catches a create-only writer that renames (it replaces an existing file)", async () => {
    const renaming = async (fs: FileSystem): Promise<void> => {
      const h = await fs.open(`${DIR}/.x.json.1.tmp`, "wx");
      await h.write('{"v":"new"}');
      await h.sync();
      await h.close();
      await fs.rename(`${DIR}/.x.json.1.tmp`, TARGET);
      await fs.fsyncDir(DIR);
    };
    await expect(explore('{"v":"old"}', '{"v":"new"}', undefined, renaming)).rejects.toThrow(/an existing file was replaced/);
  });

  it("catches a create-only writer that links an unsynced temp (a crash leaves an empty target)", async () => {
    const unsynced = async (fs: FileSystem): Promise<void> => {
      await fs.writeFile(`${DIR}/.x.json.1.tmp`, '{"v":"new"}', { flag: "wx" });
      await fs.link(`${DIR}/.x.json.1.tmp`, TARGET);
      await fs.unlink(`${DIR}/.x.json.1.tmp`);
      await fs.fsyncDir(DIR);
    };
    await expect(explore(undefined, '{"v":"new"}', undefined, unsynced)).rejects.toThrow(/content/);
  });
});

// Negative controls: the same exploration must catch writers that are not crash-safe.
describe("the harness catches unsafe writers", () => {
  const findViolations = async (run: (fs: FileSystem) => Promise<void>): Promise<string[]> => {
    const seen: string[] = [];
    await exploreCrashes({
      setup: () => seeded({ [TARGET]: '{"v":"old"}' }),
      run,
      check: async (view, k, _trace, { completed }) => {
        const content = (await read(view, TARGET)) ?? "<absent>";
        if (content !== '{"v":"old"}' && content !== '{"v":"new"}') seen.push(`k=${k}: partial ${JSON.stringify(content)}`);
        else if (completed && content !== '{"v":"new"}') seen.push(`k=${k}: completed write lost`);
      },
    });
    return seen;
  };

  it("a plain writeFile over the target loses the old content and the write", async () => {
    expect(await findViolations((fs) => fs.writeFile(TARGET, '{"v":"new"}'))).toEqual(["k=1: completed write lost"]);
  });

  it("an unsynced temp renamed over the target leaves an empty file", async () => {
    const run = async (fs: FileSystem): Promise<void> => {
      await fs.writeFile(`${DIR}/.x.json.1.tmp`, '{"v":"new"}');
      await fs.rename(`${DIR}/.x.json.1.tmp`, TARGET);
      await fs.fsyncDir(DIR);
    };
    expect(await findViolations(run)).toContain('k=3: partial ""');
  });

  it("a rename without the folder fsync loses a completed write", async () => {
    const run = async (fs: FileSystem): Promise<void> => {
      const h = await fs.open(`${DIR}/.x.json.1.tmp`, "wx");
      await h.write('{"v":"new"}');
      await h.sync();
      await h.close();
      await fs.rename(`${DIR}/.x.json.1.tmp`, TARGET);
    };
    expect(await findViolations(run)).toEqual(["k=4: completed write lost"]);
  });
});
