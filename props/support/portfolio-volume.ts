// The six-tool portfolio on an in-memory volume that the portfolio crash properties and the
// golden cases share: tool_00 evolves to renamed_tool, tool_01 is demoted, tool_02 and tool_03
// (twins) merge into tool_03, tool_04 and tool_05 are kept (the scripted reviewer of
// test/support/portfolio.ts). Six tools hold one of each decision kind; the code path is the one
// a 36-tool portfolio takes.
import { expect } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../adapters/fs/memfs.js";
import type { Lock } from "../../adapters/lock/Lock.js";
import { agentPaths } from "../../runtime/agent-paths.js";
import { discoverThroughFs } from "../../runtime/fs-discovery.js";
import { closeLedger, seedLineages } from "../../runtime/ledger/index.js";
import { withStore } from "../../runtime/ledger/ledger-store.js";
import { openReviews, type ReviewContext } from "../../runtime/review/review-context.js";
import { runPortfolioCycle } from "../../runtime/review/portfolio-cycle.js";
import { scriptedPortfolioReviewer } from "../../test/support/portfolio.js";

export const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
export const ROOT = paths.recipeRoot;
export const SIZE = 6;
export const scripted = scriptedPortfolioReviewer;

/** one process: the lock never waits */
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};

export const name = (i: number): string => `tool_${String(i).padStart(2, "0")}`;
/** tool_03 is tool_02's twin (canonically identical), so the two can merge */
export const recipeText = (i: number): string => `${JSON.stringify({ description: `Tool ${i === 3 ? 2 : i}`, template: `echo ${i === 3 ? 2 : i}` })}\n`;

export async function withCtx<A>(fs: FileSystem, run: (ctx: ReviewContext) => Promise<A>, id = "review-1"): Promise<A> {
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => id });
  try {
    return await run(ctx);
  } finally {
    await closeLedger(ctx.ledger);
  }
}

/** the six tools, no lineage yet */
export function freshVolume(): MemFileSystem {
  const files: Record<string, string> = {};
  for (let i = 0; i < SIZE; i++) files[`${ROOT}/${name(i)}.json`] = recipeText(i);
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

/** the six tools seeded, `beforeReview` run on them, and the review approved */
export async function approvedVolume(beforeReview?: (fs: MemFileSystem) => Promise<void>): Promise<MemFileSystem> {
  const fs = freshVolume();
  await withCtx(fs, async (ctx) => void (await seedLineages(ctx.ledger, await discoverThroughFs(fs, paths))));
  if (beforeReview !== undefined) await beforeReview(fs);
  expect((await withCtx(fs, (ctx) => runPortfolioCycle(ctx, { reviewer: scripted, portfolioSize: SIZE }))).phase).toBe("approved");
  return fs;
}

export const text = async (fs: FileSystem, p: string): Promise<string | undefined> => fs.readFile(p).then((b) => new TextDecoder().decode(b), () => undefined);

/** the next command of any kind: it opens the ledger store, which settles a pending plan */
export const nextCommand = (fs: FileSystem) => withCtx(fs, (ctx) => withStore(ctx.ledger, async () => undefined));
