// Snapshot rollback in-process on the six-tool volume after its activation (renamed_tool holds
// revision 1's snapshot): the refusals and their exact texts, when repeating a rollback changes
// nothing, and a failure returned rather than thrown.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { rollbackTool } from "../../../runtime/review/rollback.js";
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

  it("the same bytes with no rollback recorded yet is still a rollback; asked again it changes nothing; other bytes are restored", async () => {
    const fs = await activated();
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: true });
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: false });
    // the same recipe written differently: same fingerprint, other bytes
    await fs.writeFile(TOOL, `${JSON.stringify(JSON.parse(recipeText(0)), null, 4)}\n`);
    expect(await rollback(fs)).toEqual({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, revision: 1, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
  });

  it("a tool whose file is gone has nothing to roll back", async () => {
    const fs = await activated();
    await fs.unlink(TOOL);
    expect(await rollback(fs)).toEqual({ ok: false, error: "Recipe revision rollback lineage is unavailable: renamed_tool" });
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

  it("a .json revision of a tool that is a .md file now comes back as the .json, the .md goes and the lineage moves; an existing .json is never replaced", async () => {
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
    await fs.writeFile(TOOL, '{"template":"echo someone else"}');
    expect(await rollback(fs)).toEqual({ ok: false, error: `Recipe revision rollback would replace another recipe file: ${TOOL} (renamed_tool is ${MD} now)` });
    await fs.unlink(TOOL);
    expect(await rollback(fs)).toMatchObject({ ok: true, tool: "renamed_tool", path: TOOL, restored_revision: 1, changed: true });
    expect(await text(fs, TOOL)).toBe(recipeText(0));
    expect(await text(fs, MD)).toBeUndefined();
    expect(JSON.parse(await text(fs, ledger) ?? "{}")).toMatchObject({ current_path: "renamed_tool.json", rollback_of_revision: 1 });
  });
});
