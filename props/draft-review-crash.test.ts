// The automatic draft review killed at every file operation of capture, review and execution,
// and its recovery killed again at every operation of its own: after a restart every reviewed
// draft is either still a draft or decided (promoted into a complete tool, or discarded), never
// both and never lost; a promoted tool is complete or absent; recovery run twice changes nothing;
// and the next cycle completes the batch.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { agentPaths } from "../runtime/agent-paths.js";
import { openReviews } from "../runtime/review/review-context.js";
import { readState, runCycle } from "../runtime/review/cycle.js";
import type { Reviewer } from "../runtime/review/reviewer.js";
import { closeLedger } from "../runtime/ledger/index.js";
import { exploreCrashes, makeCrashingFileSystem, recoverView } from "./support/crash-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const ROOT = paths.recipeRoot;
const DRAFTS = paths.draftRoot;

// Crashing the recovery at each of its operations after each crash of the execution is ~2.5 min
// of CPU; by default every fifth execution crash point gets the nested exploration.
const FULL = process.env["PROPS_FULL"] === "1";

const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};

const draftText = (i: number): string => `${JSON.stringify({ description: `Draft ${i}`, template: `echo ${i}` }, null, 2)}\n`;
const DRAFT_NAMES = Array.from({ length: 13 }, (_, i) => (i === 1 ? "draft_01 My-Draft.json" : `draft_${String(i).padStart(2, "0")}.json`));

function seed(): MemFileSystem {
  const files: Record<string, string> = { [`${ROOT}/existing.json`]: JSON.stringify({ description: "Existing", template: "echo existing" }) };
  DRAFT_NAMES.forEach((n, i) => (files[`${DRAFTS}/${n}`] = draftText(i)));
  return makeMemFileSystem(Volume.fromJSON(files) as Volume);
}

/** promotes the first two drafts (the first under a hyphenated, capitalised name), discards the rest */
export const scripted: Reviewer = {
  describe: "scripted",
  review: async (input) => {
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { batchId: string; drafts: { draft: string; sha256: string; usage: { lifetime_calls: number } }[] };
    const decisions = p.drafts.map((d, i) => ({
      draft: d.draft,
      sha256: d.sha256,
      action: i < 2 ? "promote" : "discard",
      rationale: "scripted",
      assessment: { launches: d.usage.lifetime_calls },
      ...(i === 0 ? { target: "Kept-Tool" } : {}),
    }));
    return `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: p.batchId, decisions })}`;
  },
};

async function cycle(fs: FileSystem, reviewer?: Reviewer): Promise<void> {
  let n = 0;
  const ctx = openReviews({ fs, lock: inProcess, paths, now: () => Date.UTC(2026, 0, 1), newId: () => `batch-${++n}` });
  try {
    await runCycle(ctx, reviewer === undefined ? {} : { reviewer });
  } finally {
    await closeLedger(ctx.ledger);
  }
}

async function text(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await fs.readFile(path));
  } catch {
    return undefined;
  }
}

async function quarantined(fs: FileSystem): Promise<string[]> {
  const out: string[] = [];
  const batches = `${paths.usageRoot}/reviews/draft/batches`;
  for (const b of await fs.readdir(batches).catch(() => [])) {
    for (const q of await fs.readdir(`${batches}/${b.name}/quarantine`).catch(() => [])) out.push((await text(fs, `${batches}/${b.name}/quarantine/${q.name}`))!);
  }
  return out;
}

const PROMOTED: Record<string, number> = { "Kept-Tool": 0, "draft_01_My-Draft": 1 };

async function checkSettled(fs: FileSystem): Promise<"untouched" | "completed"> {
  const q = await quarantined(fs);
  let present = 0;
  for (const [i, name] of DRAFT_NAMES.entries()) {
    const at = await text(fs, `${DRAFTS}/${name}`);
    const copies = q.filter((c) => c === draftText(i)).length;
    // never at two places
    expect((at === draftText(i) ? 1 : 0) + copies).toBeLessThanOrEqual(1);
    if (at !== undefined) {
      expect(at).toBe(draftText(i));
      present++;
    }
  }
  const tools = await Promise.all(Object.keys(PROMOTED).map((t) => text(fs, `${ROOT}/${t}.json`)));
  for (const [j, t] of tools.entries()) if (t !== undefined) expect(JSON.parse(t)).toEqual(JSON.parse(draftText(Object.values(PROMOTED)[j]!)));
  if (present === 13) return "untouched";
  // otherwise the batch finished: the twelve reviewed are decided, the tools complete, the 13th waits
  expect(present).toBe(1);
  expect(tools.every((t) => t !== undefined)).toBe(true);
  return "completed";
}

describe("draft review under crashes", () => {
  it(
    "a crash at every operation of a whole cycle (capture, review, execution) converges after a restart",
    async () => {
      let outcomes = new Set<string>();
      const n = await exploreCrashes({
        setup: seed,
        seed: 7,
        run: (fs) => cycle(fs, scripted),
        recover: (fs) => cycle(fs),
        nested: false,
        check: async (view) => {
          outcomes.add(await checkSettled(view));
          // the next cycle (with a reviewer) always finishes a batch
          await cycle(view, scripted);
          expect(await checkSettled(view)).toBe("completed");
          const ctx = openReviews({ fs: view, lock: inProcess, paths });
          expect((await readState(ctx))?.phase).toBe("completed");
          await closeLedger(ctx.ledger);
        },
      });
      expect(n).toBeGreaterThan(30);
      expect([...outcomes].sort()).toEqual(["completed", "untouched"]);
    },
    600_000,
  );

  it(
    "execution and its recovery crashed at every operation, recovery itself crashed at every operation",
    async () => {
      // the volume right when the reviewed batch starts executing: run a cycle and stop it at the
      // first operation after the admission state says `executing`
      const full = makeCrashingFileSystem(seed(), { crashAt: Infinity });
      await cycle(full, scripted);
      const at = full.trace.findIndex((l) => l.includes("decisions.json"));
      const executingAt = full.trace.findIndex((l, i) => i > at && l.startsWith("rename") && l.endsWith("/reviews/draft/state.json"));
      expect(executingAt).toBeGreaterThan(0);
      const executing = async (): Promise<MemFileSystem> => {
        const inner = seed();
        const fs = makeCrashingFileSystem(inner, { crashAt: executingAt + 2 });
        await cycle(fs, scripted).catch(() => undefined);
        await fs.crash();
        return recoverView(inner);
      };
      const probe = await executing();
      const ctx = openReviews({ fs: probe, lock: inProcess, paths });
      expect((await readState(ctx))?.phase).toBe("executing");
      await closeLedger(ctx.ledger);
      const n = await exploreCrashes({
        setup: executing,
        seed: 11,
        run: (fs) => cycle(fs),
        recover: (fs) => cycle(fs),
        nested: FULL,
        check: async (view) => {
          expect(await checkSettled(view)).toBe("completed");
          const c = openReviews({ fs: view, lock: inProcess, paths });
          expect((await readState(c))?.phase).toBe("completed");
          await closeLedger(c.ledger);
        },
      });
      expect(n).toBeGreaterThan(20);
      if (FULL) return;
      // a sample of the execution's crash points, each recovered by a recovery crashed at every
      // one of its operations (and that recovery's own recovery run to the end, then twice)
      for (let k = 3; k < n; k += 19) {
        const crashedAt = async (): Promise<MemFileSystem> => {
          const inner = await executing();
          const fs = makeCrashingFileSystem(inner, { crashAt: k, seed: 11 + k });
          await cycle(fs).catch(() => undefined);
          await fs.crash();
          return recoverView(inner);
        };
        await exploreCrashes({
          setup: crashedAt,
          seed: 13 + k,
          run: (fs) => cycle(fs),
          recover: (fs) => cycle(fs),
          nested: false,
          check: async (view) => expect(await checkSettled(view)).toBe("completed"),
        });
      }
    },
    600_000,
  );
});
