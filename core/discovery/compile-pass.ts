// Per-file discovery work, remembered between passes so that a refresh after one edit compiles
// one file. A compiled recipe depends on its own SnapshotFile and on every file its resolution
// asked for (imports, delegation targets, and the bare-name probes that found nothing); it is
// reused while all of them are the very same objects. The runtime keeps unchanged files as the
// same objects, so identity is the whole test: no clock, no hashing. The memo is a value the
// caller owns: two registries never share one.
//
// The compile step itself is handed in (`CompileStep`), never imported here: a pass whose every
// file a compile cache serves runs without the compile code, which the runtime then need not load
// (runtime/compile-step.ts).
import type { RegistrySnapshot, SnapshotFile } from "../model.js";
import type { CompileContext, CompiledRecipe, RecipeSource } from "../compile/compile-recipe.js";
import { toolOf } from "../compile/tool.js";
import { problemDiagnostic } from "./problem.js";
import { toolNameProblem } from "../register/name.js";
import type { CompileHook } from "./compile-hook.js";
import { type CandidateCache, createCandidateCache } from "./candidates.js";
import { draftEntry } from "./drafts.js";
import { basename, recipeFileName } from "./paths.js";
import type { Candidate, LoadedRecipe, Reads, Resolution } from "./pass-records.js";
import { configFacts, type DraftEntry } from "./discovery-result.js";
import { sameSnapshotFile } from "./same-file.js";

const NO_READS: Reads = [];

/** The one compile step, `compileRecipe` of core/compile/compile-recipe.ts, as a pass is given it. */
export type CompileStep = (source: RecipeSource, ctx: CompileContext) => CompiledRecipe;

interface DraftRecord {
  readonly reads: Reads;
  readonly entry: DraftEntry;
}

export interface PassStats {
  /** paths loaded afresh (recipes, then drafts), in loading order */
  readonly loaded: readonly string[];
  /** files whose earlier work was reused */
  readonly reused: number;
}

/** Remembered work of earlier passes. Pass it to every `discover` of the same registry. */
export interface DiscoveryMemo {
  readonly lastPass: PassStats;
}

interface MemoState extends DiscoveryMemo {
  context: string;
  candidates: CandidateCache;
  drafts: WeakMap<SnapshotFile, DraftRecord>;
  resolution: Resolution | undefined;
  lastPass: PassStats;
}

export function createDiscoveryMemo(): DiscoveryMemo {
  const state: MemoState = { context: "", candidates: createCandidateCache(), drafts: new WeakMap(), resolution: undefined, lastPass: { loaded: [], reused: 0 } };
  return state;
}

const contextKey = (s: RegistrySnapshot): string =>
  JSON.stringify([s.agentDir, s.recipeRoot, s.home, s.cwd, s.packagedRoot ?? null]);

export interface Pass {
  readonly candidates: CandidateCache;
  /** the previous pass's result, for patching */
  readonly resolution: Resolution | undefined;
  recipe(candidate: Candidate): LoadedRecipe;
  draft(file: SnapshotFile): DraftEntry;
  /** keeps the result for the next pass and publishes the stats */
  finish(resolution: Resolution): void;
}

export function beginPass(
  compileRecipe: CompileStep, memoIn: DiscoveryMemo, snapshot: RegistrySnapshot, digest?: (file: SnapshotFile) => string | undefined, hook?: CompileHook,
): Pass {
  const memo = memoIn as MemoState;
  const key = contextKey(snapshot);
  if (memo.context !== key) {
    // paths resolve differently in another context: nothing loaded before can be trusted
    memo.context = key;
    memo.candidates = createCandidateCache();
    memo.drafts = new WeakMap();
    memo.resolution = undefined;
  }
  // built on first need: most refreshes load only recipes that read no other file
  let listedMap: Map<string, SnapshotFile> | undefined;
  const listed = (): Map<string, SnapshotFile> => {
    if (listedMap !== undefined) return listedMap;
    listedMap = new Map();
    for (const source of snapshot.sources) for (const f of source.files) listedMap.set(f.path, f);
    for (const f of snapshot.drafts) listedMap.set(f.path, f);
    return listedMap;
  };
  const extra = snapshot.readExtra;
  // the reads of the load in progress; one context serves the whole pass
  let reads: (readonly [string, SnapshotFile | undefined])[] | undefined;
  // what a path holds in this pass: the listed file, else a read outside the listings (one per
  // path and pass: the snapshot's reader keeps what it read)
  const current = (path: string): SnapshotFile | undefined => listed().get(path) ?? extra?.(path);
  const ctx: CompileContext = {
    readFile: (path) => {
      const f = current(path);
      reads?.push([path, f]);
      return f;
    },
    agentDir: snapshot.agentDir,
    home: snapshot.home,
    cwd: snapshot.cwd,
    userRoot: snapshot.recipeRoot,
    ...(snapshot.packagedRoot === undefined ? {} : { packagedRoot: snapshot.packagedRoot }),
  };
  // a recipe that compiles is digested once per file revision, from the very bytes compiled, so
  // that launch accounting need not read the file again (drafts list their digest, valid or not)
  const digesting: CompileContext = digest === undefined ? ctx : { ...ctx, digest };
  const tracked = <T>(run: () => T): { value: T; reads: Reads } => {
    reads = [];
    try {
      const value = run();
      return { value, reads: reads.length === 0 ? NO_READS : reads };
    } finally {
      reads = undefined;
    }
  };
  // a compile the cache served records what the listings hold for its paths, without reading the
  // others: a file outside them then differs from its fresh read in the next pass, and is compiled
  // again there (a registry that never has a next pass, a command's, reads nothing more)
  const readsOf = (paths: readonly string[]): Reads => (paths.length === 0 ? NO_READS : paths.map((p) => [p, listed().get(p)] as const));
  // a listed file is the very same object while unchanged; a file read outside the listings is a
  // fresh object every pass, and is compared by what was read (an edited import outside the root
  // must reach the recipes built from it, though no watcher reports it)
  const unchanged = (r: Reads): boolean =>
    r.length === 0 || r.every(([path, seen]) => {
      const now = current(path);
      return now === seen || (!listed().has(path) && sameSnapshotFile(now, seen));
    });

  const loadedPaths: string[] = [];
  let reused = 0;

  return {
    candidates: memo.candidates,
    resolution: memo.resolution,
    recipe(candidate) {
      const was = candidate.loaded;
      if (was !== undefined && unchanged(was.reads)) {
        reused++;
        return was;
      }
      // a compile the runtime verified as current (its compile cache) is taken as it is
      const stored = hook?.lookup(candidate);
      if (stored !== undefined) reused++;
      else loadedPaths.push(candidate.file.path);
      // a file whose name no MCP client or model API accepts is never exposed as a tool
      const badName = stored === undefined ? toolNameProblem(candidate.id, candidate.format) : undefined;
      const { value: compiled, reads: used } =
        stored !== undefined ? { value: stored.compiled, reads: readsOf(stored.readPaths) }
        : badName === undefined ? tracked(() => compileRecipe(candidate, digesting))
        : { value: namedProblem(candidate, badName), reads: NO_READS };
      if (stored === undefined) hook?.store(candidate.file, { compiled, readPaths: used.map(([p]) => p) });
      const facts = compiled.kind !== "recipe" ? undefined : configFacts(compiled.config);
      const tool = compiled.kind === "recipe" && !compiled.disabled ? toolOf(compiled, facts) : undefined;
      const record: { -readonly [K in keyof LoadedRecipe]: LoadedRecipe[K] } = { file: candidate.file, reads: used, compiled };
      if (facts !== undefined) record.facts = facts;
      if (tool !== undefined) record.tool = tool;
      candidate.loaded = record;
      return record;
    },
    draft(file) {
      const was = memo.drafts.get(file);
      if (was !== undefined && unchanged(was.reads)) {
        reused++;
        return was.entry;
      }
      loadedPaths.push(file.path);
      const parsed = recipeFileName(basename(file.path)) ?? { id: basename(file.path), format: "json" as const };
      const { value: compiled, reads: used } = tracked(() => compileRecipe({ file, id: parsed.id, format: parsed.format }, ctx));
      if (used.length > 0) hook?.draftRead?.(file, used.map(([p]) => p));
      const entry = draftEntry(compiled, file, digest?.(file));
      memo.drafts.set(file, { reads: used, entry });
      return entry;
    },
    finish(resolution) {
      memo.resolution = resolution;
      memo.lastPass = { loaded: loadedPaths, reused };
    },
  };
}

function namedProblem(candidate: Candidate, message: string): CompiledRecipe {
  const problem = { kind: "invalid" as const, message };
  return { kind: "problem", id: candidate.id, path: candidate.file.path, format: candidate.format, problem, diagnostics: [problemDiagnostic(candidate.file.path, problem)] };
}
