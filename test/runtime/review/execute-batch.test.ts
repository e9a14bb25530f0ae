// Executing a reviewed draft batch (executePlan) and moving the lineages of its promotions
// (moveLineages) on an in-memory volume: the files each item ends with and the outcome it
// reports, from a fresh start and from the states an earlier attempt or a hand edit can leave;
// plans refused before a file moves; rounds that fail or never settle; the target locks; the
// journal a crash leaves.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import { LockTimeoutError, type Lock, type LockOptions } from "../../../adapters/lock/Lock.js";
import type { Batch } from "../../../core/review/batch.js";
import { planOf, type Decision, type ExecutionPlan, type PlanItem } from "../../../core/review/decide.js";
import { buildPlan } from "../../../core/journal/plan.js";
import { decodeJournal, encodeJournal, journalErrorText } from "../../../core/journal/record.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger, readIndex } from "../../../runtime/ledger/index.js";
import { batchDir, openReviews, QUARANTINE_DIR, type ReviewContext } from "../../../runtime/review/review-context.js";
import { runCycle } from "../../../runtime/review/cycle.js";
import { executePlan, moveLineages, type ItemOutcome } from "../../../runtime/review/execute-batch.js";
import { journalDirOf } from "../../../runtime/review/review-context.js";
import { cloneVolume, makeCrashingFileSystem, recoverView } from "../../../props/support/crash-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const DIR = batchDir(paths, "batch-1");
const QUARANTINE = `${DIR}/${QUARANTINE_DIR}`;
const LOCK_TIMEOUT_MS = 1234;

const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};

const toolPath = (name: string): string => `${paths.recipeRoot}/${name}.json`;
const quarantined = (item: PlanItem): string => `${QUARANTINE}/${item.quarantine}`;

async function text(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await fs.readFile(path));
  } catch {
    return undefined;
  }
}

const exists = (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

function volume(): MemFileSystem {
  const files: Record<string, string> = { [`${paths.recipeRoot}/existing.json`]: JSON.stringify({ template: "echo e" }) };
  for (let i = 0; i < 12; i++) files[`${paths.draftRoot}/draft_${String(i).padStart(2, "0")}.json`] = JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` });
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

/** A captured batch of twelve drafts (their lineages seeded) and the plan of decisions about it:
 *  `promote` maps an item's index to its tool name; every other item is discarded. */
async function reviewed(promote: Record<number, string> = {}): Promise<{ fs: MemFileSystem; plan: ExecutionPlan }> {
  const fs = volume();
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => 0, newId: () => "batch-1" });
  await runCycle(ctx, { capture: true });
  await closeLedger(ctx.ledger);
  const batch = JSON.parse((await text(fs, `${DIR}/batch.json`))!) as Batch;
  const decisions = batch.drafts.map((draft, i): Decision =>
    promote[i] === undefined ? { draft, action: "discard", rationale: "r" } : { draft, action: "promote", rationale: "r", target: promote[i] },
  );
  return { fs, plan: planOf(batch, decisions, paths.recipeRoot) };
}

async function withCtx<A>(fs: FileSystem, run: (ctx: ReviewContext) => Promise<A>, lock: Lock = inProcess): Promise<A> {
  const ctx = openReviews({ fs, lock, paths, now: () => Date.UTC(2026, 0, 2), lockTimeoutMs: LOCK_TIMEOUT_MS });
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger).catch(() => undefined);
  }
}

const execute = (fs: FileSystem, plan: ExecutionPlan, lock?: Lock): Promise<ItemOutcome[]> => withCtx(fs, (ctx) => executePlan(ctx, DIR, plan), lock);

const outcomesOf = (outcomes: readonly ItemOutcome[]): string[] => outcomes.map((o) => o.outcome);

/** every draft of the plan still where it was, with its captured content, and no tool written */
async function untouched(fs: FileSystem, plan: ExecutionPlan): Promise<void> {
  for (const item of plan.items) {
    expect(await exists(fs, item.source)).toBe(true);
    if (item.target !== undefined) expect(await exists(fs, item.target.path)).toBe(false);
  }
  expect(await exists(fs, QUARANTINE)).toBe(false);
}

/** where each lineage of the recipe root is, by path below the root */
async function lineagePaths(fs: FileSystem): Promise<string[]> {
  return withCtx(fs, async (ctx) => Object.keys((await readIndex(ctx.ledger)).index.paths).sort());
}
const keyOf = (path: string): string => path.slice(paths.recipeRoot.length + 1);

/** records every lock taken, with the timeout it was asked for */
function recordingLock(taken: { path: string; timeoutMs: number | undefined }[], before?: (path: string) => Promise<void>): Lock {
  return {
    acquire: async (path, options?: LockOptions) => {
      taken.push({ path, timeoutMs: options?.timeoutMs });
      return { path, canonicalPath: path, release: async () => undefined };
    },
    withLock: async (path, fn, options?: LockOptions) => {
      taken.push({ path, timeoutMs: options?.timeoutMs });
      await before?.(path);
      return fn();
    },
  };
}

/** records the locks taken, and refuses from the ninth on: an executor that never stops retrying
 *  fails the test instead of running forever */
const boundedLock = (taken: { path: string; timeoutMs: number | undefined }[]): Lock =>
  recordingLock(taken, async () => {
    if (taken.length > 8) throw new Error("still retrying after eight attempts");
  });

describe("executing a reviewed batch", () => {
  it("writes each promoted tool, moves every draft into the batch's quarantine and reports one outcome per item", async () => {
    const { fs, plan } = await reviewed({ 1: "second_tool" });
    const outcomes = await execute(fs, plan);
    expect(outcomes).toEqual(
      plan.items.map((item) => ({
        position: item.position,
        action: item.action,
        source: item.source,
        outcome: item.action === "promote" ? "promoted" : "discarded",
        ...(item.action === "promote" ? { target: "second_tool" } : {}),
      })),
    );
    const promoted = plan.items[1]!;
    expect(await text(fs, toolPath("second_tool"))).toBe(promoted.target!.content);
    for (const item of plan.items) {
      expect(await exists(fs, item.source)).toBe(false);
      expect(await text(fs, quarantined(item))).toBe(JSON.stringify({ description: `Draft ${item.position - 1}`, template: `echo ${item.position - 1}` }));
    }
  });

  it("skips and leaves alone every draft edited or removed since the capture, promoted or discarded", async () => {
    const { fs, plan } = await reviewed({ 0: "edited_tool", 1: "removed_tool" });
    const [promoteEdited, promoteRemoved, discardEdited, discardRemoved] = plan.items;
    await fs.writeFile(promoteEdited!.source, "edited by hand");
    await fs.unlink(promoteRemoved!.source);
    await fs.writeFile(discardEdited!.source, "edited by hand too");
    await fs.unlink(discardRemoved!.source);
    const outcomes = await execute(fs, plan);
    expect(outcomesOf(outcomes)).toEqual(["skipped_source_changed", "skipped_source_moved", "skipped_source_changed", "skipped_source_moved", ...Array(8).fill("discarded")]);
    expect(await exists(fs, toolPath("edited_tool"))).toBe(false);
    expect(await exists(fs, toolPath("removed_tool"))).toBe(false);
    expect(await text(fs, promoteEdited!.source)).toBe("edited by hand");
    expect(await text(fs, discardEdited!.source)).toBe("edited by hand too");
    for (const item of plan.items.slice(0, 4)) expect(await exists(fs, quarantined(item))).toBe(false);
  });

  it("never replaces a target taken since the review, by a file or a folder: its draft stays", async () => {
    const { fs, plan } = await reviewed({ 0: "taken_file", 1: "taken_folder" });
    await fs.writeFile(toolPath("taken_file"), "someone else's tool");
    await fs.mkdir(toolPath("taken_folder"));
    const outcomes = await execute(fs, plan);
    expect(outcomesOf(outcomes)).toEqual(["skipped_target_taken", "skipped_target_taken", ...Array(10).fill("discarded")]);
    expect(await text(fs, toolPath("taken_file"))).toBe("someone else's tool");
    expect((await fs.lstat(toolPath("taken_folder"))).kind).toBe("dir");
    expect(await exists(fs, plan.items[0]!.source)).toBe(true);
    expect(await exists(fs, plan.items[1]!.source)).toBe(true);
  });

  it("resumes where a first attempt stopped: a tool already holding its promoted recipe is kept and only the drafts move", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    const promoted = plan.items[0]!;
    // what the first phase of an earlier attempt leaves: the tool written, the quarantine folder made
    await fs.mkdir(QUARANTINE, { recursive: true });
    await fs.writeFile(promoted.target!.path, promoted.target!.content);
    const outcomes = await execute(fs, plan);
    expect(outcomesOf(outcomes)).toEqual(["promoted", ...Array(11).fill("discarded")]);
    expect(await text(fs, promoted.target!.path)).toBe(promoted.target!.content);
    for (const item of plan.items) {
      expect(await exists(fs, item.source)).toBe(false);
      expect(await exists(fs, quarantined(item))).toBe(true);
    }
  });

  it("resumes after the tool was written but its draft was edited or removed before it moved: the tool counts as promoted, the edited draft stays with its owner", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool", 1: "second_tool" });
    const [edited, removed] = [plan.items[0]!, plan.items[1]!];
    await fs.mkdir(QUARANTINE, { recursive: true });
    for (const item of [edited, removed]) await fs.writeFile(item.target!.path, item.target!.content);
    await fs.writeFile(edited.source, "edited by hand");
    await fs.rm(removed.source);
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", "promoted", ...Array(10).fill("discarded")]);
    expect(await text(fs, edited.source)).toBe("edited by hand");
    expect(await exists(fs, quarantined(edited))).toBe(false);
    for (const item of [edited, removed]) expect(await text(fs, item.target!.path)).toBe(item.target!.content);
  });

  it("executed again, a finished batch reports the same outcomes and touches nothing, even after its tool was edited or a new draft took a promoted draft's name", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool", 1: "second_tool" });
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", "promoted", ...Array(10).fill("discarded")]);
    await fs.writeFile(toolPath("first_tool"), "edited after the promotion");
    await fs.writeFile(plan.items[1]!.source, "a new draft under the old name");
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", "promoted", ...Array(10).fill("discarded")]);
    expect(await text(fs, toolPath("first_tool"))).toBe("edited after the promotion");
    expect(await text(fs, toolPath("second_tool"))).toBe(plan.items[1]!.target!.content);
    expect(await text(fs, plan.items[1]!.source)).toBe("a new draft under the old name");
    expect(await text(fs, quarantined(plan.items[1]!))).toBe(JSON.stringify({ description: "Draft 1", template: "echo 1" }));
  });

  it("executed again after new drafts took the names of a discarded draft and of a promoted one whose tool was deleted, still reports them discarded and promoted, the new drafts untouched", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", ...Array(11).fill("discarded")]);
    await fs.rm(toolPath("first_tool"));
    await fs.writeFile(plan.items[0]!.source, "a new draft where the promoted one was");
    await fs.writeFile(plan.items[3]!.source, "a new draft where a discarded one was");
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", ...Array(11).fill("discarded")]);
    expect(await exists(fs, toolPath("first_tool"))).toBe(false);
    expect(await text(fs, plan.items[0]!.source)).toBe("a new draft where the promoted one was");
    expect(await text(fs, plan.items[3]!.source)).toBe("a new draft where a discarded one was");
    expect(await text(fs, quarantined(plan.items[3]!))).toBe(JSON.stringify({ description: "Draft 3", template: "echo 3" }));
  });
});

describe("the lineages of a batch", () => {
  it("each promoted draft's lineage follows its tool; discarded and skipped drafts keep theirs", async () => {
    const { fs, plan } = await reviewed({ 1: "second_tool", 2: "taken_tool" });
    await fs.writeFile(toolPath("taken_tool"), "someone else's tool");
    const before = await lineagePaths(fs);
    expect(before).toEqual(expect.arrayContaining(plan.items.map((i) => keyOf(i.source))));
    const diagnostics = await withCtx(fs, async (ctx) => moveLineages(ctx, plan, await executePlan(ctx, DIR, plan)));
    expect(diagnostics).toEqual([]);
    const after = await lineagePaths(fs);
    expect(after).toContain("second_tool.json");
    expect(after).not.toContain(keyOf(plan.items[1]!.source));
    // skipped (target taken) and discarded: their lineages stay where they were
    expect(after).toContain(keyOf(plan.items[2]!.source));
    expect(after).not.toContain("taken_tool.json");
    expect(after).toContain(keyOf(plan.items[0]!.source));
    expect(after.length).toBe(before.length);
  });

  it("a new draft saved under a promoted draft's name is left alone: the old lineage still follows the tool", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    const outcomes = await execute(fs, plan);
    await fs.writeFile(plan.items[0]!.source, "a new draft under the old name");
    expect(await withCtx(fs, (ctx) => moveLineages(ctx, plan, outcomes))).toEqual([]);
    const after = await lineagePaths(fs);
    expect(after).toContain("first_tool.json");
    expect(after).not.toContain(keyOf(plan.items[0]!.source));
    expect(await text(fs, plan.items[0]!.source)).toBe("a new draft under the old name");
  });
});

describe("plans refused before a file moves", () => {
  it("a plan with actions the executor does not know is refused whole, naming every fault", async () => {
    const { fs, plan } = await reviewed({ 1: "second_tool" });
    const [first, second, ...rest] = plan.items;
    const broken = { ...plan, items: [{ ...first!, action: "keep" }, { position: second!.position, action: "promote", source: second!.source, sha256: second!.sha256, quarantine: second!.quarantine, rationale: "r" }, ...rest] } as ExecutionPlan;
    await expect(execute(fs, broken)).rejects.toThrow(new Error('Draft review plan refused: unknown plan action at item 1: "keep"; promotion without a target at item 2'));
    await untouched(fs, plan);
  });

  it("a plan that would write one target twice is rejected by the journal engine", async () => {
    const { fs, plan } = await reviewed({ 0: "same_tool", 1: "same_tool_2" });
    const [first, second, ...rest] = plan.items;
    const twice = { ...plan, items: [first!, { ...second!, target: first!.target! }, ...rest] };
    await expect(execute(fs, twice)).rejects.toThrow(new Error(`Draft review plan rejected: Journal plan batch-1-r0: ${toolPath("same_tool")} is changed by two steps`));
    await untouched(fs, plan);
  });

  it("a journal recovery has to set aside stops the execution, naming why and where it went", async () => {
    const { fs, plan } = await reviewed();
    const journals = journalDirOf(DIR);
    // an earlier round's journal that recovery can finish (it discards the first draft), then
    // one that cannot be trusted
    const earlier = buildPlan({
      id: "batch-1-r0",
      kind: "draft-review",
      phases: [[{ op: "mkdir", path: QUARANTINE }], [{ op: "rename", from: plan.items[0]!.source, to: quarantined(plan.items[0]!), before: { hash: plan.items[0]!.sha256 }, replaced: null }]],
    });
    if (earlier._tag === "Left") throw new Error(earlier.left._tag);
    await fs.mkdir(journals, { recursive: true });
    await fs.writeFile(`${journals}/batch-1-r0.journal.json`, encodeJournal({ plan: earlier.right, direction: "forward" }));
    await fs.writeFile(`${journals}/batch-1-r1.journal.json`, "{ not a journal");
    const notJournal = decodeJournal("{ not a journal");
    if (notJournal._tag === "Right") throw new Error("a journal after all");
    const why = `journal batch-1-r1.journal.json cannot be trusted: ${journalErrorText(notJournal.left)}`;
    await expect(execute(fs, plan)).rejects.toThrow(new Error(`Draft review journal set aside (${why}): ${journals}/batch-1-r1.journal.json.quarantined`));
    expect(await exists(fs, `${journals}/batch-1-r1.journal.json.quarantined`)).toBe(true);
    // the finished journal's work stands; nothing else moved
    expect(await exists(fs, quarantined(plan.items[0]!))).toBe(true);
    for (const item of plan.items.slice(1)) expect(await exists(fs, item.source)).toBe(true);
  });
});

describe("rounds that fail", () => {
  it("a batch whose plan keeps being refused is tried four times, then reported unsettled; nothing moved", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    // a file where the promoted draft would be quarantined: every attempt's plan is refused
    await fs.mkdir(QUARANTINE, { recursive: true });
    await fs.writeFile(quarantined(plan.items[0]!), "in the way");
    const taken: { path: string; timeoutMs: number | undefined }[] = [];
    await expect(execute(fs, plan, boundedLock(taken))).rejects.toThrow(new Error("Draft review of batch batch-1 did not settle after 4 rounds"));
    // one attempt per round, each under the target's lock
    expect(taken.map((t) => t.path)).toEqual(Array(4).fill(toolPath("first_tool")));
    expect(await text(fs, quarantined(plan.items[0]!))).toBe("in the way");
    for (const item of plan.items) expect(await exists(fs, item.source)).toBe(true);
    expect(await exists(fs, toolPath("first_tool"))).toBe(false);
  });

  it("a round that fails midway is undone whole: drafts back in place, no tool, no quarantine folder", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    const stuck = plan.items[5]!.source;
    const failing: FileSystem = {
      ...fs,
      rename: (from, to) => (from === stuck ? Promise.reject(new FsError("UNKNOWN", "rename", from, "I/O error", { dest: to, rawCode: "EIO" })) : fs.rename(from, to)),
    };
    await expect(execute(failing, plan, boundedLock([]))).rejects.toThrow("did not settle");
    await untouched(fs, plan);
  });

  it("a draft edited while the executor waited for the target lock is seen by the next round and skipped", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    let edited = false;
    const lock = recordingLock([], async () => {
      if (edited) return;
      edited = true;
      await fs.writeFile(plan.items[3]!.source, "edited meanwhile");
    });
    const outcomes = await execute(fs, plan, lock);
    expect(outcomesOf(outcomes)).toEqual(["promoted", "discarded", "discarded", "skipped_source_changed", ...Array(8).fill("discarded")]);
    expect(await text(fs, plan.items[3]!.source)).toBe("edited meanwhile");
    expect(await text(fs, toolPath("first_tool"))).toBe(plan.items[0]!.target!.content);
  });

  it("a target lock that cannot be had ends the execution with the lock's own error; nothing moved", async () => {
    const { fs, plan } = await reviewed({ 0: "first_tool" });
    const busy: Lock = {
      acquire: (path) => Promise.reject(new LockTimeoutError(path, path, LOCK_TIMEOUT_MS, { pid: 4242, acquiredAt: "2026-01-01T00:00:00.000Z" }, process.pid)),
      withLock: (path) => Promise.reject(new LockTimeoutError(path, path, LOCK_TIMEOUT_MS, { pid: 4242, acquiredAt: "2026-01-01T00:00:00.000Z" }, process.pid)),
    };
    await expect(execute(fs, plan, busy)).rejects.toMatchObject({
      name: "LockTimeoutError",
      message: `Timed out after ${LOCK_TIMEOUT_MS} ms waiting for the lock on ${toolPath("first_tool")}; held by pid 4242 since 2026-01-01T00:00:00.000Z`,
    });
    await untouched(fs, plan);
  });
});

describe("locks and journals", () => {
  it("takes the lock of every target, and only those, in sorted order, with the context's lock timeout", async () => {
    const { fs, plan } = await reviewed({ 0: "zeta_tool", 1: "alpha_tool" });
    const taken: { path: string; timeoutMs: number | undefined }[] = [];
    expect(outcomesOf(await execute(fs, plan, recordingLock(taken)))).toEqual(["promoted", "promoted", ...Array(10).fill("discarded")]);
    // one order for every executor, so that two never wait on each other
    expect(taken).toEqual([
      { path: toolPath("alpha_tool"), timeoutMs: LOCK_TIMEOUT_MS },
      { path: toolPath("zeta_tool"), timeoutMs: LOCK_TIMEOUT_MS },
    ]);
  });

  it("a crash while the drafts move leaves the batch's draft-review journal, which the next execution finishes", async () => {
    const { fs: inner, plan } = await reviewed({ 0: "first_tool" });
    // find the first move of a draft into the quarantine, then crash right before it
    const probe = makeCrashingFileSystem(cloneVolume(inner.vol), { crashAt: Infinity });
    await execute(probe, plan);
    const at = probe.trace.findIndex((l) => l.startsWith("rename") && l.includes(`/${QUARANTINE_DIR}/`));
    expect(at).toBeGreaterThan(0);
    const crashing = makeCrashingFileSystem(inner, { crashAt: at });
    await expect(execute(crashing, plan)).rejects.toThrow();
    await crashing.crash();
    const fs = recoverView(inner);
    const journals = journalDirOf(DIR);
    const left = (await fs.readdir(journals)).map((e) => e.name);
    expect(left).toEqual(["batch-1-r0.journal.json"]);
    const journal = decodeJournal((await text(fs, `${journals}/batch-1-r0.journal.json`))!);
    if (journal._tag === "Left") throw new Error(journal.left._tag);
    expect(journal.right.plan).toMatchObject({ id: "batch-1-r0", kind: "draft-review" });
    expect(outcomesOf(await execute(fs, plan))).toEqual(["promoted", ...Array(11).fill("discarded")]);
    expect(await fs.readdir(journals)).toEqual([]);
    expect(await text(fs, toolPath("first_tool"))).toBe(plan.items[0]!.target!.content);
  });
});
