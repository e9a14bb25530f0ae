// The portfolio review on an in-memory volume: 36 tools launched a few times, a scripted reply
// with every decision kind, approval that leaves every recipe alone, then activation: the tool
// set, the lineages (renamed tools keep their lineage and former name, a demoted one moves to the
// drafts, a merge survivor carries its members' usage), revision snapshots, a second activation
// that changes nothing, and the next capture waiting for content revisions.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { executableFingerprint } from "../../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../../core/recipe/load.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger, foldPending, recordLaunch, seedLineages, sha256Bytes, sourceChangedText } from "../../../runtime/ledger/index.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { openReviews, type ReviewContext } from "../../../runtime/review/review-context.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { rollbackTool } from "../../../runtime/review/rollback.js";
import { runCycle } from "../../../runtime/review/cycle.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { reviewsText } from "../../../core/views/render.js";
import { controlPortfolioReview, readToolState, runPortfolioCycle } from "../../../runtime/review/portfolio-cycle.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const name = (i: number): string => `tool_${String(i).padStart(2, "0")}`;
const toolPath = (n: string): string => `${paths.recipeRoot}/${n}.json`;
/** tool_02 and tool_03 are twins (same recipe, other formatting): they may merge */
const recipeText = (i: number): string =>
  i === 3 ? '{"template":"echo 2","description":"Tool 2"}' : JSON.stringify({ description: `Tool ${i === 3 ? 2 : i}`, template: `echo ${i === 3 ? 2 : i}` });

function volume(count = 36): MemFileSystem {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[toolPath(name(i))] = recipeText(i);
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

let clock = Date.UTC(2026, 0, 1);
const open = (fs: FileSystem, id = "review-1"): ReviewContext => openReviews({ fs, lock: inProcess, paths, now: () => (clock += 1000), newId: () => id });
async function withCtx<A>(fs: FileSystem, run: (ctx: ReviewContext) => Promise<A>, id?: string): Promise<A> {
  const ctx = open(fs, id);
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

async function launch(ctx: ReviewContext, fs: FileSystem, n: string, times: number): Promise<void> {
  const path = toolPath(n);
  const bytes = await fs.readFile(path);
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, n, "json");
  if (E.isLeft(config)) throw new Error("fixture");
  for (let i = 0; i < times; i++) expect(await recordLaunch(ctx.ledger, { path, name: n, fingerprint: executableFingerprint(config.right), sourceSha256: sha256Bytes(bytes) })).toMatchObject({ ok: true });
}

const text = async (fs: FileSystem, p: string): Promise<string> => new TextDecoder().decode(await fs.readFile(p));
const json = async (fs: FileSystem, p: string): Promise<Record<string, unknown>> => JSON.parse(await text(fs, p));
const exists = async (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);
const tools = async (fs: FileSystem): Promise<string[]> =>
  (await fs.readdir(paths.recipeRoot)).filter((e) => e.kind === "file" && /\.(json|md)$/.test(e.name)).map((e) => e.name.replace(/\.(json|md)$/, "")).sort();
const ledgerOf = async (fs: FileSystem, n: string): Promise<Record<string, unknown>> => json(fs, `${paths.usageRoot}/recipes/${n}.json`);

/** keeps all but: tool_00 evolves to renamed_tool, tool_01 is demoted, tool_02 and tool_03 merge
 *  into tool_03 (named by its occurrence id, tool_04: the reviewer never sees names) */
const scripted = (overrides: Record<number, object> = { 0: { action: "evolve", target: "renamed_tool" }, 1: { action: "demote" }, 2: { action: "merge", target: "tool_04" }, 3: { action: "merge", target: "tool_04" } }): Reviewer => ({
  describe: "scripted",
  review: async (input) => {
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { reviewId: string; tools: { tool: string; sha256: string; usage: { lifetime_calls: number; revision_calls: number } }[] };
    const decisions = p.tools.map((t, i) => ({ source: t.tool, sha256: t.sha256, action: "keep", rationale: "r", assessment: { lifetimeCalls: t.usage.lifetime_calls, revisionCalls: t.usage.revision_calls }, ...overrides[i] }));
    return `looked at it\nTOOL_REVIEW_RESULT\n${JSON.stringify({ reviewId: p.reviewId, decisions })}`;
  },
});

async function approvedVolume(): Promise<MemFileSystem> {
  const fs = volume();
  await withCtx(fs, async (ctx) => {
    // every lineage seeded at once: the portfolio then follows the names (tool_01 is tool_00 …)
    await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths));
    await launch(ctx, fs, name(0), 2);
    await launch(ctx, fs, name(2), 1);
    await launch(ctx, fs, name(3), 3);
  });
  const report = await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer: scripted() }));
  expect(report.error).toBeUndefined();
  expect(report).toMatchObject({ phase: "approved", steps: ["captured", "approved"], eligible: { eligible: 36, needed: 36 } });
  return fs;
}

describe("capture and approval", () => {
  it("35 tools: nothing is captured and the report says how many are eligible", async () => {
    const fs = volume(35);
    expect(await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { capture: true }))).toEqual({ phase: "idle", steps: [], eligible: { eligible: 35, needed: 36 } });
  });

  it("approval touches no recipe (G39)", async () => {
    const fs = await approvedVolume();
    for (let i = 0; i < 36; i++) expect(await text(fs, toolPath(name(i)))).toBe(recipeText(i));
    expect(await exists(fs, toolPath("renamed_tool"))).toBe(false);
  });

  it("a reply with an unknown action or recipe content fails with every error; retry goes back to captured, reset forgets it", async () => {
    const fs = volume();
    const bad = scripted({ 0: { action: "rewrite" }, 1: { action: "evolve", target: "x", recipe: { template: "rm -rf /" } } });
    const r = await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer: bad }));
    expect(r).toMatchObject({ phase: "failed", error: "invalid tool review action: tool_01; tool review must not supply executable recipe content: tool_02" });
    expect(await withCtx(fs, (ctx) => controlPortfolioReview(ctx, "review.retry"))).toMatchObject({ changed: true, phase: "captured", previous_phase: "failed" });
    expect(await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer: bad }))).toMatchObject({ phase: "failed" });
    expect(await withCtx(fs, (ctx) => controlPortfolioReview(ctx, "review.reset"))).toMatchObject({ changed: true, phase: "idle", previous_phase: "failed" });
    expect(await withCtx(fs, readToolState)).toBeUndefined();
  });
});

describe("activation", () => {
  it("carries every decision out: tool set, lineages, snapshots; a second activation changes nothing", async () => {
    const fs = await approvedVolume();
    const report = await withCtx(fs, activatePortfolio);
    expect(report).toEqual({ outcome: "activated", phase: "completed", reviewId: "review-1", actions: { evolve: 1, demote: 1, merge: 2, keep: 32 } });
    expect(await tools(fs)).toEqual(["renamed_tool", ...Array.from({ length: 32 }, (_, i) => name(i + 4)), "tool_03"].sort());
    expect(await text(fs, toolPath("renamed_tool"))).toBe(recipeText(0));
    expect(await text(fs, `${paths.draftRoot}/tool_01.json`)).toBe(recipeText(1));

    const renamed = await ledgerOf(fs, "renamed_tool");
    expect(renamed).toMatchObject({ lineage_name: "renamed_tool", current_path: "renamed_tool.json", lifetime_calls: 2, former_names: ["tool_00"], review_epochs: ["review-1"] });
    expect(renamed["reviewed_fingerprints"]).toEqual([renamed["fingerprint"]]);
    const demoted = await ledgerOf(fs, "tool_01");
    expect(demoted).toMatchObject({ current_path: "drafts/tool_01.json", demoted_fingerprint: demoted["fingerprint"], demoted_from_revision: 1, demoted_review_epoch: "review-1" });
    const survivor = await ledgerOf(fs, "tool_03");
    expect(survivor).toMatchObject({ current_path: "tool_03.json", lifetime_calls: 4, calls: 4, revision_calls: 4, former_names: ["tool_02"], former_paths: ["tool_02.json"] });
    expect(await exists(fs, `${paths.usageRoot}/recipes/tool_02.json`)).toBe(false);
    expect(await ledgerOf(fs, "tool_10")).toMatchObject({ review_epochs: ["review-1"] });

    const snapshot = await json(fs, `${paths.usageRoot}/revisions/renamed_tool/1.json`);
    expect(snapshot).toMatchObject({ type: "recipe_revision_snapshot", lineage_name: "renamed_tool", revision: 1, extension: ".json", content: { text: recipeText(0) }, review_id: "review-1" });
    // one ring per surviving lineage: 36 tools less the merged-away member
    expect((await fs.readdir(`${paths.usageRoot}/revisions`)).length).toBe(35);

    expect(await withCtx(fs, activatePortfolio)).toEqual({ outcome: "completed", phase: "completed", reviewId: "review-1" });
    const view = await gatherReviews(fs, paths);
    expect(view.tool_review).toMatchObject({ phase: "completed", review_id: "review-1", tools: 36, evidence: { actions: { evolve: 1, demote: 1, merge: 2, keep: 32 } } });
    expect(view.revision_snapshots).toBe(35);
    const lineages = view.lineages as Record<string, unknown>[];
    expect(lineages.find((l) => l["name"] === "renamed_tool")).toMatchObject({ former_names: ["tool_00"], review_epochs: ["review-1"] });
    expect(lineages.find((l) => l["name"] === "tool_01")).toMatchObject({ current_path: "drafts/tool_01.json", demoted_from_revision: 1 });
    expect(reviewsText(view)).toBe("automatic_reviews draft=idle tool=completed\nlineages=35 revision_snapshots=35");
    expect(JSON.stringify(view)).not.toMatch(/echo|template/);
    expect(await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { capture: true }, ), "review-2")).toMatchObject({ phase: "completed", eligible: { eligible: 0, needed: 36 } });
  });

  it("a tool edited after approval stops activation with nothing changed; retry and reset both lead on", async () => {
    const fs = await approvedVolume();
    await fs.writeFile(toolPath(name(5)), JSON.stringify({ template: "echo edited" }));
    const r = await withCtx(fs, activatePortfolio);
    expect(r).toMatchObject({ outcome: "failed", phase: "processing_failed", error: "Reviewed tool changed after approval: tool_05" });
    expect(await exists(fs, toolPath(name(0)))).toBe(true);
    expect(await exists(fs, toolPath("renamed_tool"))).toBe(false);
    expect((await gatherReviews(fs, paths)).tool_review).toMatchObject({
      phase: "processing_failed",
      failed_stage: "activation",
      last_error: "Reviewed tool changed after approval: tool_05",
      next_action: 'message to=tool:pi-actors type=review.retry body={"scope":"tool"}',
    });
    expect(await withCtx(fs, (ctx) => controlPortfolioReview(ctx, "review.retry"))).toMatchObject({ changed: true, phase: "approved" });
    await fs.writeFile(toolPath(name(5)), recipeText(5));
    expect(await withCtx(fs, activatePortfolio)).toMatchObject({ outcome: "activated" });
  });

  it("a launch resolved before activation is refused with the reload-and-retry text, never counted", async () => {
    const fs = await approvedVolume();
    const path = toolPath(name(0));
    const bytes = await fs.readFile(path);
    const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, name(0), "json");
    if (E.isLeft(config)) throw new Error("fixture");
    const resolved = { path, name: name(0), fingerprint: executableFingerprint(config.right), sourceSha256: sha256Bytes(bytes) };
    await withCtx(fs, activatePortfolio);
    const outcome = await withCtx(fs, async (ctx) => {
      const o = await recordLaunch(ctx.ledger, resolved);
      await foldPending(ctx.ledger);
      return o;
    });
    expect(outcome).toEqual({ ok: false, rejected: sourceChangedText(path) });
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ lifetime_calls: 2 });
  });

  it("a demoted tool waits in the drafts: the draft review leaves it alone until its content changes", async () => {
    const fs = await approvedVolume();
    await withCtx(fs, activatePortfolio);
    for (let i = 0; i < 11; i++) await fs.writeFile(`${paths.draftRoot}/hand_${String(i).padStart(2, "0")}.json`, JSON.stringify({ template: `echo hand ${i}` }));
    // twelve drafts, but the demoted one does not count: nothing is captured
    expect(await withCtx(fs, (ctx) => runCycle(ctx, { capture: true }), "batch-1")).toMatchObject({ phase: "idle", steps: [] });
    await fs.writeFile(`${paths.draftRoot}/tool_01.json`, JSON.stringify({ description: "Tool 1", template: "echo 1 revised" }));
    expect(await withCtx(fs, (ctx) => runCycle(ctx, { capture: true }), "batch-1")).toMatchObject({ phase: "captured", steps: ["captured"] });
  });

  it("without an approved plan activation does nothing", async () => {
    const fs = volume();
    expect(await withCtx(fs, activatePortfolio)).toEqual({ outcome: "none", phase: "idle" });
  });
});

describe("snapshot rollback", () => {
  it("restores revision 1's bytes: revision calls restart, lifetime calls go on; repeating it changes nothing (G48)", async () => {
    const fs = await approvedVolume();
    await withCtx(fs, activatePortfolio);
    const edited = JSON.stringify({ description: "Tool 0", template: "echo changed" });
    await fs.writeFile(toolPath("renamed_tool"), edited);
    await withCtx(fs, async (ctx) => {
      await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths));
      await launch(ctx, fs, "renamed_tool", 1);
      await foldPending(ctx.ledger);
    });
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ revision: 2, revision_calls: 1, lifetime_calls: 3 });

    const r = await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 1));
    expect(r).toEqual({ ok: true, tool: "renamed_tool", path: toolPath("renamed_tool"), restored_revision: 1, revision: 3, changed: true });
    expect(await text(fs, toolPath("renamed_tool"))).toBe(recipeText(0));
    const after = await ledgerOf(fs, "renamed_tool");
    expect(after).toMatchObject({ revision: 3, revision_calls: 0, lifetime_calls: 3, rollback_of_revision: 1 });
    expect((after["events"] as { type: string }[]).at(-1)).toMatchObject({ type: "rolled_back", revision: 3, rollback_revision: 1 });

    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 1))).toMatchObject({ ok: true, revision: 3, changed: false });
    const lineages = (await gatherReviews(fs, paths)).lineages as Record<string, unknown>[];
    expect(lineages.find((l) => l["name"] === "renamed_tool")).toMatchObject({ revision: 3, revision_calls: 0, lifetime_calls: 3, rollback_of_revision: 1 });
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ revision: 3, lifetime_calls: 3 });
  });

  it("refuses a revision with no snapshot, a rotated or tampered one, and an unknown tool, changing nothing", async () => {
    const fs = await approvedVolume();
    await withCtx(fs, activatePortfolio);
    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 2))).toEqual({ ok: false, error: "Invalid or rotated recipe revision snapshot. (renamed_tool revision 2)" });
    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 33))).toEqual({ ok: false, error: "Invalid or rotated recipe revision snapshot. (renamed_tool revision 33)" });
    const snap = `${paths.usageRoot}/revisions/renamed_tool/1.json`;
    const s = await json(fs, snap);
    await fs.writeFile(snap, JSON.stringify({ ...s, content: { text: '{"template":"rm -rf ~"}' } }));
    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 1))).toEqual({ ok: false, error: "Invalid or rotated recipe revision snapshot. (renamed_tool revision 1)" });
    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "nope", 1))).toEqual({ ok: false, error: "Recipe revision rollback lineage is unavailable: nope (no tool of that name has a usage lineage)" });
    expect(await text(fs, toolPath("renamed_tool"))).toBe(recipeText(0));
  });
});
