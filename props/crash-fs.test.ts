import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { Volume } from "memfs";
import { isAtomicTempName, readText, writeFileAtomic, type FileSystem } from "../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import { countMutations, exploreCrashes, isSimulatedCrash, makeCrashingFileSystem, recoverView, SimulatedCrash } from "./support/crash-fs.js";

const DIR = "/r";
const TARGET = `${DIR}/x.json`;

const seeded = (files: Record<string, string>): MemFileSystem => makeMemFileSystem(Volume.fromJSON(files) as Volume);

async function listing(fs: FileSystem): Promise<string[]> {
  return (await fs.readdir(DIR)).map((e) => e.name).sort();
}

/** the target holds old or new whole (or is absent when it was), plus at most one recognised temp */
async function expectAllOldOrAllNew(view: FileSystem, old: string | undefined, next: string, context: string): Promise<void> {
  const names = await listing(view);
  const strays = names.filter((n) => n !== "x.json" && n !== "other.json");
  expect(strays.every(isAtomicTempName), `${context}: strays ${strays.join()}`).toBe(true);
  expect(strays.length, context).toBeLessThanOrEqual(1);
  const content = names.includes("x.json") ? await readText(view, TARGET) : undefined;
  expect([old, next], `${context}: content ${JSON.stringify(content)}`).toContain(content);
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

  it("throws SimulatedCrash before the k-th mutation, then on every call", async () => {
    const inner = seeded({ [`${DIR}/a.json`]: "a" });
    const fs = makeCrashingFileSystem(inner, { crashAt: 1 });
    await fs.writeFile(`${DIR}/b.json`, "b");
    const crash = await fs.rename(`${DIR}/a.json`, `${DIR}/c.json`).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(SimulatedCrash);
    expect(fs.crashed).toBe(true);
    expect(fs.trace).toEqual([`writeFile ${DIR}/b.json`, `CRASH before rename ${DIR}/a.json -> ${DIR}/c.json`]);
    for (const call of [() => fs.readFile(`${DIR}/a.json`), () => fs.readdir(DIR), () => fs.mkdir("/z"), () => fs.stat(DIR)]) {
      expect(isSimulatedCrash(await call().catch((e: unknown) => e))).toBe(true);
    }
    // the rename never happened; the restarted process sees the volume as the crash left it
    expect(await listing(recoverView(inner))).toEqual(["a.json", "b.json"]);
  });

  it("kills open handles too", async () => {
    const inner = seeded({ [`${DIR}/a.json`]: "a" });
    const fs = makeCrashingFileSystem(inner, { crashAt: 2 });
    const h = await fs.open(`${DIR}/n.json`, "wx");
    await h.write("x");
    expect(isSimulatedCrash(await h.sync().catch((e: unknown) => e))).toBe(true);
    expect(isSimulatedCrash(await h.close().catch((e: unknown) => e))).toBe(true);
  });

  it("with truncateUnsynced, loses data not fsynced: truncates stay, appends go, synced data stays", async () => {
    const inner = seeded({ [`${DIR}/trunc.json`]: "old", [`${DIR}/app.json`]: "head", [`${DIR}/synced.json`]: "s0", [`${DIR}/moved.json`]: "m0" });
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity, truncateUnsynced: true });
    await fs.writeFile(`${DIR}/trunc.json`, "new");
    await fs.writeFile(`${DIR}/app.json`, "+tail", { flag: "a" });
    const h = await fs.open(`${DIR}/synced.json`, "w");
    await h.write("s1");
    await h.sync();
    await h.close();
    await fs.writeFile(`${DIR}/fresh.json`, "fresh");
    await fs.writeFile(`${DIR}/moved.json`, "m1");
    await fs.rename(`${DIR}/moved.json`, `${DIR}/moved2.json`);
    await fs.crash();
    const view = recoverView(inner);
    const read = (name: string): Promise<string> => readText(view, `${DIR}/${name}`);
    expect(await read("trunc.json")).toBe("");
    expect(await read("app.json")).toBe("head");
    expect(await read("synced.json")).toBe("s1");
    expect(await read("fresh.json")).toBe("");
    expect(await read("moved2.json")).toBe("");
  });

  it("with rollbackUnsyncedRenames, undoes a rename whose folder was not fsynced and restores what it replaced", async () => {
    const inner = seeded({ [`${DIR}/a.json`]: "A", [`${DIR}/b.json`]: "B", [`${DIR}/c.json`]: "C", [`${DIR}/d.json`]: "D" });
    const fs = makeCrashingFileSystem(inner, { crashAt: Infinity, rollbackUnsyncedRenames: true });
    await fs.rename(`${DIR}/c.json`, `${DIR}/d.json`);
    await fs.fsyncDir(DIR);
    await fs.rename(`${DIR}/a.json`, `${DIR}/b.json`);
    await fs.crash();
    const view = recoverView(inner);
    expect(await listing(view)).toEqual(["a.json", "b.json", "d.json"]);
    expect(await readText(view, `${DIR}/a.json`)).toBe("A");
    expect(await readText(view, `${DIR}/b.json`)).toBe("B");
    expect(await readText(view, `${DIR}/d.json`)).toBe("C");
  });
});

const contentArb = fc.string({ maxLength: 40 }).map((s) => JSON.stringify({ s }));
const modes = [
  { truncateUnsynced: false, rollbackUnsyncedRenames: false },
  { truncateUnsynced: true, rollbackUnsyncedRenames: false },
  { truncateUnsynced: true, rollbackUnsyncedRenames: true },
] as const;

describe("writeFileAtomic under a crash at every mutation", () => {
  test.prop([fc.option(contentArb, { nil: undefined }), contentArb, fc.constantFrom(...modes)], { numRuns: 40 })(
    "leaves the target all-old or all-new, a complete write durable, and at most one recognised temp",
    async (old, next, mode) => {
      const files: Record<string, string> = { [`${DIR}/other.json`]: "{}" };
      if (old !== undefined) files[TARGET] = old;
      const n = await exploreCrashes({
        setup: () => seeded(files),
        run: (fs) => writeFileAtomic(fs, TARGET, next),
        ...mode,
        check: async (view, k, trace) => {
          const context = `k=${k} ${trace.join(" | ")}`;
          await expectAllOldOrAllNew(view, old, next, context);
          if (trace.at(-1) === "CRASH after the run") {
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

// Negative controls: the same exploration must catch writers that are not crash-safe.
describe("the wrapper catches unsafe writers", () => {
  const findViolation = async (run: (fs: FileSystem) => Promise<void>, mode: { truncateUnsynced: boolean; rollbackUnsyncedRenames?: boolean }): Promise<string[]> => {
    const seen: string[] = [];
    await exploreCrashes({
      setup: () => seeded({ [TARGET]: '{"v":"old"}' }),
      run,
      ...mode,
      check: async (view, k) => {
        const content = (await listing(view)).includes("x.json") ? await readText(view, TARGET) : "<absent>";
        const done = k === (await countMutations(run, seeded({ [TARGET]: '{"v":"old"}' })));
        if (content !== '{"v":"old"}' && content !== '{"v":"new"}') seen.push(`k=${k}: partial ${JSON.stringify(content)}`);
        else if (done && content !== '{"v":"new"}') seen.push(`k=${k}: completed write lost`);
      },
    });
    return seen;
  };

  it("a plain writeFile over the target leaves an empty file", async () => {
    const seen = await findViolation((fs) => fs.writeFile(TARGET, '{"v":"new"}'), { truncateUnsynced: true });
    expect(seen).toContain('k=1: partial ""');
  });

  it("an unsynced temp renamed over the target leaves an empty file", async () => {
    const run = async (fs: FileSystem): Promise<void> => {
      await fs.writeFile(`${DIR}/.x.json.1.tmp`, '{"v":"new"}');
      await fs.rename(`${DIR}/.x.json.1.tmp`, TARGET);
    };
    expect((await findViolation(run, { truncateUnsynced: true })).some((s) => s.includes('partial ""'))).toBe(true);
  });

  it("a rename without the folder fsync can lose a completed write", async () => {
    const run = async (fs: FileSystem): Promise<void> => {
      const h = await fs.open(`${DIR}/.x.json.1.tmp`, "wx");
      await h.write('{"v":"new"}');
      await h.sync();
      await h.close();
      await fs.rename(`${DIR}/.x.json.1.tmp`, TARGET);
    };
    expect(await findViolation(run, { truncateUnsynced: true })).toEqual([]);
    expect(await findViolation(run, { truncateUnsynced: true, rollbackUnsyncedRenames: true })).toEqual(["k=4: completed write lost"]);
  });
});
