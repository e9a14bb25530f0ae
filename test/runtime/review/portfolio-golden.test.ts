// The tool review's golden cases for activation, lineage finalization, snapshot rollback and the
// operator's controls, on an in-memory volume of six tools (portfolio size 6; the code path is
// the 36-tool one): tool_00 evolves to renamed_tool, tool_01 is demoted, tool_02 and tool_03
// (twins) merge into tool_03, tool_04 and tool_05 are kept. Where the registry deliberately
// behaves otherwise than a plain transcription of the case would (one journal plan instead of a
// separate lineage step; reset leading on instead of being refused), the test says what it checks.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import type { MemFileSystem } from "../../../adapters/fs/memfs.js";
import { executableFingerprint } from "../../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../../core/recipe/load.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { foldPending, recordLaunch, seedLineages, sha256Bytes } from "../../../runtime/ledger/index.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { statePath } from "../../../runtime/review/review-context.js";
import { controlReview } from "../../../runtime/review/cycle.js";
import { controlPortfolioReview, readToolState, runPortfolioCycle, toolReviewDir, toolStatePath } from "../../../runtime/review/portfolio-cycle.js";
import { rollbackTool } from "../../../runtime/review/rollback.js";
import { cloneVolume, countMutations, makeCrashingFileSystem, recoverView } from "../../../props/support/crash-fs.js";
import { approvedVolume, name, nextCommand, paths, recipeText, ROOT, scripted, SIZE, text, withCtx } from "../../../props/support/portfolio-volume.js";

const QUARANTINE = `${toolReviewDir(paths, "review-1")}/quarantine`;

async function launchOnce(fs: FileSystem, n: string): Promise<void> {
  const path = `${ROOT}/${n}.json`;
  const bytes = await fs.readFile(path);
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, n, "json");
  if (E.isLeft(config)) throw new Error("fixture");
  await withCtx(fs, async (ctx) => {
    expect(await recordLaunch(ctx.ledger, { path, name: n, fingerprint: executableFingerprint(config.right), sourceSha256: sha256Bytes(bytes) })).toMatchObject({ ok: true });
    await foldPending(ctx.ledger);
  });
}

/** six tools, seeded; each launched once when `launched`; the review approved */
const approved = (launched = false): Promise<MemFileSystem> =>
  approvedVolume(launched ? async (fs) => { for (let i = 0; i < SIZE; i++) await launchOnce(fs, name(i)); } : undefined);

const json = async (fs: FileSystem, p: string): Promise<Record<string, unknown>> => JSON.parse((await text(fs, p))!) as Record<string, unknown>;
const exists = async (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);
const ledgerOf = (fs: FileSystem, n: string): Promise<Record<string, unknown>> => json(fs, `${paths.usageRoot}/recipes/${n}.json`);
const activate = (fs: FileSystem) => withCtx(fs, (ctx) => activatePortfolio(ctx));

/** a process that exits (as with `process.exit`) right before `path` would be renamed into place or removed */
class Exited extends Error {}
const exitingBefore = (fs: FileSystem, path: string): FileSystem =>
  new Proxy(fs, {
    get: (target, p) => {
      if (p === "rename") return async (from: string, to: string) => (to === path ? Promise.reject(new Exited(`exit before ${to}`)) : target.rename(from, to));
      if (p === "rm") return async (at: string, o?: unknown) => (at === path ? Promise.reject(new Exited(`exit before removing ${at}`)) : (target.rm as (a: string, o?: unknown) => Promise<void>)(at, o));
      return Reflect.get(target, p);
    },
  });

describe("activation crash matrix", () => {
  it("a crash before the plan is durable leaves tool_00 and tool_01 as they were; after it, the next command finishes the activation (G41)", async () => {
    const base = await approved();
    const n = await countMutations(async (f) => void (await activate(f)), cloneVolume(base.vol));
    const sides: string[] = [];
    for (let k = 0; k <= n; k++) {
      const inner = cloneVolume(base.vol);
      const c = makeCrashingFileSystem(inner, { crashAt: k, seed: 41 + k });
      await activate(c).catch(() => undefined);
      await c.crash();
      const view = recoverView(inner);
      await nextCommand(view);
      if ((await text(view, `${ROOT}/tool_00.json`)) !== undefined) {
        expect(await text(view, `${ROOT}/tool_00.json`), `crash at ${k}`).toBe(recipeText(0));
        expect(await text(view, `${ROOT}/tool_01.json`), `crash at ${k}`).toBe(recipeText(1));
        expect(await exists(view, `${ROOT}/renamed_tool.json`), `crash at ${k}`).toBe(false);
        sides.push("before");
      } else {
        expect(await text(view, `${ROOT}/renamed_tool.json`), `crash at ${k}`).toBe(recipeText(0));
        expect(await exists(view, `${ROOT}/tool_01.json`), `crash at ${k}`).toBe(false);
        expect(await text(view, `${paths.draftRoot}/tool_01.json`), `crash at ${k}`).toBe(recipeText(1));
        sides.push("after");
      }
    }
    // the plan becomes durable once, after which no crash takes it back
    expect(sides.indexOf("after")).toBeGreaterThan(0);
    expect(sides.slice(sides.indexOf("after")).every((s) => s === "after")).toBe(true);
  });

  it("a journal altered on disk is kept aside and not replayed; activation then runs afresh from the untouched recipes (G41)", async () => {
    const base = await approved();
    const journals = `${paths.usageRoot}/journal`;
    // crash right after the activation's journal became durable, before its steps ran
    const n = await countMutations(async (f) => void (await activate(f)), cloneVolume(base.vol));
    let view: MemFileSystem | undefined;
    for (let k = 0; k <= n && view === undefined; k++) {
      const inner = cloneVolume(base.vol);
      const c = makeCrashingFileSystem(inner, { crashAt: k, seed: 7 });
      await activate(c).catch(() => undefined);
      await c.crash();
      const v = recoverView(inner);
      const names = (await v.readdir(journals).catch(() => [])).map((e) => e.name).filter((f) => f.endsWith(".journal.json"));
      if (names.length === 1 && (await text(v, names.map((f) => `${journals}/${f}`)[0]!))!.includes("tool-review-activation")) view = v;
    }
    expect(view, "no crash point leaves the activation journal pending").toBeDefined();
    const file = (await view!.readdir(journals)).find((e) => e.name.endsWith(".journal.json"))!.name;
    const original = (await text(view!, `${journals}/${file}`))!;
    await view!.writeFile(`${journals}/${file}`, original.replace("renamed_tool.json", "escaped_tool.json"));
    await nextCommand(view!);
    expect((await view!.readdir(journals)).map((e) => e.name)).toEqual([`${file}.quarantined`]);
    expect(await exists(view!, `${ROOT}/escaped_tool.json`)).toBe(false);
    expect(await text(view!, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await activate(view!)).toMatchObject({ outcome: "activated", phase: "completed" });
    expect(await text(view!, `${ROOT}/renamed_tool.json`)).toBe(recipeText(0));
    expect(await exists(view!, `${ROOT}/escaped_tool.json`)).toBe(false);
    expect((await view!.readdir(journals)).map((e) => e.name)).toEqual([`${file}.quarantined`]);
  });
});

describe("activation refused before its plan", () => {
  const journals = `${paths.usageRoot}/journal`;
  const journalFiles = async (fs: FileSystem): Promise<string[]> => (await fs.readdir(journals).catch(() => [])).map((e) => e.name);

  it("a reviewed tool changed after approval, or a target that appeared: refused with the reason, no journal written, every recipe as it was (G44)", async () => {
    const edited = await approved();
    await edited.writeFile(`${ROOT}/tool_05.json`, JSON.stringify({ template: "echo edited" }));
    expect(await activate(edited)).toMatchObject({ outcome: "failed", error: "Reviewed tool changed after approval: tool_05" });
    expect(await journalFiles(edited)).toEqual([]);
    expect(await text(edited, `${ROOT}/tool_00.json`)).toBe(recipeText(0));

    const appeared = await approved();
    const squatter = `${JSON.stringify({ template: "echo squatter" })}\n`;
    await appeared.writeFile(`${ROOT}/renamed_tool.json`, squatter);
    const r = await activate(appeared);
    expect(r).toMatchObject({ outcome: "failed", phase: "processing_failed" });
    expect(r.error).toBe(`Tool review target appeared after approval: ${ROOT}/renamed_tool.json`);
    expect(await journalFiles(appeared)).toEqual([]);
    expect(await text(appeared, `${ROOT}/renamed_tool.json`)).toBe(squatter);
    expect(await text(appeared, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await text(appeared, `${ROOT}/tool_01.json`)).toBe(recipeText(1));

    // the .md of the target's name: the renamed tool would shadow it (or it the tool)
    const beside = await approved();
    await beside.mkdir(paths.draftRoot, { recursive: true });
    await beside.writeFile(`${paths.draftRoot}/tool_01.md`, "```sh\necho mine\n```\n");
    expect(await activate(beside)).toMatchObject({ outcome: "failed", error: `Tool review target appeared after approval: ${paths.draftRoot}/tool_01.md` });
    expect(await journalFiles(beside)).toEqual([]);
    expect(await text(beside, `${ROOT}/tool_01.json`)).toBe(recipeText(1));
  });
});

describe("an activation interrupted after its plan", () => {
  it("a process exiting before the state says completed leaves the quarantine; the next boundary completes it and the lineage holds the review (G43)", async () => {
    const fs = await approved();
    await expect(withCtx(exitingBefore(fs, toolStatePath(paths)), (ctx) => activatePortfolio(ctx))).rejects.toThrow(Exited);
    expect((await withCtx(fs, readToolState))?.phase).toBe("approved");
    expect((await fs.readdir(QUARANTINE)).length).toBe(1);
    // the files and lineages moved together already: the one plan committed
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ review_epochs: ["review-1"] });
    expect(await activate(fs)).toMatchObject({ phase: "completed", reviewId: "review-1" });
    expect(await exists(fs, QUARANTINE)).toBe(false);
    expect((await ledgerOf(fs, "renamed_tool"))["review_epochs"]).toEqual(["review-1"]);
  });

  it("a process exiting after the state says completed but before the quarantine is removed: the next boundary removes it (G43)", async () => {
    const fs = await approved();
    await expect(withCtx(exitingBefore(fs, QUARANTINE), (ctx) => activatePortfolio(ctx))).rejects.toThrow(Exited);
    expect((await withCtx(fs, readToolState))?.phase).toBe("completed");
    expect((await fs.readdir(QUARANTINE)).length).toBe(1);
    expect(await activate(fs)).toEqual({ outcome: "completed", phase: "completed", reviewId: "review-1" });
    expect(await exists(fs, QUARANTINE)).toBe(false);
    expect((await ledgerOf(fs, "renamed_tool"))["review_epochs"]).toEqual(["review-1"]);
  });
});

describe("lineage finalization", () => {
  it("keep records the epoch, evolve keeps the count, merge sums it, demote marks the draft; snapshots per survivor; a repeat changes nothing (G47)", async () => {
    const fs = await approved(true);
    expect(await activate(fs)).toMatchObject({ outcome: "activated" });
    const kept = await ledgerOf(fs, "tool_04");
    expect(kept).toMatchObject({ review_epochs: ["review-1"], lifetime_calls: 1 });
    expect(kept["reviewed_fingerprints"]).toEqual([kept["fingerprint"]]);
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ lifetime_calls: 1, former_names: ["tool_00"], review_epochs: ["review-1"] });
    expect(await ledgerOf(fs, "tool_03")).toMatchObject({ lifetime_calls: 2, former_names: ["tool_02"] });
    const demoted = await ledgerOf(fs, "tool_01");
    expect(demoted).toMatchObject({ current_path: "drafts/tool_01.json", demoted_fingerprint: demoted["fingerprint"], demoted_from_revision: 1, demoted_review_epoch: "review-1", lifetime_calls: 1 });
    const snap = await json(fs, `${paths.usageRoot}/revisions/renamed_tool/1.json`);
    expect(snap).toMatchObject({ type: "recipe_revision_snapshot", lineage_name: "renamed_tool", revision: 1, review_id: "review-1", content: { text: recipeText(0) } });
    expect(await exists(fs, `${paths.usageRoot}/revisions/tool_03/1.json`)).toBe(true);
    expect(await exists(fs, `${paths.usageRoot}/revisions/tool_02`)).toBe(false);

    const image = JSON.stringify(Object.entries(fs.vol.toJSON()).sort());
    expect(await activate(fs)).toEqual({ outcome: "completed", phase: "completed", reviewId: "review-1" });
    expect(JSON.stringify(Object.entries(fs.vol.toJSON()).sort())).toBe(image);
  });

  it("a snapshot already in the revision's slot is overwritten with the reviewed bytes and the new review id (G47b)", async () => {
    const fs = await approved();
    const slot = `${paths.usageRoot}/revisions/tool_04/1.json`;
    await fs.mkdir(`${paths.usageRoot}/revisions/tool_04`, { recursive: true });
    await fs.writeFile(slot, JSON.stringify({ type: "recipe_revision_snapshot", lineage_name: "tool_04", revision: 33, review_id: "older-review", content: { text: "old" } }));
    await activate(fs);
    expect(await json(fs, slot)).toMatchObject({ revision: 1, review_id: "review-1", content: { text: recipeText(4) } });
  });
});

describe("snapshot rollback refusals", () => {
  async function activated(): Promise<MemFileSystem> {
    const fs = await approved();
    await activate(fs);
    await fs.writeFile(`${ROOT}/renamed_tool.json`, `${JSON.stringify({ description: "Tool 0", template: "echo changed" })}\n`);
    await withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
    return fs;
  }
  const snap = `${paths.usageRoot}/revisions/renamed_tool/1.json`;
  const rollback = (fs: FileSystem) => withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 1));

  it("a tampered snapshot and a rotated revision are refused; a symlinked snapshot is refused; nothing changes (G49)", async () => {
    const fs = await activated();
    const before = await text(fs, `${ROOT}/renamed_tool.json`);
    const s = await json(fs, snap);
    await fs.writeFile(snap, JSON.stringify({ ...s, content: { text: '{"template":"rm -rf ~"}\n' } }));
    expect(await rollback(fs)).toEqual({ ok: false, error: expect.stringMatching(/invalid or rotated/i) });
    expect(await withCtx(fs, (ctx) => rollbackTool(ctx, "renamed_tool", 33))).toEqual({ ok: false, error: expect.stringMatching(/invalid or rotated/i) });
    // the genuine snapshot, reached through a symlink, is still refused
    await fs.writeFile(`${paths.usageRoot}/elsewhere.json`, JSON.stringify(s));
    await fs.rm(snap);
    await fs.symlink(`${paths.usageRoot}/elsewhere.json`, snap);
    expect(await rollback(fs)).toEqual({ ok: false, error: expect.stringMatching(/symlink is not allowed/i) });
    expect(await text(fs, `${ROOT}/renamed_tool.json`)).toBe(before);
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ revision: 2 });
  });

  it("a recipe edited while the rollback runs is not overwritten: the rollback fails and the lineage is unchanged (G49)", async () => {
    const fs = await activated();
    const edit = `${JSON.stringify({ description: "Tool 0", template: "echo edited meanwhile" })}\n`;
    const journals = `${paths.usageRoot}/journal`;
    let edited = false;
    // an editor writes the recipe just as the rollback's plan is made durable
    const racing = new Proxy(fs, {
      get: (target, p) =>
        p === "rename"
          ? async (from: string, to: string) => {
              if (!edited && to.startsWith(`${journals}/`)) {
                edited = true;
                await target.writeFile(`${ROOT}/renamed_tool.json`, edit);
              }
              return target.rename(from, to);
            }
          : Reflect.get(target, p),
    });
    const r = await rollback(racing);
    expect(edited).toBe(true);
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/changed/i) });
    expect(await text(fs, `${ROOT}/renamed_tool.json`)).toBe(edit);
    await nextCommand(fs);
    expect(await text(fs, `${ROOT}/renamed_tool.json`)).toBe(edit);
    expect(await ledgerOf(fs, "renamed_tool")).toMatchObject({ revision: 2 });
    expect((await ledgerOf(fs, "renamed_tool"))["rollback_of_revision"]).toBeUndefined();
  });
});

describe("review.reset", () => {
  it("a failed draft review is forgotten; a tool review whose activation failed is forgotten too and a new cycle captures again (G63)", async () => {
    const fs = await approved();
    await fs.mkdir(`${paths.usageRoot}/reviews/draft`, { recursive: true });
    await fs.writeFile(statePath(paths), JSON.stringify({ phase: "failed", batchId: "batch-1", batchSha256: "x", sources: [], attempts: 3, updatedAt: "2026-01-01T00:00:00.000Z" }));
    expect(await withCtx(fs, (ctx) => controlReview(ctx, "review.reset"))).toMatchObject({ changed: true });
    expect(await exists(fs, statePath(paths))).toBe(false);

    // activation fails (a tool edited after approval): the plan leaves every recipe as it was
    await fs.writeFile(`${ROOT}/tool_05.json`, JSON.stringify({ template: "echo edited" }));
    expect(await activate(fs)).toMatchObject({ outcome: "failed", phase: "processing_failed" });
    // a reset here is safe: no journal can be waiting after a failed activation, so it leads on to a new cycle
    expect(await withCtx(fs, (ctx) => controlPortfolioReview(ctx, "review.reset"))).toMatchObject({ changed: true, previous_phase: "processing_failed", phase: "idle" });
    expect(await exists(fs, toolStatePath(paths))).toBe(false);
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    // the next cycle captures a fresh portfolio (tool_05's revision included), and it activates
    const again = await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer: scripted, portfolioSize: SIZE }), "review-2");
    expect(again).toMatchObject({ phase: "approved" });
    expect(await activate(fs)).toMatchObject({ outcome: "activated", reviewId: "review-2" });
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(true);
  });
});
