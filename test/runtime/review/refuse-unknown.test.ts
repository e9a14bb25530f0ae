// The draft review refuses what it does not know, at both ends: validation rejects an action other
// than promote or discard, and the executor refuses a written plan naming one (it never reads an
// unknown action as a promotion), so a draft that may not be promoted never becomes a tool.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { captureBatch, type DraftCandidate } from "../../../core/review/batch.js";
import { validateDecisions } from "../../../core/review/decide.js";
import { contentGroupOf } from "../../../core/review/projection.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger } from "../../../runtime/ledger/index.js";
import { batchDir, openReviews, statePath } from "../../../runtime/review/review-context.js";
import { readState, runCycle } from "../../../runtime/review/cycle.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const draftPath = (i: number): string => `${paths.draftRoot}/draft_${String(i).padStart(2, "0")}.json`;
/** draft_00 reads a temporary path: it may only be discarded */
const draftText = (i: number): string => JSON.stringify({ template: i === 0 ? "cat /tmp/x" : `echo ${i}` });

function volume(): MemFileSystem {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[draftPath(i)] = draftText(i);
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

const exists = async (fs: FileSystem, p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);
const text = async (fs: FileSystem, p: string): Promise<string> => new TextDecoder().decode(await fs.readFile(p));
const tools = async (fs: FileSystem): Promise<string[]> =>
  (await fs.readdir(paths.recipeRoot)).filter((e) => e.kind === "file" && e.name.endsWith(".json")).map((e) => e.name);

/** answers `action` for the first draft (with a target) and discards the rest */
const answering = (action: string): Reviewer => ({
  describe: "test",
  review: async (input) => {
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { batchId: string; drafts: { draft: string; sha256: string }[] };
    const decisions = p.drafts.map((d, i) => ({ draft: d.draft, sha256: d.sha256, action: i === 0 ? action : "discard", rationale: "r", ...(i === 0 ? { target: "sneaky_tool" } : {}) }));
    return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions })}`;
  },
});

async function cycle(fs: FileSystem, options: Parameters<typeof runCycle>[1]) {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => "batch-1" });
  try {
    return await runCycle(ctx, options);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

describe("validation refuses actions it does not know", () => {
  const drafts: DraftCandidate[] = Array.from({ length: 12 }, (_, i) => ({
    path: draftPath(i),
    stem: `draft_${String(i).padStart(2, "0")}`,
    sha256: `sha${i}`,
    valid: true,
    riskLabels: [],
    recipe: JSON.parse(draftText(i)),
  }));
  const batch = captureBatch(drafts, [], "b-1", "t")!;

  it.each(["keep", "merge", "adopt", "Promote", 7, null])("action %j is an error, listed with the others", (action) => {
    const decisions = batch.drafts.map((d, i) => ({ draft: d.occurrence, sha256: contentGroupOf(batch, d), action: i < 2 ? action : "discard", rationale: "r" }));
    const r = validateDecisions(batch, { batchId: "b-1", decisions });
    expect(E.isLeft(r) && r.left).toEqual(["invalid review action: draft_01", "invalid review action: draft_02"]);
  });
});

describe("a cycle never promotes on an unknown action", () => {
  it.each(["keep", "adopt"])("a reply answering %s for an unpromotable draft fails validation; the draft stays, no tool appears", async (action) => {
    const fs = volume();
    const report = await cycle(fs, { reviewer: answering(action) });
    expect(report).toMatchObject({ phase: "failed", error: "invalid review action: draft_01" });
    expect(await text(fs, draftPath(0))).toBe(draftText(0));
    expect(await exists(fs, `${paths.recipeRoot}/sneaky_tool.json`)).toBe(false);
  });

  it.each(["merge", "keep", undefined])("the executor refuses a written plan whose item says %j: nothing moves, the batch waits as processing_failed", async (action) => {
    const fs = volume();
    expect((await cycle(fs, { reviewer: answering("promote") })).phase).toBe("failed"); // draft_00 is unpromotable
    // write the plan a faulty validation would have written, then let the executor at it
    const content = `${JSON.stringify(JSON.parse(draftText(0)), null, 2)}\n`;
    const { sha256Hex } = await import("../../../core/ledger/sha256.js");
    const items = Array.from({ length: 12 }, (_, i) => ({
      position: i + 1,
      action: i === 0 ? action : "discard",
      source: draftPath(i),
      sha256: "",
      quarantine: `${String(i + 1).padStart(4, "0")}-draft_${String(i).padStart(2, "0")}.json`,
      rationale: "r",
      ...(i === 0 ? { target: { name: "sneaky_tool", path: `${paths.recipeRoot}/sneaky_tool.json`, content, sha256: sha256Hex(content) } } : {}),
    }));
    const { sha256Bytes } = await import("../../../runtime/ledger/index.js");
    for (const item of items) item.sha256 = sha256Bytes(await fs.readFile(item.source));
    const dir = batchDir(paths, "batch-1");
    await fs.writeFile(`${dir}/decisions.json`, JSON.stringify({ batchId: "batch-1", items }));
    const state = JSON.parse(await text(fs, statePath(paths)));
    await fs.writeFile(statePath(paths), JSON.stringify({ ...state, phase: "executing" }));

    const report = await cycle(fs, {});
    expect(report.phase).toBe("processing_failed");
    expect(report.error).toMatch(/^Draft review plan refused: unknown plan action at item 1/);
    for (let i = 0; i < 12; i++) expect(await text(fs, draftPath(i))).toBe(draftText(i));
    expect(await tools(fs)).toEqual([]);
    const ctx = openReviews({ fs, lock: inProcess, paths });
    expect(await readState(ctx)).toMatchObject({ phase: "processing_failed", failedStage: "transaction" });
    await closeLedger(ctx.ledger);
  });
});
