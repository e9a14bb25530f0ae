// `inspect target=recipes view=reviews` with both reviews finished: a completed draft review
// (one promotion, one discard) and an activated tool review on the six-tool volume (tool_00
// evolves, tool_01 is demoted, tool_02 and tool_03 merge into tool_03, tool_04 and tool_05 are
// kept). The view counts what each did, tells whether the activation's lineages are committed,
// counts lineages and retained snapshots, and carries no recipe content.
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import type { MemFileSystem } from "../../../adapters/fs/memfs.js";
import { reviewsText } from "../../../core/views/render.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { batchDir, EVIDENCE_FILE, statePath } from "../../../runtime/review/review-context.js";
import { cloneVolume, countMutations, makeCrashingFileSystem, recoverView } from "../../../props/support/crash-fs.js";
import { approvedVolume, nextCommand, paths, ROOT, text, withCtx } from "../../../props/support/portfolio-volume.js";

const activate = (fs: FileSystem) => withCtx(fs, (ctx) => activatePortfolio(ctx));

/** a draft review that completed: two drafts reviewed, one promoted, one discarded */
async function completedDraftReview(fs: FileSystem): Promise<void> {
  await fs.mkdir(batchDir(paths, "batch-1"), { recursive: true });
  await fs.writeFile(
    statePath(paths),
    JSON.stringify({ phase: "completed", batchId: "batch-1", batchSha256: "b".repeat(64), sources: [`${paths.draftRoot}/a.json`, `${paths.draftRoot}/b.json`], attempts: 1, updatedAt: "2026-01-01T00:00:00.000Z" }),
  );
  await fs.writeFile(
    `${batchDir(paths, "batch-1")}/${EVIDENCE_FILE}`,
    JSON.stringify({ batchId: "batch-1", actions: { promote: 1, discard: 1 }, garbageCollection: { reviewedSources: 2, status: "completed" } }),
  );
}

const entries = async (fs: FileSystem, dir: string): Promise<string[]> => (await fs.readdir(dir).catch(() => [])).map((e) => e.name).sort();

describe("view=reviews after both reviews", () => {
  it("counts the draft review's promote and discard, the tool review's decisions with its lineages committed, the lineages and snapshots; no recipe content (G65)", async () => {
    const fs = await approvedVolume();
    expect(await activate(fs)).toMatchObject({ outcome: "activated" });
    await completedDraftReview(fs);
    const view = await gatherReviews(fs, paths);

    expect(view.draft_review).toMatchObject({ phase: "completed", sources: 2, evidence: { actions: { discard: 1, promote: 1 }, reviewed_sources: 2 } });
    expect(view.tool_review).toMatchObject({
      phase: "completed",
      review_id: "review-1",
      tools: 6,
      evidence: { actions: { keep: 2, evolve: 1, demote: 1, merge: 2 }, lineage_phase: "committed" },
    });
    // one lineage per tool left: renamed_tool, the demoted tool_01, the merge survivor tool_03, tool_04, tool_05
    expect(await entries(fs, `${paths.usageRoot}/recipes`)).toEqual(["renamed_tool.json", "tool_01.json", "tool_03.json", "tool_04.json", "tool_05.json"]);
    expect(view.lineage_count).toBe(5);
    expect(view.lineages.map((l) => l["name"])).toEqual(["renamed_tool", "tool_01", "tool_03", "tool_04", "tool_05"]);
    expect(view.lineages.find((l) => l["name"] === "tool_01")).toMatchObject({ current_path: "drafts/tool_01.json", demoted_from_revision: 1 });
    expect(view.lineages.find((l) => l["name"] === "renamed_tool")).toMatchObject({ former_names: ["tool_00"], review_epochs: ["review-1"] });
    // a snapshot for each lineage the review passed (the demoted draft's too), none for the merged-away member
    expect(await entries(fs, `${paths.usageRoot}/revisions`)).toEqual(["renamed_tool", "tool_01", "tool_03", "tool_04", "tool_05"]);
    expect(view.revision_snapshots).toBe(5);
    expect(reviewsText(view)).toBe("automatic_reviews draft=completed tool=completed\nlineages=5 revision_snapshots=5");

    const json = JSON.stringify(view);
    expect(json).not.toContain('"template"');
    // nothing of a recipe: no command, no description
    expect(json).not.toMatch(/echo|Tool \d/);
  });

  it("an activation a crash interrupted after its record was written shows its lineages pending until the next command finishes the plan (G65)", async () => {
    const base = await approvedVolume();
    const record = `${paths.usageRoot}/reviews/tool/reviews/review-1/activated.json`;
    const n = await countMutations(async (f) => void (await activate(f)), cloneVolume(base.vol));
    let view: MemFileSystem | undefined;
    for (let k = 0; k <= n && view === undefined; k++) {
      const inner = cloneVolume(base.vol);
      const c = makeCrashingFileSystem(inner, { crashAt: k, seed: 65 });
      await activate(c).catch(() => undefined);
      await c.crash();
      const v = recoverView(inner);
      const journals = await entries(v, `${paths.usageRoot}/journal`);
      if ((await text(v, record)) !== undefined && journals.some((j) => j.endsWith(".journal.json"))) view = v;
    }
    expect(view, "no crash point leaves the activation record written and its plan pending").toBeDefined();
    // the state still says approved: the record is what the view shows as the activation's evidence
    const pendingView = await gatherReviews(view!, paths);
    expect(pendingView.tool_review).toMatchObject({ evidence: { lineage_phase: "pending" } });
    await nextCommand(view!);
    expect(await text(view!, `${ROOT}/renamed_tool.json`)).toBeDefined();
    expect((await gatherReviews(view!, paths)).tool_review).toMatchObject({ evidence: { lineage_phase: "committed" } });
  });
});
