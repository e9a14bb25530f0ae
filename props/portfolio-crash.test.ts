// The portfolio review killed at every file operation (a power failure: what was not made durable
// may be lost), recovery killed again inside itself on a sample: the capture and approval (a
// cycle: seeding, capture, the reviewer, approval), the activation and the snapshot rollback.
// After a restart every recipe holds exactly its pre-plan or post-plan bytes, all of them on the
// same side, no lineage is split from its recipe, recovery run twice changes nothing, and a later
// cycle runs. The properties are shown to fail against planted breaks (a file system that skips
// folder fsyncs; an activation that commits the lineages in a plan of their own before the files
// move; an approval that records its state before the plan it names). The portfolio here holds
// six tools (one of each decision kind, two kept), so that every operation can be crashed in
// reasonable time; the code path is the one a 36-tool portfolio takes
// (test/runtime/review/portfolio.test.ts, the CLI test).
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import type { MemFileSystem } from "../adapters/fs/memfs.js";
import { discoverThroughFs } from "../runtime/fs-discovery.js";
import { seedLineages } from "../runtime/ledger/index.js";
import { activatePortfolio, type ActivationFaults } from "../runtime/review/activate.js";
import { readApproved, readToolState, runPortfolioCycle } from "../runtime/review/portfolio-cycle.js";
import type { Reviewer } from "../runtime/review/reviewer.js";
import { rollbackTool } from "../runtime/review/rollback.js";
import { approvedVolume, freshVolume, name, nextCommand, paths, recipeText, ROOT, scripted, SIZE, text, withCtx } from "./support/portfolio-volume.js";
import { cloneVolume, exploreCrashes, makeCrashingFileSystem, recoverView, SimulatedCrash, type CrashingFileSystem } from "./support/crash-fs.js";

const BEFORE = Array.from({ length: SIZE }, (_, i) => name(i));
const AFTER = ["renamed_tool", "tool_03", ...BEFORE.slice(4)].sort();

const toolNames = async (fs: FileSystem): Promise<string[]> =>
  (await fs.readdir(ROOT)).filter((e) => e.kind === "file" && e.name.endsWith(".json")).map((e) => e.name.slice(0, -5)).sort();

/** every tool file is indexed under its own key by a ledger that points back at it */
async function expectLineagesFollowRecipes(fs: FileSystem, keys: readonly string[]): Promise<void> {
  const index = JSON.parse((await text(fs, `${paths.usageRoot}/index.json`))!) as { paths: Record<string, { ledger: string }> };
  for (const key of keys) {
    const id = index.paths[key]?.ledger;
    expect(id, `${key} has no lineage`).toBeDefined();
    const ledger = JSON.parse((await text(fs, `${paths.usageRoot}/recipes/${encodeURIComponent(id!)}.json`))!) as { current_path: string; lineage_name: string };
    expect(ledger.current_path).toBe(key);
    expect(ledger.lineage_name).toBe(key.slice(key.lastIndexOf("/") + 1, -5));
  }
}

/** which side the volume is on; throws when it is neither */
async function side(fs: FileSystem): Promise<"before" | "after"> {
  const names = await toolNames(fs);
  const after = JSON.stringify(names) === JSON.stringify(AFTER);
  expect(after || JSON.stringify(names) === JSON.stringify(BEFORE), `tool set is neither before nor after: ${names.join(",")}`).toBe(true);
  for (const n of names) expect(await text(fs, `${ROOT}/${n}.json`)).toBe(recipeText(n === "renamed_tool" ? 0 : Number(n.slice(5))));
  const demoted = await text(fs, `${paths.draftRoot}/tool_01.json`);
  expect(demoted === undefined ? "before" : "after").toBe(after ? "after" : "before");
  await expectLineagesFollowRecipes(fs, [...names.map((n) => `${n}.json`), ...(after ? ["drafts/tool_01.json"] : [])]);
  return after ? "after" : "before";
}

const activate = (faults?: ActivationFaults) => (fs: FileSystem) => withCtx(fs, (ctx) => activatePortfolio(ctx, faults)).then(() => undefined);


/** thrown through an exploration to end it once the violation a planted break is tested for is found */
const FOUND = Symbol("the violation looked for was found");

/**
 * The violations a crash exploration finds, one line each: a check that failed after the crash at
 * operation k (and, nested, at a recovery's operation), or the exploration's own refusal of a
 * recovery that is not idempotent. With `until`, the exploration ends at the first violation that
 * matches it: a planted break's test asks whether such a violation exists, and the crash points
 * after it would only add more (the property proper, without `until`, explores every one).
 */
function violationLog(until?: RegExp) {
  const violations: string[] = [];
  const firstLine = (e: unknown): string => (e instanceof Error ? e.message.split("\n")[0]! : String(e));
  const record = (line: string): void => {
    violations.push(line);
    if (until?.test(line) === true) throw FOUND;
  };
  return {
    violations,
    crashed: (k: number, info: { recoveryCrashAt?: number }, e: unknown): void => {
      record(`crash at ${k}${info.recoveryCrashAt === undefined ? "" : `, recovery crash at ${info.recoveryCrashAt}`}: ${firstLine(e)}`);
    },
    explore: async (x: Parameters<typeof exploreCrashes>[0]): Promise<number> => {
      try {
        return await exploreCrashes(x);
      } catch (e) {
        if (e !== FOUND) violations.push(firstLine(e));
        return 0;
      }
    },
  };
}

/**
 * The activation property's violations (an empty list: it holds). After a crash, the next
 * command (whatever it is) finds every recipe and lineage on one side, and the acknowledged
 * activation on the after side; the next activation then always finishes, and a cycle runs.
 */
async function activationViolations(options: { fs?: (fs: FileSystem) => FileSystem; faults?: ActivationFaults; nestedEvery?: number; until?: RegExp } = {}): Promise<string[]> {
  const base = await approvedVolume();
  const wrap = options.fs ?? ((fs: FileSystem) => fs);
  const run = (fs: FileSystem) => activate(options.faults)(wrap(fs));
  const recover = (fs: FileSystem) => nextCommand(wrap(fs));
  const found = violationLog(options.until);
  const violations = found.violations;
  const check = async (view: MemFileSystem, k: number, _trace: readonly string[], info: { completed: boolean; recoveryCrashAt?: number }) => {
    try {
      const now = await side(view);
      if (info.completed) expect(now, "an acknowledged activation was undone").toBe("after");
      await activate(options.faults)(view);
      expect(await side(view)).toBe("after");
      expect((await withCtx(view, readToolState))?.phase).toBe("completed");
      expect(await view.readdir(`${paths.usageRoot}/reviews/tool/reviews/review-1/quarantine`).catch(() => [])).toEqual([]);
      // a later cycle runs (and finds nothing eligible: every tool's revision was just reviewed)
      expect(await withCtx(view, (ctx) => runPortfolioCycle(ctx, { capture: true, portfolioSize: SIZE }))).toMatchObject({ phase: "completed", eligible: { eligible: 0 } });
    } catch (e) {
      found.crashed(k, info, e);
    }
  };
  const explore = found.explore;
  const n = await explore({ setup: () => cloneVolume(base.vol), seed: 5, run, recover, nested: false, check });
  if (violations.length === 0) expect(n).toBeGreaterThan(60);
  // a sample of crash points whose recovery is itself crashed at every one of its operations
  for (let k = 7; options.nestedEvery !== undefined && k < n; k += options.nestedEvery) {
    const crashed = async (): Promise<MemFileSystem> => {
      const inner = cloneVolume(base.vol);
      const c = makeCrashingFileSystem(inner, { crashAt: k, seed: 5 + k });
      await run(c).catch(() => undefined);
      await c.crash();
      return recoverView(inner);
    };
    // the recovery (the next command) is what this exploration crashes, at each of its operations
    await explore({ setup: crashed, seed: 90 + k, run: recover, recover, nested: false, check: (view, j, trace, info) => check(view, k, trace, { ...info, recoveryCrashAt: j }) });
  }
  return violations;
}

/** the file system port with every folder fsync skipped (a planted break) */
const noDirSync = (fs: FileSystem): FileSystem =>
  new Proxy(fs, { get: (target, p) => (p === "fsyncDir" ? async () => undefined : Reflect.get(target, p)) });

describe("portfolio activation under crashes", () => {
  it("a crash at every operation of activation (and inside a sample of recoveries) converges to the activated portfolio", async () => {
    expect(await activationViolations({ nestedEvery: 23 })).toEqual([]);
  }, 900_000);

  it("is caught when folder fsyncs are skipped", async () => {
    // a lost folder entry shows as a recovery that is not idempotent, a split or an undone activation
    const lost = /recovery run twice changed the volume|has no lineage|acknowledged activation was undone|neither before nor after/;
    const v = await activationViolations({ fs: noDirSync, until: lost });
    expect(v.length).toBeGreaterThan(0);
    expect(v.join("\n")).toMatch(lost);
  }, 900_000);

  it("is caught when the lineages are committed before the files move", async () => {
    const split = /has no lineage|expected .* to be/;
    const v = await activationViolations({ faults: { lineageFirst: true }, until: split });
    expect(v.length).toBeGreaterThan(0);
    expect(v.join("\n")).toMatch(split);
  }, 900_000);
});


/**
 * The capture-and-approval property's violations (an empty list: it holds). A cycle (seeding,
 * capture, the reviewer, approval) is crashed at every operation; the restarted process runs the
 * next command and the next cycle, itself crashed at every operation on a sample. Afterwards no
 * recipe has changed (approval never touches one), every lineage follows its recipe, the state
 * says approved and names a plan that is there, an approval that was acknowledged is not asked
 * for again, recovery run twice changes nothing, and the approved plan activates.
 */
async function approvalViolations(options: { fs?: (fs: FileSystem) => FileSystem; faults?: { stateBeforePlan?: boolean }; nestedEvery?: number; until?: RegExp } = {}): Promise<string[]> {
  const wrap = options.fs ?? ((fs: FileSystem) => fs);
  let stage: "run" | "recover" = "run";
  let askedInRecovery = 0;
  const reviewer: Reviewer = {
    describe: "scripted",
    review: async (input) => {
      if (stage === "recover") askedInRecovery++;
      return scripted.review(input);
    },
  };
  const cycle = (fs: FileSystem) => withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer, portfolioSize: SIZE, ...(options.faults === undefined ? {} : { faults: options.faults }) }));
  const run = async (fs: FileSystem): Promise<void> => {
    stage = "run";
    askedInRecovery = 0;
    const r = await cycle(wrap(fs));
    if (r.phase !== "approved") throw new Error(`cycle ended ${r.phase}: ${r.error ?? ""}`);
  };
  const recover = async (fs: FileSystem): Promise<void> => {
    stage = "recover";
    await nextCommand(wrap(fs));
    await cycle(wrap(fs));
  };
  const found = violationLog(options.until);
  const violations = found.violations;
  const check = async (view: MemFileSystem, k: number, _trace: readonly string[], info: { completed: boolean; recoveryCrashAt?: number }) => {
    try {
      if (info.completed) expect(askedInRecovery, "an acknowledged approval was asked for again").toBe(0);
      expect(await side(view)).toBe("before");
      const state = await withCtx(view, readToolState);
      expect(state?.phase).toBe("approved");
      expect(await withCtx(view, (ctx) => readApproved(ctx, state!)), "the approved state names no plan").toBeDefined();
      await activate()(view);
      expect(await side(view)).toBe("after");
      expect((await withCtx(view, readToolState))?.phase).toBe("completed");
      expect(await withCtx(view, (ctx) => runPortfolioCycle(ctx, { capture: true, portfolioSize: SIZE }))).toMatchObject({ phase: "completed", eligible: { eligible: 0 } });
    } catch (e) {
      found.crashed(k, info, e);
    }
  };
  const explore = found.explore;
  const base = freshVolume();
  const n = await explore({ setup: () => cloneVolume(base.vol), seed: 11, run, recover, nested: false, check });
  if (violations.length === 0) expect(n).toBeGreaterThan(30);
  for (let k = 5; options.nestedEvery !== undefined && k < n; k += options.nestedEvery) {
    const crashed = async (): Promise<MemFileSystem> => {
      const inner = cloneVolume(base.vol);
      const c = makeCrashingFileSystem(inner, { crashAt: k, seed: 11 + k });
      await run(c).catch(() => undefined);
      await c.crash();
      return recoverView(inner);
    };
    await explore({ setup: crashed, seed: 70 + k, run: recover, recover, nested: false, check: (view, j, trace, info) => check(view, k, trace, { completed: false, recoveryCrashAt: j }) });
  }
  return violations;
}

describe("portfolio capture and approval under crashes", () => {
  it("a crash at every operation of capture and approval (and inside a sample of recoveries) leaves every recipe as it was and an approved plan that activates", async () => {
    expect(await approvalViolations({ nestedEvery: 19 })).toEqual([]);
  }, 900_000);

  it("is caught when folder fsyncs are skipped", async () => {
    const lost = /acknowledged approval was asked for again|recovery run twice changed the volume|has no lineage/;
    const v = await approvalViolations({ fs: noDirSync, until: lost });
    expect(v.length).toBeGreaterThan(0);
    expect(v.join("\n")).toMatch(lost);
  }, 900_000);

  it("is caught when the state says approved before the plan it names is written", async () => {
    const noPlan = /the approved state names no plan/;
    const v = await approvalViolations({ faults: { stateBeforePlan: true }, until: noPlan });
    expect(v.length).toBeGreaterThan(0);
    expect(v.join("\n")).toMatch(noPlan);
  }, 900_000);
});

describe("snapshot rollback under crashes", () => {
  const V2 = `${JSON.stringify({ description: "Tool 0", template: "echo changed" })}\n`;
  async function editedVolume(): Promise<MemFileSystem> {
    const fs = await approvedVolume();
    await activate()(fs);
    await fs.writeFile(`${ROOT}/renamed_tool.json`, V2);
    await withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
    return fs;
  }
  const rollback = async (fs: FileSystem): Promise<void> => {
    const r = await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 1));
    if (r.ok) return;
    // the verb reports failures as results; a power failure under it is still a crash
    if ((fs as Partial<CrashingFileSystem>).crashed === true) throw new Error(r.error, { cause: new SimulatedCrash(r.error, -1) });
    throw new Error(r.error);
  };

  it("the recipe and its lineage are both rolled back or neither; an acknowledged rollback stays", async () => {
    const base = await editedVolume();
    const sides = new Set<string>();
    const n = await exploreCrashes({
      setup: () => cloneVolume(base.vol),
      seed: 21,
      run: rollback,
      recover: nextCommand,
      nested: true,
      check: async (view, _k, _t, info) => {
        const recipe = await text(view, `${ROOT}/renamed_tool.json`);
        const ledger = JSON.parse((await text(view, `${paths.usageRoot}/recipes/renamed_tool.json`))!) as { revision: number; revision_calls: number; lifetime_calls: number; rollback_of_revision?: number };
        if (recipe === V2) {
          expect(info.completed).toBe(false);
          expect(ledger).toMatchObject({ revision: 2 });
          expect(ledger.rollback_of_revision).toBeUndefined();
          sides.add("before");
        } else {
          expect(recipe).toBe(recipeText(0));
          expect(ledger).toMatchObject({ revision: 3, revision_calls: 0, rollback_of_revision: 1 });
          sides.add("after");
        }
        expect(ledger.lifetime_calls).toBe(0);
        await expectLineagesFollowRecipes(view, ["renamed_tool.json"]);
        // a later rollback request runs (and changes nothing once rolled back)
        await rollback(view);
        expect(await text(view, `${ROOT}/renamed_tool.json`)).toBe(recipeText(0));
      },
    });
    expect(n).toBeGreaterThan(5);
    expect([...sides].sort()).toEqual(["after", "before"]);
  }, 900_000);
});
