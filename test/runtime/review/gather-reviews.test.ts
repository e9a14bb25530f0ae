// `inspect target=recipes view=reviews` from hand-written review files on an in-memory volume:
// which files the view reads (only objects, only up to 1 MiB), which ledgers count as lineages,
// when an activation's lineages read as pending, and which revision snapshots are counted.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { toFsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { gatherReviews } from "../../../runtime/review/gather-reviews.js";
import { interceptFs } from "../../support/intercept-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const USAGE = paths.usageRoot;
const DRAFT = `${USAGE}/reviews/draft`;
const TOOL = `${USAGE}/reviews/tool`;
const draftState = JSON.stringify({ phase: "completed", batchId: "batch-1", batchSha256: "b".repeat(64), sources: ["/a", "/b"], attempts: 1, updatedAt: "2026-01-01T00:00:00.000Z" });
const toolState = JSON.stringify({ phase: "completed", reviewId: "review-1", portfolioSha256: "p".repeat(64), tools: 6, attempts: 1, updatedAt: "2026-01-01T00:00:00.000Z" });
const evidence = JSON.stringify({ actions: { promote: 1 }, garbageCollection: { reviewedSources: 2, status: "completed" } });
const activated = JSON.stringify({ actions: { keep: 6 }, at: "2026-01-02T00:00:00.000Z" });
const journal = (kind: string, space = " ") => `{"kind":${space}"${kind}","steps":[]}`;

const vol = (files: Record<string, string>): FileSystem => makeMemFileSystem(Volume.fromJSON(files) as Volume);
/** every listing in reverse name order: the view sorts what it lists */
const reversed = (fs: FileSystem): FileSystem =>
  interceptFs(fs, async (name, _args, call) => (name === "readdir" ? [...((await call()) as { name: string }[])].sort((a, b) => (a.name < b.name ? 1 : -1)) : call()));

describe("no reviews yet", () => {
  it("with no review, ledger or snapshot folder everything is idle and empty", async () => {
    expect(await gatherReviews(vol({ [`${paths.recipeRoot}/tool.json`]: "{}" }), paths)).toEqual({
      draft_review: { phase: "idle" },
      lineage_count: 0,
      lineages: [],
      revision_snapshots: 0,
      tool_review: { phase: "idle" },
    });
  });
});

describe("the draft review's part", () => {
  it("shows the state and its batch's evidence", async () => {
    const view = await gatherReviews(vol({ [`${DRAFT}/state.json`]: draftState, [`${DRAFT}/batches/batch-1/evidence.json`]: evidence }), paths);
    expect(view.draft_review).toEqual({
      phase: "completed",
      attempts: 1,
      processing_attempts: 0,
      batch_id: "batch-1",
      sources: 2,
      updated_at: "2026-01-01T00:00:00.000Z",
      evidence: { actions: { promote: 1 }, garbage_collection: { reviewed_sources: 2, status: "completed" }, reviewed_sources: 2 },
    });
  });

  it("evidence that is not a JSON object, a folder, or bigger than 1 MiB is not shown", async () => {
    for (const bad of ["[1]", "3", "null", "{nope", `{"actions":{},"pad":"${" ".repeat(1024 * 1024)}"}`]) {
      const view = await gatherReviews(vol({ [`${DRAFT}/state.json`]: draftState, [`${DRAFT}/batches/batch-1/evidence.json`]: bad }), paths);
      expect(view.draft_review, bad.slice(0, 20)).not.toHaveProperty("evidence");
    }
    const fs = vol({ [`${DRAFT}/state.json`]: draftState });
    await fs.mkdir(`${DRAFT}/batches/batch-1/evidence.json`, { recursive: true });
    expect((await gatherReviews(fs, paths)).draft_review).not.toHaveProperty("evidence");
  });

  it("a file of exactly 1 MiB is still read; one byte more is not", async () => {
    const padded = (size: number): string => draftState.slice(0, -1) + " ".repeat(size - draftState.length) + "}";
    expect(padded(1024 * 1024)).toHaveLength(1024 * 1024);
    expect((await gatherReviews(vol({ [`${DRAFT}/state.json`]: padded(1024 * 1024) }), paths)).draft_review).toMatchObject({ phase: "completed" });
    expect((await gatherReviews(vol({ [`${DRAFT}/state.json`]: padded(1024 * 1024 + 1) }), paths)).draft_review).toEqual({ phase: "idle" });
  });
});

describe("lineages", () => {
  it("every visible *.json file of the ledger folder counts, in name order; hidden, other and folder entries do not", async () => {
    const fs = vol({
      [`${USAGE}/recipes/b.json`]: JSON.stringify({ lineage_name: "bee" }),
      [`${USAGE}/recipes/a.json`]: "[1]",
      [`${USAGE}/recipes/.hidden.json`]: "{}",
      [`${USAGE}/recipes/notes.txt`]: "{}",
      [`${USAGE}/recipes/dir.json/x`]: "{}",
    });
    const view = await gatherReviews(reversed(fs), paths);
    expect(view.lineage_count).toBe(2);
    // a.json holds no object: its name comes from the file's
    expect(view.lineages).toEqual([{ name: "a" }, { name: "bee" }]);
  });
});

describe("the tool review's part", () => {
  const base = { [`${TOOL}/state.json`]: toolState, [`${TOOL}/reviews/review-1/activated.json`]: activated };
  const evidenceOf = async (fs: FileSystem) => ((await gatherReviews(fs, paths)).tool_review as { evidence?: { lineage_phase: string } }).evidence;

  it("an activation record with no activation journal waiting: its lineages are committed", async () => {
    const view = await gatherReviews(vol(base), paths);
    expect(view.tool_review).toEqual({
      phase: "completed",
      review_id: "review-1",
      tools: 6,
      attempts: 1,
      processing_attempts: 0,
      updated_at: "2026-01-01T00:00:00.000Z",
      evidence: { actions: { keep: 6 }, activated_at: "2026-01-02T00:00:00.000Z", lineage_phase: "committed" },
    });
  });

  it("an activation journal waiting in the ledger store's journal folder makes them pending, its kind spaced or not", async () => {
    for (const space of ["", " ", "\n  "]) {
      expect(await evidenceOf(vol({ ...base, [`${USAGE}/journal/1.journal.json`]: journal("tool-review-activation", space) }))).toMatchObject({ lineage_phase: "pending" });
    }
  });

  it("other journals, files not named *.journal.json, folders, and a kind past the first 1024 bytes do not", async () => {
    const other = await evidenceOf(
      vol({
        ...base,
        [`${USAGE}/journal/1.journal.json`]: journal("draft-review"),
        [`${USAGE}/journal/2.json`]: journal("tool-review-activation"),
        [`${USAGE}/journal/3.journal.json/x`]: journal("tool-review-activation"),
        [`${USAGE}/journal/4.journal.json`]: `{"pad":"${" ".repeat(1024)}","kind":"tool-review-activation"}`,
      }),
    );
    expect(other).toMatchObject({ lineage_phase: "committed" });
  });

  it("only the first 100 journals by name are looked at", async () => {
    const files: Record<string, string> = { ...base };
    for (let i = 0; i < 100; i++) files[`${USAGE}/journal/${String(i).padStart(3, "0")}.journal.json`] = journal("draft-review");
    files[`${USAGE}/journal/100.journal.json`] = journal("tool-review-activation");
    expect(await evidenceOf(reversed(vol(files)))).toMatchObject({ lineage_phase: "committed" });
    files[`${USAGE}/journal/000.journal.json`] = journal("tool-review-activation");
    expect(await evidenceOf(reversed(vol(files)))).toMatchObject({ lineage_phase: "pending" });
  });

  it("without an activation record the state alone is shown", async () => {
    const view = await gatherReviews(vol({ [`${TOOL}/state.json`]: toolState, [`${USAGE}/journal/1.journal.json`]: journal("tool-review-activation") }), paths);
    expect(view.tool_review).not.toHaveProperty("evidence");
    expect(view.tool_review).toMatchObject({ phase: "completed", review_id: "review-1" });
  });

  it("revision snapshots: the *.json files in each lineage's ring, over the first 100 rings by name", async () => {
    const files: Record<string, string> = {
      [`${USAGE}/revisions/a/1.json`]: "{}",
      [`${USAGE}/revisions/a/2.json`]: "{}",
      [`${USAGE}/revisions/a/notes.txt`]: "{}",
      [`${USAGE}/revisions/a/sub.json/x`]: "{}",
      [`${USAGE}/revisions/b/1.json`]: "{}",
      [`${USAGE}/revisions/stray.json`]: "{}",
    };
    expect((await gatherReviews(vol(files), paths)).revision_snapshots).toBe(3);
    const many: Record<string, string> = {};
    for (let i = 0; i < 101; i++) many[`${USAGE}/revisions/r${String(i).padStart(3, "0")}/1.json`] = "{}";
    many[`${USAGE}/revisions/r100/2.json`] = "{}";
    many[`${USAGE}/revisions/r000/2.json`] = "{}";
    expect((await gatherReviews(reversed(vol(many)), paths)).revision_snapshots).toBe(101);
    const denied = interceptFs(vol(files), async (name, args, call) => (name === "readdir" && args[0] === `${USAGE}/revisions/a` ? Promise.reject(new Error("EACCES")) : call()));
    // a ring that is there but cannot be listed: the count is not known (not the rings it could read)
    const partial = await gatherReviews(denied, paths);
    expect([partial.revision_snapshots, partial.lineage_count]).toEqual([null, null]);
    expect((partial as { usage_unreadable?: string }).usage_unreadable).toMatch(/^Usage ledgers could not be read: .*revisions\/a: EACCES/);
    // one that is not there counts none
    const gone = interceptFs(vol(files), async (name, args, call) => (name === "readdir" && args[0] === `${USAGE}/revisions/a` ? Promise.reject(toFsError(Object.assign(new Error("ENOENT"), { code: "ENOENT" }), "readdir", String(args[0]))) : call()));
    expect((await gatherReviews(gone, paths)).revision_snapshots).toBe(1);
  });
});
