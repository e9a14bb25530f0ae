// Activation of an approved tool portfolio (runtime/review/activate.ts), on the six-tool volume of
// props/support/portfolio-volume.ts: what stops it and the state it then records, where a
// merged-away member waits until the review completes, and the test-only lineage-first variant
// that the crash property (props/portfolio-crash.test.ts) is shown to catch.
import { Volume } from "memfs";
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths, type AgentPaths } from "../../../runtime/agent-paths.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { closeLedger, seedLineages } from "../../../runtime/ledger/index.js";
import { activatePortfolio, type ActivationFaults } from "../../../runtime/review/activate.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { readToolState, runPortfolioCycle, toolReviewDir, toolStatePath } from "../../../runtime/review/portfolio-cycle.js";
import { openReviews, type ReviewContext } from "../../../runtime/review/review-context.js";
import { approvedVolume, name, nextCommand, paths, recipeText, ROOT, scripted, SIZE, text, withCtx } from "../../../props/support/portfolio-volume.js";

const activate = (fs: FileSystem, faults?: ActivationFaults) => withCtx(fs, (ctx) => activatePortfolio(ctx, faults));
const exists = (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);
const ledgerOf = async (fs: FileSystem, n: string): Promise<Record<string, unknown> | undefined> => {
  const t = await text(fs, `${paths.usageRoot}/recipes/${n}.json`);
  return t === undefined ? undefined : (JSON.parse(t) as Record<string, unknown>);
};

/** the six tools under `agentDir`, with tool `mdIndex` (if any) a Markdown recipe, seeded and approved */
async function approvedAt(agentDir: string, mdIndex?: number): Promise<{ fs: MemFileSystem; paths: AgentPaths; run: <A>(f: (ctx: ReviewContext) => Promise<A>) => Promise<A> }> {
  const p = agentPaths({ PI_CODING_AGENT_DIR: agentDir }, "/", "/home");
  const files: Record<string, string> = {};
  for (let i = 0; i < SIZE; i++)
    if (i === mdIndex) files[`${p.recipeRoot}/${name(i)}.md`] = `---\ndescription: Tool ${i}\n---\n\n\`\`\`template\necho ${i}\n\`\`\`\n`;
    else files[`${p.recipeRoot}/${name(i)}.json`] = recipeText(i);
  const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
  const lock: Lock = { acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }), withLock: async (_path, fn) => fn() };
  const run = async <A>(f: (ctx: ReviewContext) => Promise<A>): Promise<A> => {
    const ctx = openReviews({ fs, lock, paths: p, now: () => Date.UTC(2026, 0, 1), newId: () => "review-1" });
    try {
      return await f(ctx);
    } finally {
      await closeLedger(ctx.ledger);
    }
  };
  await run(async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, p))));
  expect((await run((ctx) => runPortfolioCycle(ctx, { reviewer: scripted, portfolioSize: SIZE }))).phase).toBe("approved");
  return { fs, paths: p, run };
}

/** the file system with `rename` failing (as a full disk would) for a move out of `from` */
const renameFailsFrom = (fs: FileSystem, from: string): FileSystem =>
  new Proxy(fs, {
    get: (target, p) => (p === "rename" ? async (a: string, b: string) => (a === from ? Promise.reject(new Error(`ENOSPC: rename ${a}`)) : target.rename(a, b)) : Reflect.get(target, p)),
  });

/** a process that exits (as with `process.exit`) right before `path` is renamed into place */
class Exited extends Error {}
const exitingBefore = (fs: FileSystem, path: string): FileSystem =>
  new Proxy(fs, {
    get: (target, p) => (p === "rename" ? async (a: string, b: string) => (b === path ? Promise.reject(new Exited(`exit before ${b}`)) : target.rename(a, b)) : Reflect.get(target, p)),
  });

describe("an activation cut short after its plan was carried out", () => {
  it("the view says the plan was carried out, and the next activation records the review as completed without claiming the work", async () => {
    const fs = await approvedVolume();
    const approved = await text(fs, toolStatePath(paths));
    expect(await activate(fs)).toMatchObject({ outcome: "activated", phase: "completed" });
    // as a crash between the plan and the state's write leaves it: the plan done, the state approved
    await fs.writeFile(toolStatePath(paths), approved!);
    expect((await gatherReviews(fs, paths)).tool_review).toMatchObject({
      phase: "approved",
      next_action: "the plan was carried out; pi-recipes activate (or the next Pi session or MCP server start) records the review as completed",
    });
    const again = await activate(fs);
    expect(again).toMatchObject({ outcome: "completed", phase: "completed", recovered: true });
    expect(await withCtx(fs, readToolState)).toMatchObject({ phase: "completed" });
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(true);
  });
});

describe("activation refused", () => {
  it("an approved plan that is gone fails activation with the reason in the report, the state and the view; no tool moves", async () => {
    const fs = await approvedVolume();
    await fs.rm(`${toolReviewDir(paths, "review-1")}/approved.json`);
    const error = "approved plan of review review-1 is missing or changed";
    expect(await activate(fs)).toEqual({ outcome: "failed", phase: "processing_failed", reviewId: "review-1", error });
    expect(await withCtx(fs, readToolState)).toMatchObject({ phase: "processing_failed", failedStage: "activation", lastError: error });
    expect((await gatherReviews(fs, paths)).tool_review).toMatchObject({ phase: "processing_failed", failed_stage: "activation", last_error: error });
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(false);
  });

  it("a Markdown tool's target: a .json of the target's name that appeared after approval stops it", async () => {
    // tool_01 is a Markdown recipe, demoted to drafts/tool_01.md; a drafts/tool_01.json would shadow it
    const { fs, paths: p, run } = await approvedAt("/agent", 1);
    const squatter = `${JSON.stringify({ template: "echo mine" })}\n`;
    await fs.mkdir(p.draftRoot, { recursive: true });
    await fs.writeFile(`${p.draftRoot}/tool_01.json`, squatter);
    expect(await run((ctx) => activatePortfolio(ctx))).toMatchObject({ outcome: "failed", error: `Tool review target appeared after approval: ${p.draftRoot}/tool_01.json` });
    expect(await exists(fs, `${p.recipeRoot}/tool_01.md`)).toBe(true);
    expect(await exists(fs, `${p.draftRoot}/tool_01.md`)).toBe(false);
    expect(await text(fs, `${p.draftRoot}/tool_01.json`)).toBe(squatter);
  });

  it("a tool of the target's name in the other format stops it, also in a root whose folder name ends in .md", async () => {
    const { fs, paths: p, run } = await approvedAt("/notes.md");
    await fs.writeFile(`${p.recipeRoot}/renamed_tool.md`, "```sh\necho mine\n```\n");
    expect(await run((ctx) => activatePortfolio(ctx))).toMatchObject({ outcome: "failed", error: `Tool review target appeared after approval: ${p.recipeRoot}/renamed_tool.md` });
    expect(await text(fs, `${p.recipeRoot}/tool_00.json`)).toBe(recipeText(0));
    expect(await exists(fs, `${p.recipeRoot}/renamed_tool.json`)).toBe(false);
  });
});

describe("a recipe that reads a tool the plan moves away", () => {
  it("written after approval, it stops the activation, named with the tool and the move; nothing changes", async () => {
    const fs = await approvedVolume();
    // imports tool_00 (renamed to renamed_tool) and delegates to tool_01 (demoted)
    const importer = `${JSON.stringify({ imports: { p: "tool_00" }, template: ["echo mine", { name: "p" }] })}\n`;
    await fs.writeFile(`${ROOT}/mine.json`, importer);
    await fs.writeFile(`${ROOT}/front.json`, '{"template":"tool_01"}');
    const error = [
      `Tool review would break ${ROOT}/mine.json: it imports or delegates to tool_00 (${ROOT}/tool_00.json), which the plan renames to renamed_tool.json; nothing was changed`,
      `Tool review would break ${ROOT}/front.json: it imports or delegates to tool_01 (${ROOT}/tool_01.json), which the plan demotes to a draft; nothing was changed`,
    ].join("; ");
    expect(await activate(fs)).toEqual({ outcome: "failed", phase: "processing_failed", reviewId: "review-1", error });
    expect((await gatherReviews(fs, paths)).tool_review).toMatchObject({ failed_stage: "activation", last_error: error, next_action: expect.stringContaining("review.reset") });
    expect(await text(fs, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await text(fs, `${ROOT}/tool_01.json`)).toBe(recipeText(1));
    expect(await exists(fs, `${ROOT}/renamed_tool.json`)).toBe(false);
    expect(await text(fs, `${ROOT}/mine.json`)).toBe(importer);
  });
});

describe("the merged-away member", () => {
  it("waits in the review's quarantine, named by its place in the plan and its file name, until the review completes", async () => {
    const fs = await approvedVolume();
    const quarantine = `${toolReviewDir(paths, "review-1")}/quarantine`;
    // the process exits after the plan, before the state says completed
    await expect(withCtx(exitingBefore(fs, toolStatePath(paths)), (ctx) => activatePortfolio(ctx))).rejects.toThrow(Exited);
    // tool_02 is the third tool of the plan (merged into its twin tool_03)
    expect((await fs.readdir(quarantine)).map((e) => [e.name, e.kind])).toEqual([["0003-tool_02.json", "file"]]);
    expect(await text(fs, `${quarantine}/0003-tool_02.json`)).toBe(recipeText(2));
    expect(await exists(fs, `${ROOT}/tool_02.json`)).toBe(false);
    expect(await activate(fs)).toMatchObject({ phase: "completed" });
    expect(await exists(fs, quarantine)).toBe(false);
  });
});

describe("the lineage-first variant (a planted break for the crash property)", () => {
  it("uninterrupted, it ends exactly as the real activation does", async () => {
    const real = await approvedVolume();
    const broken = await approvedVolume();
    const report = { outcome: "activated", phase: "completed", reviewId: "review-1", actions: { evolve: 1, demote: 1, merge: 2, keep: 2 } };
    expect(await activate(real)).toEqual(report);
    expect(await activate(broken, { lineageFirst: true })).toEqual(report);
    expect(await ledgerOf(broken, "renamed_tool")).toMatchObject({ current_path: "renamed_tool.json", former_names: ["tool_00"], review_epochs: ["review-1"] });
    expect(await text(broken, `${ROOT}/renamed_tool.json`)).toBe(recipeText(0));
    expect(await text(broken, `${paths.draftRoot}/tool_01.json`)).toBe(recipeText(1));
    // the same recipes, lineages, snapshots and activation record: every file alike
    const files = (fs: MemFileSystem) => Object.entries(fs.vol.toJSON()).sort();
    expect(files(broken)).toEqual(files(real));
  });

  it("a file that fails to move after its lineages committed splits the two for good, where the real activation is finished by the next command", async () => {
    const indexed = async (fs: FileSystem): Promise<string[]> => Object.keys((JSON.parse((await text(fs, `${paths.usageRoot}/index.json`))!) as { paths: object }).paths).sort();
    const real = await approvedVolume();
    expect(await activate(renameFailsFrom(real, `${ROOT}/tool_00.json`))).toMatchObject({ outcome: "failed", phase: "processing_failed" });
    await nextCommand(real);
    expect(await text(real, `${ROOT}/renamed_tool.json`)).toBe(recipeText(0));
    expect(await exists(real, `${ROOT}/tool_00.json`)).toBe(false);
    expect(await indexed(real)).toContain("renamed_tool.json");
    expect(await indexed(real)).not.toContain("tool_00.json");

    const broken = await approvedVolume();
    expect(await activate(renameFailsFrom(broken, `${ROOT}/tool_00.json`), { lineageFirst: true })).toMatchObject({ outcome: "failed", phase: "processing_failed" });
    await nextCommand(broken);
    // the recipe stayed, its lineage moved on without it
    expect(await text(broken, `${ROOT}/tool_00.json`)).toBe(recipeText(0));
    expect(await exists(broken, `${ROOT}/renamed_tool.json`)).toBe(false);
    expect(await indexed(broken)).toContain("renamed_tool.json");
    expect(await indexed(broken)).not.toContain("tool_00.json");
  });
});
