// A model-based test of drafts and automatic review: random interleavings of inline spawns,
// manual promotions (register_tool draft=), hand moves into the root, review cycles, and reviews
// killed at a random file operation followed by a restart, checked after every step against a
// simple model of which drafts and which tools exist.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { byFileName } from "../core/review/batch.js";
import { agentPaths } from "../runtime/agent-paths.js";
import { closeLedger } from "../runtime/ledger/index.js";
import { registerTool } from "../runtime/register.js";
import { captureDraft } from "../runtime/review/capture-draft.js";
import { BATCH_FILE, batchDir, openReviews, statePath } from "../runtime/review/review-context.js";
import { runCycle } from "../runtime/review/cycle.js";
import type { Reviewer } from "../runtime/review/reviewer.js";
import { makeCrashingFileSystem, recoverView } from "./support/crash-fs.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};

interface Model {
  drafts: Set<string>; // file names in drafts/
  tools: Set<string>; // tool names in the root
  reviews: number;
  promoted: Set<string>; // drafts promoted by register_tool: kept in drafts/, never offered to a review again
}

interface Real {
  fs: MemFileSystem;
  clock: number;
}

const PROMOTE_PER_BATCH = 2;
const targetOf = (review: number, i: number): string => `Reviewed-${review}_${i}`;

/** promotes the first two of each batch under names the model can predict */
const reviewerFor = (review: number): Reviewer => ({
  describe: "model",
  review: async (input) => {
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { batchId: string; drafts: { draft: string; sha256: string; usage: { lifetime_calls: number } }[] };
    const decisions = p.drafts.map((d, i) => ({
      draft: d.draft,
      sha256: d.sha256,
      action: i < PROMOTE_PER_BATCH ? "promote" : "discard",
      rationale: "model",
      assessment: { launches: d.usage.lifetime_calls },
      ...(i < PROMOTE_PER_BATCH ? { target: targetOf(review, i) } : {}),
    }));
    return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions })}`;
  },
});

async function cycle(fs: FileSystem, now: number, reviewer?: Reviewer): Promise<void> {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => now, newId: () => `batch-${now}` });
  try {
    await runCycle(ctx, reviewer === undefined ? {} : { reviewer });
  } finally {
    await closeLedger(ctx.ledger);
  }
}

async function observe(fs: FileSystem): Promise<{ drafts: string[]; tools: string[] }> {
  const names = async (dir: string): Promise<string[]> =>
    (await fs.readdir(dir).catch(() => [])).filter((e) => e.kind === "file" && e.name.endsWith(".json") && !e.name.startsWith(".")).map((e) => e.name).sort();
  return { drafts: await names(paths.draftRoot), tools: (await names(paths.recipeRoot)).map((n) => n.slice(0, -5)) };
}

async function expectModel(m: Model, r: Real): Promise<void> {
  const seen = await observe(r.fs);
  expect(seen.drafts).toEqual([...m.drafts].sort());
  expect(seen.tools).toEqual([...m.tools].sort());
}

/** the model's review: the first twelve drafts by file name are decided */
function reviewed(m: Model): Model {
  const eligible = [...m.drafts].filter((d) => !m.promoted.has(d));
  if (eligible.length < 12) return m;
  const batch = eligible.map((name) => ({ path: `/d/${name}` })).sort(byFileName).slice(0, 12).map((d) => d.path.slice(3));
  const review = m.reviews + 1;
  return {
    drafts: new Set([...m.drafts].filter((d) => !batch.includes(d))),
    tools: new Set([...m.tools, ...Array.from({ length: PROMOTE_PER_BATCH }, (_, i) => targetOf(review, i))]),
    reviews: review,
    promoted: m.promoted,
  };
}

/** The drafts of a batch captured earlier and not yet executed (a review killed after the capture
 *  leaves one): the next review decides that batch, not the first twelve drafts of today. */
async function capturedBatch(fs: FileSystem): Promise<string[] | undefined> {
  const json = async (path: string): Promise<Record<string, unknown> | undefined> => {
    try {
      return JSON.parse(new TextDecoder().decode(await fs.readFile(path))) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const state = await json(statePath(paths));
  if (state === undefined || (state["phase"] !== "captured" && state["phase"] !== "failed")) return undefined;
  const batch = await json(`${batchDir(paths, String(state["batchId"]))}/${BATCH_FILE}`);
  const drafts = batch?.["drafts"] as { path: string }[] | undefined;
  return drafts?.map((d) => d.path.slice(d.path.lastIndexOf("/") + 1));
}

/** The model's review of a captured batch: its first two are promoted, the rest discarded; a draft
 *  moved away by hand since the capture is left out (the batch shrinks), and one promoted by hand
 *  since the capture is not promoted again: it stays a draft, and no second tool is made of it. */
function reviewedBatch(m: Model, batch: readonly string[]): Model {
  const review = m.reviews + 1;
  const toPromote = batch.slice(0, PROMOTE_PER_BATCH);
  const promoted = toPromote.flatMap((d, i) => (m.drafts.has(d) && !m.promoted.has(d) ? [targetOf(review, i)] : []));
  const stays = (d: string): boolean => !batch.includes(d) || (toPromote.includes(d) && m.promoted.has(d));
  return { drafts: new Set([...m.drafts].filter(stays)), tools: new Set([...m.tools, ...promoted]), reviews: review, promoted: m.promoted };
}

/** What a review with a reviewer leads to, seen from the files before it runs. */
async function expectedReview(m: Model, fs: FileSystem): Promise<Model> {
  const batch = await capturedBatch(fs);
  return batch === undefined ? reviewed(m) : reviewedBatch(m, batch);
}

/** batches completed across all runs: the test must exercise reviews, not only spawns */
let batchesDone = 0;
let crashesExplored = 0;

const assign = (m: Model, next: Model): void => {
  if (next.reviews > m.reviews) batchesDone++;
  m.drafts = next.drafts;
  m.tools = next.tools;
  m.reviews = next.reviews;
  m.promoted = next.promoted;
};

class Spawn implements fc.AsyncCommand<Model, Real> {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    r.clock += 1;
    const out = await captureDraft({ fs: r.fs, lock: inProcess, paths, now: () => r.clock }, { template: `echo ${r.clock}`, values: {} });
    expect(out.captured).toBe(true);
    m.drafts.add(`spawn-${r.clock}.json`);
    await expectModel(m, r);
  }
  toString = (): string => "spawn";
}

class Promote implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => m.drafts.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const draft = [...m.drafts].sort()[this.pick % m.drafts.size]!;
    const name = `manual_${draft.replace(/\D/g, "")}`;
    const result = await registerTool({ name, draft: `${paths.draftRoot}/${draft}` }, { paths, fs: r.fs, lock: inProcess });
    if (m.tools.has(name)) expect(result.text).toContain("already registered");
    else {
      expect(result.ok).toBe(true);
      m.tools.add(name); // the draft stays
      m.promoted.add(draft);
    }
    await expectModel(m, r);
  }
  toString = (): string => `promote(${this.pick})`;
}

class Move implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => m.drafts.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const draft = [...m.drafts].sort()[this.pick % m.drafts.size]!;
    const name = `moved_${draft.replace(/\D/g, "")}`;
    if (m.tools.has(name)) return;
    await r.fs.rename(`${paths.draftRoot}/${draft}`, `${paths.recipeRoot}/${name}.json`);
    m.drafts.delete(draft);
    m.promoted.delete(draft);
    m.tools.add(name);
    await expectModel(m, r);
  }
  toString = (): string => `move(${this.pick})`;
}

class Review implements fc.AsyncCommand<Model, Real> {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    r.clock += 1;
    const after = await expectedReview(m, r.fs);
    await cycle(r.fs, r.clock, reviewerFor(m.reviews + 1));
    assign(m, after);
    await expectModel(m, r);
  }
  toString = (): string => "review";
}

class CrashedReview implements fc.AsyncCommand<Model, Real> {
  constructor(readonly at: number) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    r.clock += 1;
    crashesExplored++;
    const after = await expectedReview(m, r.fs);
    const crashing = makeCrashingFileSystem(r.fs, { crashAt: this.at, seed: this.at });
    await cycle(crashing, r.clock, reviewerFor(m.reviews + 1)).catch(() => undefined);
    await crashing.crash();
    r.fs = recoverView(r.fs);
    // the restart: recovery without a reviewer finishes or leaves the batch
    r.clock += 1;
    await cycle(r.fs, r.clock);
    const seen = await observe(r.fs);
    const same = (x: Model): boolean => JSON.stringify(seen) === JSON.stringify({ drafts: [...x.drafts].sort(), tools: [...x.tools].sort() });
    if (same(after) && after !== m) assign(m, after);
    else if (!same(m)) {
      // captured or reviewed but not executed: the next review with a reviewer finishes the batch
      r.clock += 1;
      const then = await expectedReview(m, r.fs);
      await cycle(r.fs, r.clock, reviewerFor(m.reviews + 1));
      assign(m, then);
    }
    await expectModel(m, r);
  }
  toString = (): string => `crashedReview(${this.at})`;
}

describe("drafts and reviews against a model", () => {
  it("spawns, manual promotions, moves, reviews, crashes and restarts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(
          [
            ...Array.from({ length: 6 }, () => fc.constant(new Spawn())),
            fc.nat(50).map((n) => new Promote(n)),
            fc.nat(50).map((n) => new Move(n)),
            fc.constant(new Review()),
            fc.nat(400).map((n) => new CrashedReview(n)),
          ],
          { maxCommands: 80, size: "max" },
        ),
        async (cmds) => {
          const fs = makeMemFileSystem(Volume.fromJSON({ [`${paths.recipeRoot}/existing.json`]: JSON.stringify({ template: "echo e" }) }) as Volume);
          await fc.asyncModelRun(() => ({ model: { drafts: new Set<string>(), tools: new Set(["existing"]), reviews: 0, promoted: new Set<string>() }, real: { fs, clock: 1_000_000 } }), cmds);
        },
      ),
      { numRuns: 12 },
    );
    expect(batchesDone).toBeGreaterThan(3);
    expect(crashesExplored).toBeGreaterThan(3);
  }, 600_000);
});
