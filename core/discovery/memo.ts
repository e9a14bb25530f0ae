// Per-file discovery work, remembered between passes so that a refresh after one edit loads one
// file. A loaded recipe depends on its own SnapshotFile and on every file its resolution asked for
// (imports, delegation targets, and the bare-name probes that found nothing); it is reused while
// all of them are the very same objects. The runtime keeps unchanged files as the same objects,
// so identity is the whole test: no clock, no hashing.
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeProblem, RegistrySnapshot, SnapshotFile } from "../model.js";
import { loadRecipe } from "../recipe/load.js";
import { toolNameProblem } from "../register/name.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { checkSurveyed } from "../recipe/check.js";
import { surveyTemplate, type TemplateSurvey } from "../recipe/survey.js";
import { riskLabels } from "../risk/risk-labels.js";
import { trustedBoundaryWarnings } from "../risk/warnings.js";
import { authoringWarnings } from "../recipe/lint.js";
import { type Candidate, type CandidateCache, createCandidateCache } from "./candidates.js";
import type { CompileHook } from "./compile-hook.js";
import { draftEntry } from "./drafts.js";
import { problemDiagnostic } from "./problem.js";
import { toolFromEntry } from "./to-tool.js";
import type { Resolution } from "./resolution.js";
import type { DraftEntry, ToolSpec } from "./types.js";

/** Each path a resolution asked for, with the listed file it got (undefined: not in any listing). */
type Reads = readonly (readonly [string, SnapshotFile | undefined])[];
const NO_READS: Reads = [];
const NO_TEXTS: readonly string[] = Object.freeze([]);

/** One recipe file, loaded and resolved; the derived fields are filled on first use. */
export interface LoadedRecipe {
  readonly file: SnapshotFile;
  readonly reads: Reads;
  readonly config?: RecipeConfig;
  readonly problem?: RecipeProblem;
  /** the one walk of a checked config's template (absent for disabled recipes, which are not checked) */
  readonly survey?: TemplateSurvey;
  /** digest of `file.bytes` for a recipe that loaded, when the pass was given a digest function */
  readonly sourceSha256?: string;
  ownDiagnostics?: readonly string[];
  riskLabels?: readonly string[];
  tool?: E.Either<string, ToolSpec>;
}

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
  draft(file: SnapshotFile, digest: ((file: SnapshotFile) => string | undefined) | undefined): DraftEntry;
  /** keeps the result for the next pass and publishes the stats */
  finish(resolution: Resolution): void;
}

export function beginPass(
  memoIn: DiscoveryMemo, snapshot: RegistrySnapshot, digest?: (file: SnapshotFile) => string | undefined, compiled?: CompileHook,
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
  const ctx: ResolveContext = {
    readFile: (path) => {
      const f = listed().get(path);
      reads?.push([path, f]);
      return f ?? extra?.(path);
    },
    agentDir: snapshot.agentDir,
    home: snapshot.home,
    cwd: snapshot.cwd,
    userRoot: snapshot.recipeRoot,
    ...(snapshot.packagedRoot === undefined ? {} : { packagedRoot: snapshot.packagedRoot }),
  };
  const tracked = <T>(run: () => T): { value: T; reads: Reads } => {
    reads = [];
    try {
      const value = run();
      return { value, reads: reads.length === 0 ? NO_READS : reads };
    } finally {
      reads = undefined;
    }
  };
  const unchanged = (r: Reads): boolean => r.length === 0 || r.every(([path, seen]) => listed().get(path) === seen);

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
      const path = candidate.file.path;
      const stored = compiled?.lookup(candidate.file);
      if (stored !== undefined) {
        reused++;
        const reads: Reads = stored.readPaths.length === 0 ? NO_READS : stored.readPaths.map((p) => [p, listed().get(p)] as const);
        const record: LoadedRecipe = {
          file: candidate.file,
          reads,
          ...(stored.config === undefined ? {} : { config: stored.config }),
          ...(stored.problem === undefined ? {} : { problem: stored.problem }),
          ...(stored.survey === undefined ? {} : { survey: stored.survey }),
          ...(stored.config === undefined || stored.sourceSha256 === undefined ? {} : { sourceSha256: stored.sourceSha256 }),
        };
        candidate.loaded = record;
        return record;
      }
      loadedPaths.push(path);
      let survey: TemplateSurvey | undefined;
      const { value, reads: used } = tracked(() => {
        // a file whose name no MCP client or model API accepts is never exposed as a tool
        const badName = toolNameProblem(candidate.id, candidate.format);
        if (badName !== undefined) return E.left<RecipeProblem, RecipeConfig>({ kind: "invalid", message: badName });
        const loaded = loadRecipe(candidate.file, candidate.id, candidate.format);
        // a disabled recipe is reported as disabled, whatever its imports would say
        if (E.isLeft(loaded) || loaded.right.disabled === true) return loaded;
        const resolved = resolveRecipe(loaded.right, path, ctx);
        if (E.isLeft(resolved)) return resolved;
        survey = surveyTemplate(resolved.right.template);
        return checkSurveyed(resolved.right, survey);
      });
      // digested once per file revision, from the bytes just compiled (launch accounting needs it)
      const sourceSha256 = E.isLeft(value) ? undefined : digest?.(candidate.file);
      const record: LoadedRecipe = E.isLeft(value)
        ? { file: candidate.file, reads: used, problem: value.left }
        : {
            file: candidate.file,
            reads: used,
            config: value.right,
            ...(survey === undefined ? {} : { survey }),
            ...(sourceSha256 === undefined ? {} : { sourceSha256 }),
          };
      candidate.loaded = record;
      compiled?.store(candidate.file, { ...record, readPaths: used.map(([p]) => p) });
      return record;
    },
    draft(file, digest) {
      const was = memo.drafts.get(file);
      if (was !== undefined && unchanged(was.reads)) {
        reused++;
        return was.entry;
      }
      loadedPaths.push(file.path);
      const { value: entry, reads: used } = tracked(() => draftEntry(file, digest?.(file), ctx));
      memo.drafts.set(file, { reads: used, entry });
      return entry;
    },
    finish(resolution) {
      memo.resolution = resolution;
      memo.lastPass = { loaded: loadedPaths, reused };
    },
  };
}

const prefixed = (path: string, warnings: readonly string[]): readonly string[] =>
  warnings.length === 0 ? NO_TEXTS : warnings.map((w) => `Recipe ${path}: ${w}`);

/** The entry's own diagnostics: its load problem, or the trusted-boundary warnings of its template. */
export function ownDiagnostics(r: LoadedRecipe): readonly string[] {
  if (r.ownDiagnostics !== undefined) return r.ownDiagnostics;
  const path = r.file.path;
  r.ownDiagnostics =
    r.problem !== undefined ? [problemDiagnostic(path, r.problem)]
    : r.config === undefined ? NO_TEXTS
    : prefixed(path, [...(r.survey?.warnings ?? trustedBoundaryWarnings(r.config.template)), ...authoringWarnings(r.config)]);
  return r.ownDiagnostics;
}

export function riskLabelsOf(r: LoadedRecipe): readonly string[] {
  if (r.config === undefined) return NO_TEXTS;
  if (r.riskLabels !== undefined) return r.riskLabels;
  const survey = r.survey;
  r.riskLabels = riskLabels(r.config, survey?.riskLabels);
  return r.riskLabels;
}

/** The tool a winning, valid, enabled recipe of a tool source becomes (same id, path and format every time). */
export function toolOf(r: LoadedRecipe, candidate: Candidate, config: RecipeConfig): E.Either<string, ToolSpec> {
  if (r.tool !== undefined) return r.tool;
  r.tool = toolFromEntry(candidate.id, candidate.file.path, candidate.format, config, r.survey, r.sourceSha256);
  return r.tool;
}
