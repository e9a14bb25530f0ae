// Crash at every mutation of a launch (with its fold), a controlled rename, a promotion and a
// revision, with power failures that lose what was not durable (worst case, or seeded). After each
// crash a new process launches the recipe and folds: the launch is never rejected, the ledger
// store is consistent (no orphan ledger, no index entry without its ledger, no journal left),
// and lifetime_calls counts every launch that was durable before the crash, once.
import { describe, expect, it } from "vitest";
import { fc } from "@fast-check/vitest";
import { Volume } from "memfs";
import * as E from "fp-ts/lib/Either.js";
import { createHash } from "node:crypto";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import type { ProcessProbe } from "../adapters/lock/owner.js";
import type { RecipeEntry } from "../core/discovery/discovery-result.js";
import { LedgerIndex, LedgerRecord } from "../core/ledger/codec.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { ledgerFileName } from "../core/ledger/keys.js";
import { loadRecipe } from "../core/recipe/load.js";
import { openLedger, type LedgerContext } from "../runtime/ledger/ledger-context.js";
import { foldPending } from "../runtime/ledger/fold-logs.js";
import { recordLaunch, type LaunchInput } from "../runtime/ledger/account-launch.js";
import { promoteLineage, renameLineage } from "../runtime/ledger/moves.js";
import { seedLineages } from "../runtime/ledger/seed-lineages.js";
import { exploreCrashes, SimulatedCrash } from "./support/crash-fs.js";

const ROOT = "/agent/recipes";
const USAGE = `${ROOT}/.usage`;

// Every simulated process has its own pid; a crashed one is dead from then on.
const alive = new Set<number>();
let nextPid = 1000;
function processProbe(): ProcessProbe {
  const pid = nextPid++;
  alive.add(pid);
  return {
    pid,
    hostname: () => "host",
    bootId: () => "boot",
    startTime: (p) => (alive.has(p) ? "1" : undefined),
    signalZero: (p) => (alive.has(p) ? "exists" : "gone"),
  };
}

// One lock for all simulated processes: its files live outside the crashing volume and a crash
// unwinds through withLock, which releases (one instance also keeps AsyncLocalStorage instances
// from piling up, which would slow every later await).
const lock = makeFileLock({ fs: makeMemFileSystem(), lockRoot: "/locks" });

function newProcess(fs: FileSystem, options: { foldThreshold?: number } = {}): LedgerContext {
  const probe = processProbe();
  let t = Date.parse("2026-01-01T00:00:00Z") + probe.pid * 1000;
  return openLedger({ fs, lock, recipeRoot: ROOT, probe, now: () => (t += 1), newId: () => String(probe.pid), lockTimeoutMs: 2000, ...options });
}

const text = (vol: MemFileSystem, path: string): string | undefined => {
  try {
    return vol.vol.readFileSync(path, "utf8") as string;
  } catch {
    return undefined;
  }
};

function configOf(path: string, bytes: Uint8Array) {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.(json|md)$/, "");
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, name, path.endsWith(".md") ? "md" : "json");
  if (E.isLeft(config)) throw new Error(`does not load: ${path}`);
  return { name, config: config.right };
}

function inputFor(vol: MemFileSystem, path: string): LaunchInput & { fingerprint: string } {
  const bytes = new Uint8Array(vol.vol.readFileSync(path) as Buffer);
  const { name, config } = configOf(path, bytes);
  return { path, name, fingerprint: executableFingerprint(config), sourceSha256: createHash("sha256").update(bytes).digest("hex") };
}

function entryFor(vol: MemFileSystem, path: string): RecipeEntry {
  const bytes = new Uint8Array(vol.vol.readFileSync(path) as Buffer);
  const { name, config } = configOf(path, bytes);
  return { id: name, path, mutableUsage: true, active: true, config } as unknown as RecipeEntry;
}

/** the store as a restarted process finds it after one fold; checks it is consistent */
function storeOf(vol: MemFileSystem): { index: LedgerIndex; ledgers: Map<string, LedgerRecord> } {
  const index = JSON.parse(text(vol, `${USAGE}/index.json`) ?? '{"paths":{},"applied":{}}') as LedgerIndex;
  expect(E.isRight(LedgerIndex.decode(index))).toBe(true);
  const dir = `${USAGE}/recipes`;
  const files = vol.vol.existsSync(dir) ? (vol.vol.readdirSync(dir) as string[]).filter((n) => !n.startsWith(".")) : [];
  const ledgers = new Map<string, LedgerRecord>();
  for (const [key, e] of Object.entries(index.paths)) {
    const raw = text(vol, `${USAGE}/recipes/${ledgerFileName(e.ledger)}`);
    expect(raw, `ledger of ${key}`).toBeDefined();
    const record = JSON.parse(raw!) as LedgerRecord;
    expect(E.isRight(LedgerRecord.decode(record))).toBe(true);
    expect(record.current_path).toBe(key);
    ledgers.set(key, record);
  }
  expect(files.sort(), "no orphan ledger").toEqual([...new Set(Object.values(index.paths).map((e) => ledgerFileName(e.ledger)))].sort());
  const journals = vol.vol.existsSync(`${USAGE}/journal`) ? (vol.vol.readdirSync(`${USAGE}/journal`) as string[]) : [];
  expect(journals, "no journal left, none kept aside").toEqual([]);
  return { index, ledgers };
}

interface Scenario {
  readonly name: string;
  /** builds the state before the crashing operation (runs on a plain volume) */
  readonly prepare: (vol: MemFileSystem, ctx: LedgerContext) => Promise<void>;
  readonly run: (fs: FileSystem, vol: MemFileSystem) => Promise<void>;
  /** the recipe file the next process launches: the first of these that exists */
  readonly launchPaths: readonly string[];
  /** launches the crashing operation itself records (and folds before it returns) */
  readonly ownLaunches: number;
}

/** seeding and moves report failures as diagnostics: a simulated crash becomes one again */
function crashed(diagnostic: string): void {
  if (diagnostic.includes("simulated crash")) throw new SimulatedCrash(diagnostic, 0);
  if (diagnostic !== "") throw new Error(diagnostic);
}

const recipe = (cmd: string): string => JSON.stringify({ description: "t", template: cmd });

async function launchesOf(ctx: LedgerContext, vol: MemFileSystem, path: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect(await recordLaunch(ctx, inputFor(vol, path))).toMatchObject({ ok: true, recorded: true });
}

function scenarios(prior: number): Scenario[] {
  return [
    {
      name: "launch (and the fold it triggers)",
      prepare: async (vol, ctx) => {
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a"));
        await launchesOf(ctx, vol, `${ROOT}/a.json`, prior);
        await foldPending(ctx);
      },
      run: async (fs, vol) => {
        const ctx = newProcess(fs, { foldThreshold: 1 });
        await recordLaunch(ctx, inputFor(vol, `${ROOT}/a.json`));
      },
      launchPaths: [`${ROOT}/a.json`],
      ownLaunches: 1,
    },
    {
      name: "launch of a changed recipe (revision) and its fold",
      prepare: async (vol, ctx) => {
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a"));
        await launchesOf(ctx, vol, `${ROOT}/a.json`, prior);
        await foldPending(ctx);
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a2"));
      },
      run: async (fs, vol) => {
        const ctx = newProcess(fs, { foldThreshold: 1 });
        await recordLaunch(ctx, inputFor(vol, `${ROOT}/a.json`));
      },
      launchPaths: [`${ROOT}/a.json`],
      ownLaunches: 1,
    },
    {
      name: "revision by seeding",
      prepare: async (vol, ctx) => {
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a"));
        await launchesOf(ctx, vol, `${ROOT}/a.json`, prior);
        await foldPending(ctx);
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a2"));
      },
      run: async (fs, vol) => {
        const result = await seedLineages(newProcess(fs), { entries: [entryFor(vol, `${ROOT}/a.json`)] });
        crashed(result.diagnostics.join("\n"));
      },
      launchPaths: [`${ROOT}/a.json`],
      ownLaunches: 0,
    },
    {
      name: "controlled rename",
      prepare: async (vol, ctx) => {
        vol.vol.writeFileSync(`${ROOT}/a.json`, recipe("echo a"));
        await launchesOf(ctx, vol, `${ROOT}/a.json`, prior);
        await foldPending(ctx);
        // one launch left in a log: the rename folds it first
        await launchesOf(ctx, vol, `${ROOT}/a.json`, 1);
      },
      run: async (fs) => {
        const result = await renameLineage(newProcess(fs), { from: `${ROOT}/a.json`, to: `${ROOT}/b.json` });
        if (!result.ok) crashed(result.diagnostic);
      },
      launchPaths: [`${ROOT}/b.json`, `${ROOT}/a.json`],
      ownLaunches: 0,
    },
    {
      name: "promotion",
      prepare: async (vol, ctx) => {
        vol.vol.writeFileSync(`${ROOT}/drafts/d.json`, recipe("echo d"));
        await launchesOf(ctx, vol, `${ROOT}/drafts/d.json`, prior + 1);
        await foldPending(ctx);
      },
      run: async (fs) => {
        const result = await promoteLineage(newProcess(fs), { from: `${ROOT}/drafts/d.json`, to: `${ROOT}/d.json` });
        if (!result.ok) crashed(result.diagnostic);
      },
      launchPaths: [`${ROOT}/d.json`, `${ROOT}/drafts/d.json`],
      ownLaunches: 0,
    },
  ];
}

/** total lifetime over all lineages (one recipe per scenario, so this is its lineage's) */
const lifetimeOf = (store: { ledgers: Map<string, LedgerRecord> }): number => [...store.ledgers.values()].reduce((n, r) => n + r.lifetime_calls, 0);

async function explore(s: Scenario, prior: number, seed: number | undefined): Promise<number> {
  const base = makeMemFileSystem(Volume.fromJSON({ [`${ROOT}/drafts/.keep`]: "" }) as Volume);
  const prep = newProcess(base);
  await s.prepare(base, prep);
  await prep.log.close();
  alive.delete(prep.probe.pid);
  const image = base.vol.toJSON();
  const before = lifetimeOf(storeOf(makeMemFileSystem(Volume.fromJSON(image) as Volume)));
  const pending = s.name === "controlled rename" ? 1 : 0;
  return exploreCrashes({
    ...(seed === undefined ? {} : { seed }),
    setup: () => {
      // every process started by the previous run is dead now
      alive.clear();
      return makeMemFileSystem(Volume.fromJSON(image) as Volume);
    },
    run: (fs) => s.run(fs, base),
    check: async (view, k, trace) => {
      alive.clear();
      const context = `${s.name}, crash at ${k}: ${trace.at(-1)}`;
      const next = newProcess(view);
      // a restarted process recovers first (a journaled move may still move the recipe file)
      expect(await foldPending(next), context).toEqual([]);
      const path = s.launchPaths.find((p) => text(view, p) !== undefined)!;
      expect(await recordLaunch(next, inputFor(view, path)), context).toMatchObject({ ok: true, recorded: true });
      expect(await foldPending(next), context).toEqual([]);
      await next.log.close();
      const store = storeOf(view);
      const key = path.slice(ROOT.length + 1);
      expect(store.index.paths[key], `${context}: the launched path has lineage`).toBeDefined();
      const total = lifetimeOf(store);
      // Launches that were durable before the power failed are all counted, exactly once: the
      // ones already in a log on disk before the operation began (the starting image is durable),
      // the crashed operation's own launch when the operation returned before the crash (it
      // folded that launch into the ledger, and acknowledged means durable), and the launch the
      // restarted process made. Only the own launch of an operation cut short may be lost (launch
      // logs are appended without an fsync); nothing is counted twice.
      const returned = !trace.some((line) => line.startsWith("CRASH before"));
      expect(total, context).toBeGreaterThanOrEqual(before + pending + (returned ? s.ownLaunches : 0) + 1);
      expect(total, context).toBeLessThanOrEqual(before + pending + s.ownLaunches + 1);
      expect(store.ledgers.get(key)!.lifetime_calls, context).toBe(total);
      expect(store.ledgers.get(key)!.fingerprint, `${context}: the ledger is at the current revision`).toBe(inputFor(view, path).fingerprint);
    },
  });
}

describe("ledger operations survive a crash at every mutation", () => {
  for (const s of scenarios(2)) {
    it(`${s.name} (worst-case loss)`, async () => {
      const n = await explore(s, 2, undefined);
      expect(n).toBeGreaterThan(3);
    });
  }

  // the first launch in a recipe root also makes the `.usage` folder: its fold must make that
  // folder's name durable too, or a power failure after an acknowledged launch loses the store
  it("the first launch in a fresh recipe root (worst-case loss)", async () => {
    const n = await explore(scenarios(0)[0]!, 0, undefined);
    expect(n).toBeGreaterThan(3);
  });

  it("for any prior history and loss model", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2 ** 30 }), async (prior, which, seed) => {
        await explore(scenarios(prior)[which]!, prior, seed);
      }),
      { numRuns: 20 },
    );
  });
});
