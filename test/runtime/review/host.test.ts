// What a host gets for drafts and automatic reviews, in-process on an in-memory volume: the draft
// capturer, the policy (switch, reviewer and its description), the idle draft cycle's skips and
// errors, and review.retry / review.reset as a message delivers them.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { draftCapturer, idleCycle, reviewControlFor, reviewPolicy, withReviews, type ReviewPolicy } from "../../../runtime/review/host.js";
import { statePath } from "../../../runtime/review/review-context.js";
import { toolStatePath } from "../../../runtime/review/portfolio-cycle.js";
import { scriptedReviewer } from "../../../runtime/review/reviewer.js";
import { interceptFs } from "../../support/intercept-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const lock: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const vol = (files: Record<string, string> = {}): FileSystem => makeMemFileSystem(Volume.fromJSON(files) as Volume);
const reviewer = scriptedReviewer("REPLY", "test");
const on: ReviewPolicy = { enabled: true, reviewer, describe: reviewer.describe };
const failedDraft = JSON.stringify({ phase: "failed", batchId: "batch-1", batchSha256: "b".repeat(64), sources: [], attempts: 3, updatedAt: "2026-01-01T00:00:00.000Z" });
const failedTool = JSON.stringify({ phase: "failed", reviewId: "review-1", portfolioSha256: "p".repeat(64), tools: 36, attempts: 3, updatedAt: "2026-01-01T00:00:00.000Z" });

describe("draftCapturer", () => {
  it("writes the draft into the draft folder under its run id, or spawn-<now> without one", async () => {
    const fs = vol();
    const capture = draftCapturer({ fs, lock, paths });
    expect(await capture({ template: "echo hi", values: {}, runId: "run-1" })).toMatchObject({ captured: true, path: `${paths.draftRoot}/run-1.json` });
    const before = Date.now();
    const second = await capture({ template: "echo there", values: {} });
    const at = Number(/spawn-(\d+)\.json$/.exec((second as { path: string }).path)?.[1]);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect((await fs.readdir(paths.draftRoot)).map((e) => e.name).sort()).toEqual(["run-1.json", `spawn-${at}.json`]);
  });
});

describe("reviewPolicy", () => {
  it("the environment's reviewer wins over the host's; the host's serves when the environment has none", () => {
    expect(reviewPolicy({ PI_RECIPES_REVIEWER: "env-model" }, reviewer).describe).toBe("command:env-model");
    expect(reviewPolicy({}, reviewer)).toStrictEqual({ enabled: true, describe: "scripted: test", reviewer });
  });

  it("without any reviewer the policy has none and says how to set one", () => {
    expect(reviewPolicy({ PI_ACTORS_AUTOMATIC_REVIEW: "off" })).toStrictEqual({
      enabled: false,
      describe: "none (set PI_RECIPES_REVIEWER to a reviewer command; nothing is scheduled)",
    });
  });
});

describe("withReviews", () => {
  it("opens the context over the host's ports, its packaged root included only when it has one", async () => {
    const fs = vol();
    expect(await withReviews({ fs, lock, paths, packagedRoot: "/pkg" }, async (ctx) => [ctx.fs === fs, ctx.paths, ctx.packagedRoot])).toEqual([true, paths, "/pkg"]);
    expect(await withReviews({ fs, lock, paths, packagedRoot: undefined }, async (ctx) => "packagedRoot" in ctx)).toBe(false);
  });

  it("closes the ledger's launch log when the run ends, even when it fails", async () => {
    const handles = { opened: 0, closed: 0 };
    const fs = interceptFs(vol(), async (name, _args, call) => {
      if (name !== "open") return call();
      // counted once opened: the first log's open fails until its folder is made
      const h = (await call()) as { close(): Promise<void> };
      handles.opened++;
      return interceptFs(h, async (m, _a, c) => ((m === "close" && handles.closed++), c()));
    });
    await withReviews({ fs, lock, paths }, async (ctx) => void (await ctx.ledger.log.append({ k: "test" })));
    await expect(withReviews({ fs, lock, paths }, async (ctx) => (await ctx.ledger.log.append({ k: "test" }), Promise.reject(new Error("run failed"))))).rejects.toThrow("run failed");
    expect(handles).toEqual({ opened: 2, closed: 2 });
  });
});

describe("idleCycle", () => {
  it("skips when the policy is off, with no reviewer, and while a run is active; runs with none active", async () => {
    const fs = vol();
    expect(await idleCycle({ fs, lock, paths }, { ...on, enabled: false }, () => 0)).toEqual({ skipped: "policy_off" });
    expect(await idleCycle({ fs, lock, paths }, { enabled: true, describe: "none" }, () => 0)).toEqual({ skipped: "no_reviewer" });
    expect(await idleCycle({ fs, lock, paths }, on, async () => 1)).toEqual({ skipped: "runs_active" });
    expect(await idleCycle({ fs, lock, paths }, on, () => 0)).toMatchObject({ phase: "idle" });
  });

  it("a failure is returned as a skip naming the error, an Error's message or a thrown value's text", async () => {
    const failing = (thrown: unknown) => interceptFs(vol(), async (name, _args, call) => (name === "readdir" ? Promise.reject(thrown) : call()));
    expect(await idleCycle({ fs: failing(new Error("no listing")), lock, paths }, on, () => 0)).toEqual({ skipped: "error: no listing" });
    expect(await idleCycle({ fs: failing("plain"), lock, paths }, on, () => 0)).toEqual({ skipped: "error: plain" });
  });
});

describe("reviewControlFor", () => {
  it("routes each scope to its own review and shows the outcome without the next state", async () => {
    const fs = vol({ [statePath(paths)]: failedDraft, [toolStatePath(paths)]: failedTool });
    const control = reviewControlFor({ fs, lock, paths });
    expect(await control("review.reset", "draft")).toStrictEqual({ action: "review.reset", scope: "draft", changed: true, phase: "idle", previous_phase: "failed" });
    expect(await fs.lstat(statePath(paths)).then(() => true, () => false)).toBe(false);
    expect(await fs.lstat(toolStatePath(paths)).then(() => true, () => false)).toBe(true);
    expect(await control("review.retry", "tool")).toMatchObject({ action: "review.retry", scope: "tool", changed: true, previous_phase: "failed" });
    expect(await control("review.retry", "draft")).toStrictEqual({ action: "review.retry", scope: "draft", changed: false, phase: "idle", reason: "review_state_unavailable" });
  });

  it("calls the host back after a change only, and a failing callback costs nothing", async () => {
    const fs = vol({ [statePath(paths)]: failedDraft });
    let calls = 0;
    const control = reviewControlFor({ fs, lock, paths }, async () => {
      calls++;
      throw new Error("reload failed");
    });
    expect(await control("review.retry", "tool")).toMatchObject({ changed: false });
    expect(calls).toBe(0);
    expect(await control("review.retry", "draft")).toMatchObject({ changed: true, phase: "captured" });
    expect(calls).toBe(1);
  });
});
