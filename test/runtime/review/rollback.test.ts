// Snapshot rollback in-process on the six-tool volume after its activation (renamed_tool holds
// revision 1's snapshot): the refusals and their exact texts, when repeating a rollback changes
// nothing, and a failure returned rather than thrown.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { rollbackTool } from "../../../runtime/review/rollback.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { seedLineages } from "../../../runtime/ledger/index.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { approvedVolume, paths, recipeText, ROOT, text, withCtx } from "../../../props/support/portfolio-volume.js";

const TOOL = `${ROOT}/renamed_tool.json`;
const RING = `${paths.usageRoot}/revisions/renamed_tool`;
const rollback = (fs: FileSystem, revision = 1, tool = "renamed_tool") => withCtx(fs, (ctx) => rollbackTool(ctx, tool, revision));
async function activated(): Promise<FileSystem> {
  const fs = await approvedVolume();
  expect(await withCtx(fs, (ctx) => activatePortfolio(ctx))).toMatchObject({ outcome: "activated" });
  return fs;
}

describe("rollbackTool", () => {
  it("a revision must be a positive safe integer", async () => {
    const fs = makeMemFileSystem(new Volume());
    for (const r of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(await rollback(fs, r)).toEqual({ ok: false, error: `revision must be a positive integer (got ${r})` });
  });

  it("without a recipe root there is no lineage to roll back", async () => {
    expect(await rollback(makeMemFileSystem(new Volume()))).toEqual({ ok: false, error: `Recipe revision rollback lineage is unavailable: renamed_tool (the recipe root ${ROOT} is missing)` });
  });

  it("a tool that holds the revision (its current one) changes nothing; other bytes are restored", async () => {
    const fs = await activated();
    // revision 1 is the current revision: no rollback event, whose new revision would restart
    // the calls of the revision the tool is still on
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: false });
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: false });
    // the same recipe written differently: same fingerprint, other bytes
    await fs.writeFile(TOOL, `${JSON.stringify(JSON.parse(recipeText(0)), null, 4)}\n`);
    // the bytes come back, but the content is the revision the tool is on: no new revision
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: true, new_revision: false });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
  });

  it("a demoted tool (a draft now) is refused with the way to promote it, and nothing is written", async () => {
    const fs = await activated();
    const draft = `${paths.draftRoot}/tool_01.json`;
    const before = await text(fs, draft);
    expect(before).toBeDefined();
    expect(await rollback(fs, 1, "tool_01")).toEqual({
      ok: false,
      error: `Tool tool_01 is a draft now (${draft}), not an active tool: promote it with register_tool name=tool_01 draft=drafts/tool_01.json, then roll it back`,
    });
    expect(await text(fs, draft)).toBe(before);
  });

  it("a tool whose file was deleted gets the revision back; not over a folder", async () => {
    const fs = await activated();
    await fs.unlink(TOOL);
    const back = await rollback(fs);
    expect(back).toMatchObject({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
    await fs.unlink(TOOL);
    await fs.mkdir(TOOL);
    expect(await rollback(fs)).toEqual({ ok: false, error: `Recipe revision rollback cannot replace ${TOOL}: it is not a regular file (renamed_tool)` });
  });

  it("a tool rewritten in the other format with other content keeps its lineage, and rolls back to its .json (no view between)", async () => {
    const fs = await activated();
    const md = `${ROOT}/renamed_tool.md`;
    await fs.unlink(TOOL);
    await fs.writeFile(md, "---\ndescription: as markdown\n---\n\n```template\necho changed {x=1}\n```\n");
    expect(await rollback(fs)).toMatchObject({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 3, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
    expect(await text(fs, md)).toBeUndefined();
  });

  it("a name the tool had before is answered with the name it has now (no view between the rename and the rollback)", async () => {
    const fs = await activated();
    await fs.rename(TOOL, `${ROOT}/newer_name.json`);
    expect(await rollback(fs)).toEqual({
      ok: false,
      error: 'Recipe revision rollback lineage is unavailable: renamed_tool is "newer_name" now (renamed or merged); roll back with rollback tool=newer_name revision=<n>',
    });
    expect(await rollback(fs, 1, "newer_name")).toMatchObject({ ok: true, tool: "newer_name" });
  });

  it("a tool renamed by hand since its snapshot finds it in the ring of its former name; a new tool of the old name does not", async () => {
    const fs = await activated();
    const seed = () => withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
    // renamed by hand (the lineage follows the same content), then edited: revision 2
    const other = `${ROOT}/other_tool.json`;
    await fs.rename(TOOL, other);
    await seed();
    await fs.writeFile(other, `${JSON.stringify({ description: "Edited", template: "echo edited" })}\n`);
    await seed();
    expect(await rollback(fs, 1, "other_tool")).toEqual({ ok: true, tool: "other_tool", path: other, restored_revision: 1, revision: 3, changed: true });
    expect(await text(fs, other)).toBe(recipeText(0));
    // a new tool under the old name is another lineage: revision 1 of the old one is not its own
    await fs.writeFile(TOOL, `${JSON.stringify({ description: "New", template: "echo new" })}\n`);
    await seed();
    await fs.writeFile(TOOL, `${JSON.stringify({ description: "New", template: "echo newer" })}\n`);
    await seed();
    const before = await text(fs, TOOL);
    expect(await rollback(fs, 1)).toEqual({ ok: false, error: "Invalid or rotated recipe revision snapshot. (renamed_tool revision 1)" });
    expect(await text(fs, TOOL)).toBe(before);
  });

  it("a snapshot, or its ring folder, that is a symlink is refused, naming it", async () => {
    const fs = await activated();
    await fs.rename(`${RING}/1.json`, `${RING}/real.json`);
    await fs.symlink(`${RING}/real.json`, `${RING}/1.json`);
    expect(await rollback(fs)).toEqual({ ok: false, error: `Recipe revision snapshot symlink is not allowed: ${RING}/1.json` });
    await fs.rename(RING, `${RING}-real`);
    await fs.symlink(`${RING}-real`, RING);
    expect(await rollback(fs)).toEqual({ ok: false, error: `Recipe revision snapshot symlink is not allowed: ${RING}` });
  });

  it("a failure is returned with its message", async () => {
    const base = await activated();
    const fs = interceptFs(base, async (name, args, call) => (name === "open" && String(args[0]).includes("/journal/") && args[1] !== "r" ? Promise.reject(new Error("disk full")) : call()));
    await base.writeFile(TOOL, '{"template":"echo other"}');
    expect(await rollback(fs)).toEqual({ ok: false, error: expect.stringMatching(/^Recipe revision rollback failed: Plan \S+ \(revision-rollback\) could not write its journal; nothing was changed: disk full$/) });
    expect(await text(base, TOOL)).toBe('{"template":"echo other"}');
  });

  it("a .json revision of a tool that is a .md file now comes back as the .json, the .md goes and the lineage moves", async () => {
    const fs = await activated();
    const MD = `${ROOT}/renamed_tool.md`;
    await fs.unlink(TOOL);
    await fs.writeFile(MD, "---\ndescription: Markdown\n---\n\n```template\necho md\n```\n");
    // the lineage as a rename by hand leaves it once recorded: its file is the .md now
    const ledger = `${paths.usageRoot}/recipes/renamed_tool.json`;
    const index = `${paths.usageRoot}/index.json`;
    await fs.writeFile(ledger, JSON.stringify({ ...JSON.parse((await text(fs, ledger))!), current_path: "renamed_tool.md" }));
    const idx = JSON.parse((await text(fs, index))!) as { paths: Record<string, unknown> };
    idx.paths["renamed_tool.md"] = idx.paths["renamed_tool.json"];
    delete idx.paths["renamed_tool.json"];
    await fs.writeFile(index, JSON.stringify(idx));
    expect(await rollback(fs)).toMatchObject({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
    expect(await text(fs, MD)).toBeUndefined();
    expect(JSON.parse(await text(fs, ledger) ?? "{}")).toMatchObject({ current_path: "renamed_tool.json", rollback_of_revision: 1 });
  });

  const LEDGER = `${paths.usageRoot}/recipes/renamed_tool.json`;
  const INDEX = `${paths.usageRoot}/index.json`;
  /** the lineage's ledger record, changed by hand */
  async function editRecord(fs: FileSystem, change: Record<string, unknown>): Promise<void> {
    await fs.writeFile(LEDGER, JSON.stringify({ ...JSON.parse((await text(fs, LEDGER))!), ...change }));
  }
  /** the lineage's index key moved to `key`, as a rename recorded by hand leaves it */
  async function moveKey(fs: FileSystem, key: string): Promise<void> {
    await editRecord(fs, { current_path: key });
    const idx = JSON.parse((await text(fs, INDEX))!) as { paths: Record<string, unknown> };
    idx.paths[key] = idx.paths["renamed_tool.json"];
    delete idx.paths["renamed_tool.json"];
    await fs.writeFile(INDEX, JSON.stringify(idx));
  }

  /** the lineage moved to `key` (its file `from`): rolling back restores revision 1's .json and
   *  removes `from` */
  async function comesBackAsJson(fs: FileSystem, from: string, key: string): Promise<void> {
    await moveKey(fs, key);
    expect(await rollback(fs)).toMatchObject({ ok: true, path: TOOL, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
    expect(await text(fs, from)).toBeUndefined();
  }

  it("a lineage whose path leaves the recipe root is unavailable, and nothing outside is read", async () => {
    const base = await activated();
    await base.mkdir("/agent/elsewhere", { recursive: true });
    await base.writeFile("/agent/elsewhere/outside.json", recipeText(0));
    await moveKey(base, "../elsewhere/outside.json");
    const read: string[] = [];
    const fs = interceptFs(base, async (name, args, call) => ((name === "readFile" || name === "open") && read.push(String(args[0])), call()));
    expect(await rollback(fs)).toEqual({ ok: false, error: "Recipe revision rollback lineage is unavailable: renamed_tool" });
    expect(read.filter((p) => p.includes("elsewhere"))).toEqual([]);
  });

  it("bytes already the revision's are not written again: only the lineage records the rollback, in place", async () => {
    const base = await activated();
    // the lineage has moved on to a later revision whose bytes came back by hand
    await editRecord(base, { revision: 2 });
    const before = JSON.parse((await text(base, LEDGER))!) as { former_paths: unknown };
    const touched: string[] = [];
    const fs = interceptFs(base, async (name, args, call) => ((name === "rename" || name === "writeFile") && touched.push(String(args[1] ?? args[0])), call()));
    expect(await rollback(fs)).toMatchObject({ ok: true, path: TOOL, changed: true });
    expect(touched.filter((p) => p === TOOL)).toEqual([]);
    expect(JSON.parse((await text(base, LEDGER))!)).toMatchObject({ current_path: "renamed_tool.json", former_paths: before.former_paths, rollback_of_revision: 1 });
  });

  it("a lineage whose recorded fingerprint is not the revision's is rolled back again, even with the revision's bytes", async () => {
    const fs = await activated();
    expect(await rollback(fs)).toMatchObject({ ok: true, changed: false });
    await editRecord(fs, { fingerprint: "0".repeat(64) });
    expect(await rollback(fs)).toMatchObject({ ok: true, changed: true });
    expect(await rollback(fs)).toMatchObject({ ok: true, changed: false });
  });

  it("a .md file holding the very bytes of the .json revision still comes back as the .json", async () => {
    const fs = await activated();
    expect(await rollback(fs)).toMatchObject({ ok: true, changed: false });
    const MD = `${ROOT}/renamed_tool.md`;
    await fs.rename(TOOL, MD);
    await comesBackAsJson(fs, MD, "renamed_tool.md");
  });

  it("a lineage file without an extension comes back as <name> plus the revision's extension", async () => {
    const fs = await activated();
    const BARE = `${ROOT}/renamed_tool`;
    await fs.rename(TOOL, BARE);
    await fs.writeFile(BARE, '{"template":"echo bare"}');
    await comesBackAsJson(fs, BARE, "renamed_tool");
  });

  it("a symlinked folder on the plan's way (the ledgers' folder) is refused, naming it", async () => {
    const fs = await activated();
    const folder = `${paths.usageRoot}/recipes`;
    await fs.rename(folder, `${folder}-real`);
    await fs.symlink(`${folder}-real`, folder);
    await fs.writeFile(TOOL, '{"template":"echo other"}');
    expect(await rollback(fs)).toEqual({ ok: false, error: `Invalid recipe revision rollback root: ${folder} is a symlink below the recipe root ${ROOT}; only the root's own folders are written` });
    expect(await text(fs, TOOL)).toBe('{"template":"echo other"}');
  });
});
