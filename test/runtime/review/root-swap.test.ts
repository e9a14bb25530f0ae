// A recipe root swapped between the capture of a portfolio and its activation, or while a
// rollback runs, on real files: the root replaced by a symlink to a copy, a folder above it moved
// behind a symlink, a symlinked folder below it. Activation and rollback write nothing through the
// swapped root and say which root and what it resolves to; once the folder is back, the same plan
// activates. What a user sees is the `pi-recipes activate` text (the verb run in-process).
import { cpSync, existsSync, realpathSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { agentPaths, lockRootOf, type AgentPaths } from "../../../runtime/agent-paths.js";
import { discoverThroughFs } from "../../../runtime/fs-discovery.js";
import { closeLedger, seedLineages } from "../../../runtime/ledger/index.js";
import { withReviews, type ReviewPorts } from "../../../runtime/review/host.js";
import type { ReviewContext } from "../../../runtime/review/review-context.js";
import { readToolState, runPortfolioCycle } from "../../../runtime/review/portfolio-cycle.js";
import { openReviews } from "../../../runtime/review/review-context.js";
import { rollbackTool } from "../../../runtime/review/rollback.js";
import { activateNow } from "../../../runtime/verbs/lifecycle.js";
import { approvedPortfolio, scriptedPortfolioReviewer, thirtySixTools } from "../../support/portfolio.js";

let top: string;
let agent: string;
let paths: AgentPaths;
beforeEach(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), "pi-recipes-root-swap-")));
  agent = join(top, "agent");
  mkdirSync(agent);
  paths = agentPaths({ PI_CODING_AGENT_DIR: agent }, agent);
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

/** the ports a host builds once: the real file system and the recipe root's file lock */
const ports = (): ReviewPorts => {
  const fs = makeNodeFileSystem();
  return { paths, fs, lock: makeFileLock({ fs, lockRoot: lockRootOf(paths.recipeRoot) }) };
};
const withNodeReviews = <A,>(run: (ctx: ReviewContext) => Promise<A>): Promise<A> => withReviews(ports(), run);
const activate = () => activateNow({}, { ...ports(), env: {} });
const recipeFiles = (root: string): string[] => readdirSync(root).filter((n) => n.endsWith(".json")).sort();
const read = (p: string): string => readFileSync(p, "utf8");

/** the recipe root becomes a symlink to a copy of itself (every file the same) */
function swapRootForCopy(): { old: string; copy: string } {
  const root = paths.recipeRoot;
  const copy = join(top, "copy-of-recipes");
  const old = join(top, "old-recipes");
  cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  renameSync(root, old);
  symlinkSync(copy, root);
  return { old, copy };
}

/** the drafts folder becomes a symlink to a folder outside the root; activation is refused,
 *  naming it, and nothing lands outside or moves in the root */
async function activateWithDraftsOutside(): Promise<void> {
  const outside = join(top, "outside");
  mkdirSync(outside);
  rmSync(paths.draftRoot, { recursive: true, force: true });
  symlinkSync(outside, paths.draftRoot);
  const r = await activate();
  expect(r.ok).toBe(false);
  expect(r.text).toContain(`Invalid tool review transaction root: ${paths.draftRoot} is a symlink below the recipe root ${paths.recipeRoot}`);
  expect(readdirSync(outside)).toEqual([]);
  expect(existsSync(join(paths.recipeRoot, "tool_01.json"))).toBe(true);
  expect(existsSync(join(paths.recipeRoot, "renamed_tool.json"))).toBe(false);
}

describe("activation refuses a swapped recipe root (G41)", () => {
  it("a root swapped for a symlink to a copy after approval: nothing moves in either folder, the error names the root; restored, the plan activates", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    const files = recipeFiles(paths.recipeRoot);
    const { old, copy } = swapRootForCopy();
    const r = await activate();
    expect(r.ok).toBe(false);
    expect(r.text).toContain("activation outcome=failed phase=processing_failed");
    expect(r.text).toContain(`last_error: Invalid tool review transaction root: ${paths.recipeRoot} (it resolves to ${copy} now; the portfolio was captured in ${paths.recipeRoot})`);
    expect(r.text).toContain("review.retry");
    for (const dir of [old, copy]) {
      expect(recipeFiles(dir)).toEqual(files);
      expect(existsSync(join(dir, "renamed_tool.json"))).toBe(false);
      expect(existsSync(join(dir, "drafts", "tool_01.json"))).toBe(false);
      // no lineage moved either
      expect(existsSync(join(dir, ".usage", "recipes", "renamed_tool.json"))).toBe(false);
    }
    // the folder back where it was: its own state still says approved, and the plan activates
    rmSync(paths.recipeRoot);
    renameSync(old, paths.recipeRoot);
    const again = await activate();
    expect(again.text).toContain("activation outcome=activated phase=completed");
    expect(existsSync(join(paths.recipeRoot, "renamed_tool.json"))).toBe(true);
    expect(existsSync(join(paths.recipeRoot, "tool_00.json"))).toBe(false);
  });

  it("a folder above the root moved behind a symlink (the root's path components change): refused the same way", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    const moved = join(top, "agent-moved");
    renameSync(agent, moved);
    symlinkSync(moved, agent);
    const r = await activate();
    expect(r.ok).toBe(false);
    expect(r.text).toContain(`Invalid tool review transaction root: ${paths.recipeRoot} (it resolves to ${join(moved, "recipes")} now; the portfolio was captured in ${paths.recipeRoot})`);
    expect(existsSync(join(moved, "recipes", "tool_00.json"))).toBe(true);
    expect(existsSync(join(moved, "recipes", "renamed_tool.json"))).toBe(false);
  });

  it("a recipe root that was a symlink at capture and still resolves to the same folder activates", async () => {
    const real = join(top, "dotfiles-recipes");
    mkdirSync(real);
    symlinkSync(real, paths.recipeRoot);
    expect(await approvedPortfolio(agent)).toBe("approved");
    const r = await activate();
    expect(r.text).toContain("activation outcome=activated");
    expect(existsSync(join(real, "renamed_tool.json"))).toBe(true);
  });

  it("a drafts folder swapped for a symlink to a folder outside the root: the demotion is refused and nothing lands outside", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    await activateWithDraftsOutside();
  });

  it("an activation a crash interrupted, its drafts folder swapped for a symlink before the next run: the journal is not replayed through it, nothing lands outside", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    // the process dies right after its activation journal is on disk: every later call fails
    const real = makeNodeFileSystem();
    const journalDir = join(paths.recipeRoot, ".usage", "journal");
    let dead = false;
    const dying = new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (dead) throw new Error("the process is gone");
          const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (key === "rename" && String(args[1]).startsWith(journalDir + "/") && String(args[1]).endsWith(".journal.json")) dead = true;
          return out;
        };
      },
    }) as FileSystem;
    const crashed = await activateNow({}, { paths, fs: dying, lock: makeFileLock({ fs: real, lockRoot: lockRootOf(paths.recipeRoot) }), env: {} }).catch((e: unknown) => e);
    expect(dead).toBe(true);
    expect(crashed).toBeDefined();
    const journals = readdirSync(journalDir).filter((n) => n.endsWith(".journal.json"));
    expect(journals).toHaveLength(1);
    // before the next run, someone puts the drafts folder behind a symlink to a folder outside;
    // the interrupted plan is kept aside unreplayed, and nothing goes through the symlink
    await activateWithDraftsOutside();
    expect(readdirSync(journalDir).filter((n) => n.endsWith(".journal.json"))).toEqual([]);
    expect(readdirSync(journalDir).filter((n) => n.includes(".quarantined"))).toEqual([`${journals[0]}.quarantined`]);
  });

  it("a root swapped between capture and the reviewer's reply: approval is refused (processing_failed at approval), no plan is written", async () => {
    thirtySixTools(agent);
    const captured = await withNodeReviews(async (ctx) => {
      await seedLineages(ctx.ledger, await discoverThroughFs(ctx.fs, paths));
      return runPortfolioCycle(ctx, { capture: true });
    });
    expect(captured.phase).toBe("captured");
    const { copy } = swapRootForCopy();
    const r = await withNodeReviews((ctx) => runPortfolioCycle(ctx, { reviewer: scriptedPortfolioReviewer }));
    expect(r).toMatchObject({ phase: "processing_failed", error: `Invalid tool review transaction root: ${paths.recipeRoot} (it resolves to ${copy} now; the portfolio was captured in ${paths.recipeRoot})` });
    expect(await withNodeReviews(readToolState)).toMatchObject({ failedStage: "approval" });
    expect(existsSync(join(copy, ".usage", "reviews", "tool", "reviews", captured.reviewId!, "approved.json"))).toBe(false);
  });
});

describe("rollback refuses a swapped recipe root", () => {
  /** activated, then renamed_tool edited (revision 2): a rollback to revision 1 has work to do */
  async function activatedAndEdited(): Promise<string> {
    expect(await approvedPortfolio(agent)).toBe("approved");
    expect((await activate()).ok).toBe(true);
    const edited = `${JSON.stringify({ description: "Tool 0", template: "printf edited" })}\n`;
    writeFileSync(join(paths.recipeRoot, "renamed_tool.json"), edited);
    await withNodeReviews(async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(ctx.fs, paths))));
    return edited;
  }

  it("a root swapped for a symlink while the rollback reads its snapshot: nothing is written in either folder", async () => {
    const edited = await activatedAndEdited();
    const ledgerBefore = read(join(paths.usageRoot, "recipes", "renamed_tool.json"));
    const node = makeNodeFileSystem();
    let swapped: { old: string; copy: string } | undefined;
    const fs: FileSystem = new Proxy(node, {
      get: (target, p) =>
        p === "readFile"
          ? async (path: string) => {
              if (swapped === undefined && path.endsWith("/revisions/renamed_tool/1.json")) swapped = swapRootForCopy();
              return target.readFile(path);
            }
          : Reflect.get(target, p),
    });
    const ctx = openReviews({ fs, lock: makeFileLock({ fs: node, lockRoot: lockRootOf(paths.recipeRoot) }), paths });
    const r = await rollbackTool(ctx, "renamed_tool", 1).finally(() => closeLedger(ctx.ledger));
    expect(swapped).toBeDefined();
    expect(r).toEqual({ ok: false, error: `Invalid recipe revision rollback root: ${paths.recipeRoot} (it resolves to ${swapped!.copy} now; the rollback began in ${paths.recipeRoot})` });
    for (const dir of [swapped!.old, swapped!.copy]) {
      expect(read(join(dir, "renamed_tool.json"))).toBe(edited);
      expect(read(join(dir, ".usage", "recipes", "renamed_tool.json"))).toBe(ledgerBefore);
    }
  });

  it("a revision ring behind a symlinked folder below the root is refused, naming the folder", async () => {
    const edited = await activatedAndEdited();
    const revisions = join(paths.usageRoot, "revisions");
    const elsewhere = join(top, "revisions-elsewhere");
    renameSync(revisions, elsewhere);
    symlinkSync(elsewhere, revisions);
    const r = await withNodeReviews((ctx) => rollbackTool(ctx, "renamed_tool", 1));
    expect(r).toEqual({ ok: false, error: `Invalid recipe revision rollback root: ${revisions} is a symlink below the recipe root ${paths.recipeRoot}; only the root's own folders are written` });
    expect(read(join(paths.recipeRoot, "renamed_tool.json"))).toBe(edited);
    // the same ring as a real folder again: the rollback goes through
    rmSync(revisions);
    renameSync(elsewhere, revisions);
    expect(await withNodeReviews((ctx) => rollbackTool(ctx, "renamed_tool", 1))).toMatchObject({ ok: true, restored_revision: 1, changed: true });
  });
});
