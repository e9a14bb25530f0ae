// Two runtime instances on one disk: one launches a recipe and folds, the other renames another
// recipe with its lineage, at the same time, each taking the file lock over its own crashing
// port. The power fails at every mutation of the pair. After a restart: the store is consistent
// (no orphan ledger, no index entry without its ledger, no journal left), each renamed recipe
// is in exactly one place with its lineage, and every launch whose fold was acknowledged is
// still counted (launches not yet folded may be lost: launch logs are not fsynced).
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import * as E from "fp-ts/lib/Either.js";
import { createHash } from "node:crypto";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import type { ProcessProbe } from "../adapters/lock/owner.js";
import { LedgerIndex, LedgerRecord } from "../core/ledger/codec.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { ledgerFileName } from "../core/ledger/keys.js";
import { loadRecipe } from "../core/recipe/load.js";
import { openLedger, type LedgerContext } from "../runtime/ledger/ledger-context.js";
import { foldPending } from "../runtime/ledger/fold-logs.js";
import { recordLaunch, type LaunchInput } from "../runtime/ledger/account-launch.js";
import { renameLineage } from "../runtime/ledger/moves.js";
import { CrashDisk, isSimulatedCrash } from "./support/crash-fs.js";

const ROOT = "/agent/recipes";
const USAGE = `${ROOT}/.usage`;
const LOCKS = "/agent/locks";
const recipe = (cmd: string): string => JSON.stringify({ description: "t", template: cmd });

const alive = new Set<number>();
const probeOf = (pid: number): ProcessProbe => ({
  pid,
  hostname: () => "host",
  bootId: () => "boot",
  startTime: (p) => (alive.has(p) ? "1" : undefined),
  signalZero: (p) => (alive.has(p) ? "exists" : "gone"),
});

/** `unownedGraceMs`: a lock file whose record a power failure lost (the lock writes it without
 *  an fsync) counts as held for this long; the restarted process knows nobody else is alive */
function instance(fs: FileSystem, pid: number, unownedGraceMs?: number): LedgerContext {
  alive.add(pid);
  const probe = probeOf(pid);
  let t = Date.parse("2026-01-01T00:00:00Z") + pid * 1000;
  let token = 0;
  const lock = makeFileLock({ fs, lockRoot: LOCKS, probe, newToken: () => `${pid}-${++token}`, ...(unownedGraceMs === undefined ? {} : { unownedGraceMs }) });
  return openLedger({ fs, lock, recipeRoot: ROOT, probe, now: () => (t += 1), newId: () => String(pid), lockTimeoutMs: 2000, foldThreshold: 1000 });
}

function inputFor(vol: Volume, path: string): LaunchInput {
  const bytes = new Uint8Array(vol.readFileSync(path) as Buffer);
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.json$/, "");
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, name, "json");
  if (E.isLeft(config)) throw new Error(`does not load: ${path}`);
  return { path, name, fingerprint: executableFingerprint(config.right), sourceSha256: createHash("sha256").update(bytes).digest("hex") };
}

function lifetimes(vol: Volume): Record<string, number> {
  const index = JSON.parse(vol.readFileSync(`${USAGE}/index.json`, "utf8") as string) as LedgerIndex;
  expect(E.isRight(LedgerIndex.decode(index))).toBe(true);
  const out: Record<string, number> = {};
  for (const [key, e] of Object.entries(index.paths)) {
    const record = JSON.parse(vol.readFileSync(`${USAGE}/recipes/${ledgerFileName(e.ledger)}`, "utf8") as string) as LedgerRecord;
    expect(E.isRight(LedgerRecord.decode(record)), key).toBe(true);
    expect(record.current_path).toBe(key);
    out[key] = record.lifetime_calls;
  }
  const files = (vol.readdirSync(`${USAGE}/recipes`) as string[]).filter((n) => !n.startsWith(".")).sort();
  expect(files, "no orphan ledger").toEqual([...new Set(Object.values(index.paths).map((e) => ledgerFileName(e.ledger)))].sort());
  expect((vol.readdirSync(`${USAGE}/journal`) as string[]).filter((n) => !n.startsWith(".")), "no journal left").toEqual([]);
  return out;
}

/** the volume before the pair runs: a.json and b.json, each launched once and folded */
async function baseImage(): Promise<Record<string, string | null>> {
  const fs = makeMemFileSystem(Volume.fromJSON({ [`${ROOT}/a.json`]: recipe("echo a"), [`${ROOT}/b.json`]: recipe("echo b"), [`${LOCKS}/.keep`]: "" }) as Volume);
  const ctx = instance(fs, 1);
  for (const p of ["a", "b"]) await recordLaunch(ctx, inputFor(fs.vol, `${ROOT}/${p}.json`));
  await foldPending(ctx);
  await ctx.log.close();
  alive.delete(1);
  return fs.vol.toJSON() as Record<string, string | null>;
}

async function pair(disk: CrashDisk): Promise<{ folded: boolean }> {
  const launcher = instance(disk.process("launcher"), 10);
  const mover = instance(disk.process("mover"), 11);
  let folded = false;
  const quiet = async (run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      if (!disk.powerLost || !(isSimulatedCrash(e) || e instanceof Error)) throw e;
    }
  };
  await Promise.all([
    quiet(async () => {
      for (let i = 0; i < 2; i++) await recordLaunch(launcher, inputFor(disk.vol, `${ROOT}/a.json`));
      const diagnostics = await foldPending(launcher);
      if (!disk.powerLost && diagnostics.length === 0) folded = true;
    }),
    quiet(async () => {
      const moved = await renameLineage(mover, { from: `${ROOT}/b.json`, to: `${ROOT}/c.json` });
      if (!disk.powerLost) expect(moved).toMatchObject({ ok: true });
    }),
  ]);
  return { folded };
}

describe("two runtime instances on one disk", () => {
  it("a launch-and-fold and a lineage rename, interleaved, with a power failure at every mutation", async () => {
    const image = await baseImage();
    const fresh = (): MemFileSystem => makeMemFileSystem(Volume.fromJSON(image) as Volume);
    const full = new CrashDisk(fresh());
    await pair(full);
    const n = full.mutations;
    expect(n).toBeGreaterThan(20);
    for (let k = 0; k <= n; k++) {
      alive.clear();
      const disk = new CrashDisk(fresh(), k);
      const { folded } = await pair(disk);
      await disk.powerFail();
      alive.clear();
      const view = makeMemFileSystem(disk.vol);
      const next = instance(view, 99, 0);
      expect(await foldPending(next), `power fails at ${k}`).toEqual([]);
      await next.log.close();
      const counts = lifetimes(disk.vol);
      const b = disk.vol.existsSync(`${ROOT}/b.json`);
      const c = disk.vol.existsSync(`${ROOT}/c.json`);
      expect(b !== c, `power fails at ${k}: the recipe is in exactly one place`).toBe(true);
      expect(counts[b ? "b.json" : "c.json"], `power fails at ${k}: the moved recipe keeps its lineage`).toBe(1);
      expect(counts[b ? "c.json" : "b.json"]).toBeUndefined();
      expect(counts["a.json"], `power fails at ${k}`).toBeGreaterThanOrEqual(folded ? 3 : 1);
      expect(counts["a.json"], `power fails at ${k}`).toBeLessThanOrEqual(3);
      if (k === n) expect({ folded, a: counts["a.json"], c }).toEqual({ folded: true, a: 3, c: true });
    }
  }, 120_000);
});
