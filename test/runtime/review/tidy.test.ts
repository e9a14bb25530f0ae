// Housekeeping of the draft review folders on an in-memory volume: which temps are swept, which
// batch folders are pruned (the newest five and every unfinished or current one stay), what is
// made durable, and what the cycle is told.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { closeLedger } from "../../../runtime/ledger/index.js";
import { openReviews, reviewRoot } from "../../../runtime/review/review-context.js";
import { KEEP_BATCHES, tidyReviews } from "../../../runtime/review/tidy.js";
import { interceptFs } from "../../support/intercept-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const lock: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const ROOT = reviewRoot(paths);
const BATCHES = `${ROOT}/batches`;
const done = JSON.stringify({ garbageCollection: { status: "completed" } });

async function tidy(fs: FileSystem, current?: string): Promise<string[]> {
  const ctx = openReviews({ fs, lock, paths });
  try {
    return await tidyReviews(ctx, current);
  } finally {
    await closeLedger(ctx.ledger);
  }
}
const names = async (fs: FileSystem, dir: string): Promise<string[]> => (await fs.readdir(dir)).map((e) => e.name).sort();
/** a batch folder: its batch.json with `createdAt` (or bad JSON), its evidence (null: none) */
function batch(files: Record<string, string>, id: string, createdAt: string | undefined, evidence: string | null = done): void {
  files[`${BATCHES}/${id}/batch.json`] = createdAt === undefined ? "{nope" : JSON.stringify({ createdAt });
  if (evidence !== null) files[`${BATCHES}/${id}/evidence.json`] = evidence;
}
const day = (n: number): string => `2026-01-${String(n).padStart(2, "0")}T00:00:00.000Z`;
/** logs every fsyncDir */
function logging(fs: FileSystem, synced: string[]): FileSystem {
  return interceptFs(fs, async (name, args, call) => ((name === "fsyncDir" && synced.push(String(args[0]))), call()));
}

describe("tidyReviews", () => {
  it("with no review folder yet it does nothing", async () => {
    expect(KEEP_BATCHES).toBe(5);
    expect(await tidy(makeMemFileSystem(new Volume()))).toEqual([]);
  });

  it("sweeps *.tmp files of the review folder and of each batch, durably; nothing else", async () => {
    const fs = makeMemFileSystem(
      Volume.fromJSON({
        [`${ROOT}/.state.json.1.tmp`]: "x",
        [`${ROOT}/state.json`]: "{}",
        [`${ROOT}/notes.tmp.txt`]: "x",
        [`${ROOT}/dir.tmp/keep`]: "x",
        [`${BATCHES}/b-1/.batch.json.2.tmp`]: "x",
        [`${BATCHES}/b-1/batch.json`]: JSON.stringify({ createdAt: day(1) }),
        [`${BATCHES}/b-2/batch.json`]: JSON.stringify({ createdAt: day(2) }),
      }) as Volume,
    );
    const synced: string[] = [];
    expect(await tidy(logging(fs, synced))).toEqual(["swept"]);
    expect(await names(fs, ROOT)).toEqual(["batches", "dir.tmp", "notes.tmp.txt", "state.json"]);
    expect(await names(fs, `${BATCHES}/b-1`)).toEqual(["batch.json"]);
    expect(synced).toEqual([ROOT, `${BATCHES}/b-1`]);
  });

  it("a temp only in a batch is swept too", async () => {
    const fs = makeMemFileSystem(Volume.fromJSON({ [`${BATCHES}/b-1/x.tmp`]: "x", [`${BATCHES}/b-1/batch.json`]: "{}" }) as Volume);
    expect(await tidy(fs)).toEqual(["swept"]);
    expect(await names(fs, `${BATCHES}/b-1`)).toEqual(["batch.json"]);
  });

  it("keeps the newest five batches and prunes older finished ones, durably", async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 7; i++) batch(files, `b-${i}`, day(i));
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    const synced: string[] = [];
    expect(await tidy(logging(fs, synced))).toEqual(["pruned"]);
    expect(await names(fs, BATCHES)).toEqual(["b-3", "b-4", "b-5", "b-6", "b-7"]);
    expect(synced).toEqual([BATCHES]);
  });

  it("five or fewer batches are all kept, and nothing is made durable", async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 5; i++) batch(files, `b-${i}`, day(i));
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    const synced: string[] = [];
    expect(await tidy(logging(fs, synced))).toEqual([]);
    expect(await names(fs, BATCHES)).toEqual(["b-1", "b-2", "b-3", "b-4", "b-5"]);
    expect(synced).toEqual([]);
  });

  it("an old batch stays when it is not finished (no evidence, evidence not completed, unreadable) or is the current one", async () => {
    const files: Record<string, string> = {};
    for (let i = 5; i <= 9; i++) batch(files, `new-${i}`, day(i));
    batch(files, "no-evidence", day(1), null);
    batch(files, "collecting", day(1), JSON.stringify({ garbageCollection: { status: "collecting" } }));
    batch(files, "no-collection", day(1), JSON.stringify({ actions: {} }));
    batch(files, "null-evidence", day(1), "null");
    batch(files, "text-evidence", day(1), '"completed"');
    batch(files, "bad-evidence", day(1), "{nope");
    batch(files, "current", day(1));
    batch(files, "finished", day(1));
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    expect(await tidy(fs, "current")).toEqual(["pruned"]);
    expect(await names(fs, BATCHES)).toEqual(["bad-evidence", "collecting", "current", "new-5", "new-6", "new-7", "new-8", "new-9", "no-collection", "no-evidence", "null-evidence", "text-evidence"]);
  });

  it("newest by creation time; on a tie the greater id counts as newer; no readable creation time is the oldest", async () => {
    const files: Record<string, string> = {};
    batch(files, "a", day(3));
    batch(files, "b", day(3));
    batch(files, "c", day(2));
    batch(files, "d", day(4));
    batch(files, "e", day(5));
    batch(files, "unreadable", undefined);
    batch(files, "numeric", undefined);
    files[`${BATCHES}/numeric/batch.json`] = JSON.stringify({ createdAt: 20260109 });
    files[`${BATCHES}/stray-file`] = "x";
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    expect(await tidy(fs)).toEqual(["pruned"]);
    expect(await names(fs, BATCHES)).toEqual(["a", "b", "c", "d", "e", "stray-file"]);
    // with two newer ones the tie straddles the cut: b stays, a goes
    batch(files, "f", day(6));
    batch(files, "g", day(7));
    const fs2 = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    expect(await tidy(fs2)).toEqual(["pruned"]);
    expect(await names(fs2, BATCHES)).toEqual(["b", "d", "e", "f", "g", "stray-file"]);
  });

  it("orders by creation time whatever the ids and the listing order say; a tie goes to the greater id", async () => {
    const files: Record<string, string> = {};
    // ids run against creation time (a is the newest), and e and f tie at the cut
    for (const [id, d] of [["a", 9], ["b", 8], ["c", 7], ["d", 6], ["e", 2], ["f", 2], ["g", 1]] as const) batch(files, id, day(d));
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    // the folder lists its entries in an order of its own (here: reversed)
    const reversed = interceptFs(fs, async (name, args, call) => (name === "readdir" && args[0] === BATCHES ? [...((await call()) as unknown[])].reverse() : call()));
    expect(await tidy(reversed)).toEqual(["pruned"]);
    expect(await names(fs, BATCHES)).toEqual(["a", "b", "c", "d", "f"]);
  });

  it("a symlink among the batches is no batch: nothing is swept or pruned through it", async () => {
    const files: Record<string, string> = { "/elsewhere/keep.tmp": "x", "/elsewhere/batch.json": JSON.stringify({ createdAt: day(1) }), "/elsewhere/evidence.json": done };
    for (let i = 2; i <= 7; i++) batch(files, `b-${i}`, day(i));
    const vol = Volume.fromJSON(files) as Volume;
    vol.symlinkSync("/elsewhere", `${BATCHES}/linked`);
    const fs = makeMemFileSystem(vol);
    expect(await tidy(fs)).toEqual(["pruned"]);
    expect(await names(fs, BATCHES)).toEqual(["b-3", "b-4", "b-5", "b-6", "b-7", "linked"]);
    expect(await names(fs, "/elsewhere")).toEqual(["batch.json", "evidence.json", "keep.tmp"]);
  });

  it("a batches path that is a file holds no batches; a folder it cannot list is an error", async () => {
    const fs = makeMemFileSystem(Volume.fromJSON({ [`${ROOT}/batches`]: "x", [`${ROOT}/a.tmp`]: "x" }) as Volume);
    expect(await tidy(fs)).toEqual(["swept"]);
    const denied = interceptFs(makeMemFileSystem(Volume.fromJSON({ [`${BATCHES}/b/batch.json`]: "{}" }) as Volume), async (name, args, call) =>
      name === "readdir" && args[0] === BATCHES ? Promise.reject(new FsError("EACCES", "readdir", BATCHES, "EACCES: readdir")) : call(),
    );
    await expect(tidy(denied)).rejects.toThrow("EACCES: readdir");
  });
});
