// The draft review's context and where its state lives: the defaults a host gets, what reaches
// the usage ledger, and the exact folders and file names of a batch on disk.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger } from "../../../runtime/ledger/index.js";
import { runCycle } from "../../../runtime/review/cycle.js";
import { batchDir, isoNow, openReviews, reviewRoot, statePath } from "../../../runtime/review/review-context.js";
import type { Reviewer } from "../../../runtime/review/reviewer.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const timeouts: Array<number | undefined> = [];
const lock: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn, options) => (timeouts.push(options?.timeoutMs), fn()),
};
const fs = makeMemFileSystem(new Volume());

describe("openReviews", () => {
  it("defaults: the wall clock, random UUIDs, a 5 s lock timeout for the reviews and the ledger, no packaged root", () => {
    const before = Date.now();
    const ctx = openReviews({ fs, lock, paths });
    expect(ctx.now()).toBeGreaterThanOrEqual(before);
    expect(ctx.now()).toBeLessThanOrEqual(Date.now());
    expect(ctx.newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ctx.lockTimeoutMs).toBe(5000);
    expect(ctx.ledger.lockTimeoutMs).toBe(5000);
    expect(ctx.ledger.now).toBe(ctx.now);
    expect("packagedRoot" in ctx).toBe(false);
    expect(ctx.ledger.paths.ledgers).toBe(`${paths.usageRoot}/recipes`);
  });

  it("what the host gives is used, for the ledger too", () => {
    const ctx = openReviews({ fs, lock, paths, now: () => 7, newId: () => "id-1", packagedRoot: "/pkg", lockTimeoutMs: 250 });
    expect([ctx.now(), ctx.newId(), ctx.packagedRoot, ctx.lockTimeoutMs, ctx.ledger.lockTimeoutMs, ctx.ledger.now()]).toEqual([7, "id-1", "/pkg", 250, 250, 7]);
  });

  it("isoNow is the context's clock in ISO 8601", () => {
    expect(isoNow({ now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 6) })).toBe("2026-01-02T03:04:05.006Z");
  });
});

describe("the draft review's files", () => {
  it("live under <usage>/reviews/draft: state.json, and per batch its batch, projection, reply, decisions, journal and evidence (the quarantine is collected)", async () => {
    expect(reviewRoot(paths)).toBe("/agent/recipes/.usage/reviews/draft");
    expect(statePath(paths)).toBe("/agent/recipes/.usage/reviews/draft/state.json");
    expect(batchDir(paths, "b-1")).toBe("/agent/recipes/.usage/reviews/draft/batches/b-1");

    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`${paths.draftRoot}/draft_${String(i).padStart(2, "0")}.json`] = JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` });
    const vol = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    const discardAll: Reviewer = {
      describe: "test",
      review: async (input) => {
        const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { batchId: string; drafts: { draft: string; sha256: string }[] };
        return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions: p.drafts.map((d) => ({ draft: d.draft, sha256: d.sha256, action: "discard", rationale: "r" })) })}`;
      },
    };
    timeouts.length = 0;
    const ctx = openReviews({ fs: vol, lock, paths, now: () => 0, newId: () => "b-1", lockTimeoutMs: 123 });
    try {
      expect((await runCycle(ctx, { reviewer: discardAll })).phase).toBe("completed");
    } finally {
      await closeLedger(ctx.ledger);
    }
    expect(timeouts[0]).toBe(123);
    const names = async (dir: string) => (await vol.readdir(dir)).map((e) => e.name).sort();
    expect(await names(reviewRoot(paths))).toEqual(["batches", "state.json"]);
    expect(await names(batchDir(paths, "b-1"))).toEqual(["batch.json", "decisions.json", "evidence.json", "journal", "projection.json", "reply.txt"]);
  });
});
