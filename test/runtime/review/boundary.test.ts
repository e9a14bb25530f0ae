// The portfolio review at a host's safe boundaries, in-process: what activation and an idle
// portfolio cycle return for each reason they skip, and the error they return instead of throwing.
import { describe, expect, it } from "vitest";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { activateAtBoundary, idlePortfolioCycle } from "../../../runtime/review/boundary.js";
import type { ReviewPolicy } from "../../../runtime/review/host.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { approvedVolume, freshVolume, paths, scripted } from "../../../props/support/portfolio-volume.js";

const lock: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const on: ReviewPolicy = { enabled: true, reviewer: scripted, describe: "scripted" };

describe("activation at a boundary", () => {
  it("carries out an approved plan and reports it", async () => {
    const fs = await approvedVolume();
    expect(await activateAtBoundary({ fs, lock, paths })).toMatchObject({ outcome: "activated", reviewId: "review-1" });
  });

  it("with nothing approved there is nothing to do", async () => {
    expect(await activateAtBoundary({ fs: freshVolume(), lock, paths })).toEqual({ outcome: "none", phase: "idle" });
  });

  it("a failure is returned as its message, never thrown; a thrown non-Error as its text", async () => {
    const broken = (thrown: unknown) => interceptFs(freshVolume(), async (name, _args, call) => (name === "readFile" || name === "readAt" ? Promise.reject(thrown) : call()));
    expect(await activateAtBoundary({ fs: broken(new FsError("EACCES", "readFile", "/x", "EACCES: denied")), lock, paths })).toEqual({ error: "EACCES: denied" });
    expect(await activateAtBoundary({ fs: broken("disk gone"), lock, paths })).toEqual({ error: "disk gone" });
  });
});

describe("an idle portfolio cycle", () => {
  it("skips when the policy is off, when there is no reviewer, and while a run is active", async () => {
    const fs = freshVolume();
    expect(await idlePortfolioCycle({ fs, lock, paths }, { ...on, enabled: false }, () => 0)).toEqual({ skipped: "policy_off" });
    expect(await idlePortfolioCycle({ fs, lock, paths }, { enabled: true, describe: "none" }, () => 0)).toEqual({ skipped: "no_reviewer" });
    expect(await idlePortfolioCycle({ fs, lock, paths }, on, async () => 1)).toEqual({ skipped: "runs_active" });
  });

  it("with no run active it runs a cycle: six tools are too few for a portfolio of 36", async () => {
    expect(await idlePortfolioCycle({ fs: freshVolume(), lock, paths }, on, () => 0)).toEqual({ phase: "idle", steps: [], eligible: { eligible: 6, needed: 36 } });
  });

  it("a failure is returned as a skip naming the error", async () => {
    const fs = interceptFs(freshVolume(), async (name, _args, call) => (name === "readdir" ? Promise.reject(new Error("no listing")) : call()));
    expect(await idlePortfolioCycle({ fs, lock, paths }, on, () => 0)).toEqual({ skipped: "error: no listing" });
    const fs2 = interceptFs(freshVolume(), async (name, _args, call) => (name === "readdir" ? Promise.reject("plain") : call()));
    expect(await idlePortfolioCycle({ fs: fs2, lock, paths }, on, () => 0)).toEqual({ skipped: "error: plain" });
  });
});
