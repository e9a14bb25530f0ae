// Discovery: from a snapshot of recipe files to entries, winners, tools and diagnostics
// (registry-reference §1.2–§1.6). Pure: the runtime reads the files, this decides.
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeFormat, RecipeProblem, RegistrySnapshot, SnapshotFile, SourceListing } from "../model.js";
import { RESERVED_TOOL_NAMES } from "../model.js";
import { loadRecipe } from "../recipe/load.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { checkRecipe } from "../recipe/check.js";
import { riskLabels } from "../risk/risk-labels.js";
import { trustedBoundaryWarnings } from "../risk/warnings.js";
import { toolFromEntry } from "./to-tool.js";
import { draftEntry } from "./drafts.js";
import { basename, recipeFileName } from "./paths.js";
import { problemDiagnostic } from "./problem.js";
import type { Discovery, RecipeEntry, ToolSpec } from "./types.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const NONE: readonly string[] = [];

interface Candidate {
  readonly id: string;
  readonly format: RecipeFormat;
  readonly file: SnapshotFile;
  readonly source: SourceListing;
  readonly priority: number;
  /** path with `.md` rewritten to `.json`, the listing sort key */
  readonly key: string;
}

const compareCandidates = (a: Candidate, b: Candidate): number =>
  a.priority - b.priority ||
  (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
  (a.format === b.format ? 0 : a.format === "json" ? -1 : 1);

function rootDiagnostics(sources: readonly SourceListing[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (source.kind !== "root" || !source.present || seen.has(source.root)) continue;
    seen.add(source.root);
    if (source.error !== undefined) out.push(`Failed to inspect recipe root ${source.root}: ${source.error}`);
    if (source.rootMode === undefined) continue;
    if (source.rootMode & 0o002) out.push(`Recipe root is world-writable; review permissions: ${source.root}`);
    if (source.rootMode & 0o020) out.push(`Recipe root is group-writable; review ownership and permissions: ${source.root}`);
  }
  return out;
}

function candidatesOf(sources: readonly SourceListing[]): Candidate[] {
  const out: Candidate[] = [];
  sources.forEach((source, priority) => {
    const own: Candidate[] = [];
    for (const file of source.files) {
      const parsed = recipeFileName(basename(file.path));
      if (parsed === undefined) continue;
      own.push({ ...parsed, file, source, priority, key: parsed.format === "md" ? file.path.slice(0, -3) + ".json" : file.path });
    }
    own.sort(compareCandidates);
    out.push(...own);
  });
  return out;
}

interface Loaded {
  readonly candidate: Candidate;
  readonly config?: RecipeConfig;
  readonly problem?: RecipeProblem;
}

function load(candidate: Candidate, ctx: ResolveContext): Loaded {
  const loaded = loadRecipe(candidate.file, candidate.id, candidate.format);
  // a disabled recipe is reported as disabled, whatever its imports would say
  const result =
    E.isRight(loaded) && loaded.right.disabled !== true ? E.chain(checkRecipe)(resolveRecipe(loaded.right, candidate.file.path, ctx)) : loaded;
  return E.isRight(result) ? { candidate, config: result.right } : { candidate, problem: result.left };
}

/** What the import resolver may read: the listed files first, then the runtime's reader. */
export function resolveContext(snapshot: RegistrySnapshot): ResolveContext {
  const listed = new Map<string, SnapshotFile>();
  for (const source of snapshot.sources) for (const f of source.files) listed.set(f.path, f);
  for (const f of snapshot.drafts) listed.set(f.path, f);
  const extra = snapshot.readExtra;
  return {
    readFile: (path) => listed.get(path) ?? extra?.(path),
    agentDir: snapshot.agentDir,
    home: snapshot.home,
    cwd: snapshot.cwd,
    userRoot: snapshot.recipeRoot,
    ...(snapshot.packagedRoot === undefined ? {} : { packagedRoot: snapshot.packagedRoot }),
  };
}

function ownDiagnostics(loaded: Loaded): string[] {
  const path = loaded.candidate.file.path;
  if (loaded.problem !== undefined) return [problemDiagnostic(path, loaded.problem)];
  if (loaded.config === undefined) return [];
  return trustedBoundaryWarnings(loaded.config.template).map((w) => `Recipe ${path}: ${w}`);
}

export interface DiscoverOptions {
  /** sha256 (or any fingerprint) of a file's bytes; used for draft fingerprints */
  readonly digest?: (file: SnapshotFile) => string | undefined;
}

export function discover(snapshot: RegistrySnapshot, options: DiscoverOptions = {}): Discovery {
  const candidates = candidatesOf(snapshot.sources);
  const ctx = resolveContext(snapshot);
  const buckets = new Map<string, Loaded[]>();
  for (const candidate of candidates) {
    const bucket = buckets.get(candidate.id);
    const loaded = load(candidate, ctx);
    if (bucket === undefined) buckets.set(candidate.id, [loaded]);
    else bucket.push(loaded);
  }

  const diagnostics = rootDiagnostics(snapshot.sources);
  const entries: RecipeEntry[] = [];
  const active = new Map<string, RecipeEntry>();
  const tools: ToolSpec[] = [];

  for (const [id, bucket] of buckets) {
    bucket.sort((a, b) => compareCandidates(a.candidate, b.candidate));
    const winner = bucket[0]!;
    const winnerPath = winner.candidate.file.path;
    const shadows = bucket.slice(1).map((l) => l.candidate.file.path);
    const invalid = winner.config === undefined;
    const disabled = winner.config?.disabled === true;
    if (invalid) diagnostics.push(`Recipe ${id} is invalid and blocks lower-priority recipes`);
    else if (disabled) diagnostics.push(`Recipe ${id} is disabled and blocks lower-priority recipes`);
    if (shadows.length > 0) diagnostics.push(`Recipe ${id} shadows ${shadows.length} lower-priority recipe(s)`);

    let exposed: ToolSpec | undefined;
    bucket.forEach((loaded, index) => {
      const { candidate } = loaded;
      const isWinner = index === 0;
      const own = ownDiagnostics(loaded);
      if (!isWinner && candidate.format === "md" && winner.candidate.format === "json" && candidate.priority === winner.candidate.priority) {
        own.push(`Markdown recipe ${candidate.file.path} is shadowed by JSON recipe ${winnerPath}`);
      }
      const config = loaded.config;
      const entry: Mutable<RecipeEntry> = {
        id,
        path: candidate.file.path,
        format: candidate.format,
        priority: candidate.priority,
        sourceRoot: candidate.source.root,
        toolSource: candidate.source.tool,
        mutableUsage: candidate.source.mutableUsage,
        size: candidate.file.size,
        mtimeMs: candidate.file.mtimeMs,
        invalid: config === undefined,
        disabled: config?.disabled === true,
        active: isWinner,
        shadowed: !isWinner,
        shadows: isWinner ? shadows : NONE,
        riskLabels: config === undefined ? NONE : riskLabels(config),
        diagnostics: own,
        tool: false,
      };
      if (config !== undefined) entry.config = config;
      if (loaded.problem !== undefined) entry.problem = loaded.problem;
      if (!isWinner) entry.shadowedBy = winnerPath;
      if (isWinner && candidate.source.tool && config !== undefined && !disabled) {
        if (RESERVED_TOOL_NAMES.includes(id)) {
          diagnostics.push(`Reserved tool name: ${id}`);
        } else {
          const converted = toolFromEntry(id, candidate.file.path, candidate.format, config);
          if (E.isRight(converted)) {
            exposed = converted.right;
            entry.tool = true;
          } else {
            own.push(`Recipe ${id} could not be exposed as a tool: ${converted.left}`);
          }
        }
      }
      entries.push(entry);
      if (isWinner) active.set(id, entry);
      diagnostics.push(...own);
    });
    if (exposed !== undefined) tools.push(exposed);
  }

  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const drafts = [...snapshot.drafts]
    .filter((f) => recipeFileName(basename(f.path)) !== undefined)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => draftEntry(f, options.digest?.(f), ctx));
  return { entries, active, tools, diagnostics, drafts };
}
