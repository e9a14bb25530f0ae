// Random journal plans over a small volume, and the engine's crash property as a function that
// returns its violations (so the broken-variant tests can demand that there are some).
import { createHash } from "node:crypto";
import { fc } from "@fast-check/vitest";
import { Volume } from "memfs";
import * as E from "fp-ts/lib/Either.js";
import type { FileHandle, FileSystem } from "../../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../../adapters/fs/memfs.js";
import { buildPlan, planErrorText, type Plan, type StepInput } from "../../core/journal/plan.js";
import { recoverJournals, runPlan, type JournalOptions } from "../../runtime/journal/index.js";
import { exploreCrashes } from "./crash-fs.js";

export const JOURNALS = "/v/journal";
const SLOTS = ["/v/a/1", "/v/a/2", "/v/a/3", "/v/b/1", "/v/b/2", "/v/b/3"] as const;

/** What a scenario's paths hold: text content, absent (undefined), or a folder ("<dir>"). */
export type Image = Readonly<Record<string, string | undefined>>;

export interface Scenario {
  readonly initial: Image;
  readonly plan: Plan;
  /** every plan path's state after the plan */
  readonly after: Image;
}

const DIR = "<dir>";

type Intent =
  | { readonly op: "write"; readonly content: string; readonly keepBefore: boolean }
  | { readonly op: "unlink"; readonly keepBefore: boolean }
  | { readonly op: "rename"; readonly to: number; readonly keepBefore: boolean }
  | { readonly op: "link"; readonly to: number }
  | { readonly op: "mkdir" }
  | { readonly op: "none" };

const contentArb = fc.oneof(fc.constantFrom("", "x", "{\"v\":1}\n"), fc.string({ maxLength: 12 }));

const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  fc.record({ op: fc.constant("write" as const), content: contentArb, keepBefore: fc.boolean() }),
  fc.record({ op: fc.constant("unlink" as const), keepBefore: fc.boolean() }),
  fc.record({ op: fc.constant("rename" as const), to: fc.nat(SLOTS.length - 1), keepBefore: fc.boolean() }),
  fc.record({ op: fc.constant("link" as const), to: fc.nat(SLOTS.length - 1) }),
  fc.constant({ op: "mkdir" as const }),
  fc.constant({ op: "none" as const }),
);

/** A scenario from the initial contents and one intent per slot; intents that do not fit the
 *  files (unlink of nothing, rename onto a slot already used) are dropped. */
function scenarioOf(initial: readonly (string | undefined)[], intents: readonly Intent[], phaseOf: readonly number[], id: string): Scenario {
  const start: Record<string, string | undefined> = {};
  SLOTS.forEach((p, i) => (start[p] = initial[i]));
  const after: Record<string, string | undefined> = { ...start };
  const used = new Set<string>();
  const phases: StepInput[][] = [[], [], []];
  const read = new Set<string>();
  SLOTS.forEach((path, i) => {
    const intent = intents[i]!;
    const now = start[path];
    const phase = phases[phaseOf[i]! % phases.length]!;
    const take = (...paths: string[]): boolean => {
      if (paths.some((p) => used.has(p) || read.has(p))) return false;
      paths.forEach((p) => used.add(p));
      return true;
    };
    const before = (keep: boolean, content: string) => (keep ? content : { hash: sha(content) });
    switch (intent.op) {
      case "write":
        if (now === DIR || !take(path)) return;
        phase.push({ op: "write", path, before: now === undefined ? null : before(intent.keepBefore, now), content: intent.content });
        after[path] = intent.content;
        return;
      case "unlink":
        if (now === undefined || now === DIR || !take(path)) return;
        phase.push({ op: "unlink", path, before: before(intent.keepBefore, now) });
        after[path] = undefined;
        return;
      case "rename": {
        const to = SLOTS[intent.to]!;
        const replaced = start[to];
        if (to === path || now === undefined || now === DIR || replaced === DIR || !take(path, to)) return;
        phase.push({ op: "rename", from: path, to, before: now, replaced: replaced === undefined ? null : before(intent.keepBefore, replaced) });
        after[to] = now;
        after[path] = undefined;
        return;
      }
      case "link": {
        const to = SLOTS[intent.to]!;
        if (to === path || now === undefined || now === DIR || start[to] !== undefined || used.has(path) || !take(to)) return;
        read.add(path);
        phase.push({ op: "link", from: path, to, before: now });
        after[to] = now;
        return;
      }
      case "mkdir":
        if (now !== undefined || !take(path)) return;
        phase.push({ op: "mkdir", path });
        after[path] = DIR;
        return;
      case "none":
        return;
    }
  });
  const plan = buildPlan({ id, kind: "test", phases: phases.filter((p) => p.length > 0) });
  if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
  return { initial: start, plan: plan.right, after };
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.array(fc.option(contentArb, { nil: undefined }), { minLength: SLOTS.length, maxLength: SLOTS.length }),
    fc.array(intentArb, { minLength: SLOTS.length, maxLength: SLOTS.length }),
    fc.array(fc.nat(2), { minLength: SLOTS.length, maxLength: SLOTS.length }),
  )
  .map(([initial, intents, phaseOf]) => scenarioOf(initial, intents, phaseOf, "p1"))
  .filter((s) => s.plan.phases.length > 0);

/** A fixed scenario that uses every kind of step, for the broken-variant tests. */
export const EVERY_STEP: Scenario = scenarioOf(
  ["old-a1", "old-a2", undefined, "old-b1", "old-b2", undefined],
  [
    { op: "write", content: "new-a1", keepBefore: true },
    { op: "rename", to: 4, keepBefore: true },
    { op: "mkdir" },
    { op: "unlink", keepBefore: true },
    { op: "none" },
    { op: "none" },
  ],
  [0, 1, 0, 1, 0, 0],
  "every-step",
);

export function volumeOf(image: Image): MemFileSystem {
  const vol = new Volume();
  vol.mkdirSync("/v/a", { recursive: true });
  vol.mkdirSync("/v/b", { recursive: true });
  for (const [path, content] of Object.entries(image)) {
    if (content === DIR) vol.mkdirSync(path);
    else if (content !== undefined) vol.writeFileSync(path, content);
  }
  return makeMemFileSystem(vol);
}

function imageOf(fs: MemFileSystem, paths: readonly string[]): Image {
  const out: Record<string, string | undefined> = {};
  for (const path of paths) {
    try {
      const st = fs.vol.lstatSync(path);
      out[path] = st.isDirectory() ? DIR : (fs.vol.readFileSync(path, "utf8") as string);
    } catch {
      out[path] = undefined;
    }
  }
  return out;
}

const same = (a: Image, b: Image): boolean => Object.keys(a).every((k) => a[k] === b[k]);

/** Breakage of the FileSystem port: the engine runs on it as if it were honest. */
export interface PortBreakage {
  /** handle.sync does nothing */
  readonly noFileSync?: boolean;
  /** fsyncDir does nothing */
  readonly noDirSync?: boolean;
}

export function broken(fs: FileSystem, b: PortBreakage): FileSystem {
  if (b.noFileSync !== true && b.noDirSync !== true) return fs;
  const wrapHandle = (h: FileHandle): FileHandle => ({ write: (d) => h.write(d), close: () => h.close(), sync: async () => undefined });
  return {
    ...fs,
    open: async (path, flag, mode) => {
      const h = await fs.open(path, flag, mode);
      return b.noFileSync === true ? wrapHandle(h) : h;
    },
    fsyncDir: b.noDirSync === true ? async () => undefined : (path) => fs.fsyncDir(path),
  };
}

export interface EngineRun {
  readonly seed?: number;
  readonly breakage?: PortBreakage;
  readonly options?: JournalOptions;
  /** crash recovery at each of its mutations too (default true) */
  readonly nested?: boolean;
}

/**
 * The engine's crash property for one scenario: the run is crashed at every mutation, recovery
 * at every one of its own, recovery is run twice; afterwards the plan's paths are all-before or
 * all-after (all-after when runPlan had returned), no journal is left or kept aside, and a next
 * plan runs. Returns the violations found.
 */
export async function engineViolations(s: Scenario, run: EngineRun = {}): Promise<string[]> {
  const violations: string[] = [];
  const paths = Object.keys(s.after);
  const fsOf = (fs: FileSystem): FileSystem => broken(fs, run.breakage ?? {});
  try {
    await exploreCrashes({
      setup: () => volumeOf(s.initial),
      run: (fs) => runPlan(fsOf(fs), JOURNALS, s.plan, run.options),
      recover: async (fs) => void (await recoverJournals(fsOf(fs), JOURNALS, run.options)),
      ...(run.seed === undefined ? {} : { seed: run.seed }),
      nested: run.nested ?? true,
      check: async (view, k, trace, info) => {
        const where = `crash at ${k}${info.recoveryCrashAt === undefined ? "" : `, recovery crash at ${info.recoveryCrashAt}`}`;
        const now = imageOf(view, paths);
        if (info.completed ? !same(now, s.after) : !same(now, s.initial) && !same(now, s.after)) {
          violations.push(`${where}: ${JSON.stringify(now)} is neither all-before ${JSON.stringify(s.initial)} nor all-after ${JSON.stringify(s.after)}${info.completed ? " (runPlan had returned: must be after)" : ""}\n  ${trace.join("\n  ")}`);
          return;
        }
        const left = view.vol.existsSync(JOURNALS) ? (view.vol.readdirSync(JOURNALS) as string[]).filter((n) => !n.startsWith(".")) : [];
        if (left.length > 0) violations.push(`${where}: journal folder still holds ${left.join(", ")}`);
        const next = buildPlan({ id: "next", kind: "test", phases: [[{ op: "write", path: "/v/a/next", before: null, content: "next" }]] });
        if (E.isRight(next)) {
          await runPlan(view, JOURNALS, next.right);
          if (view.vol.readFileSync("/v/a/next", "utf8") !== "next") violations.push(`${where}: the next plan did not run`);
        }
      },
    });
  } catch (e) {
    violations.push(`exploration failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return violations;
}
