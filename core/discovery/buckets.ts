// Resolving one id's bucket (registry-reference §1.5, §1.6): the winner, what it shadows, the
// entries, the bucket's diagnostics and the tool it exposes. The result is kept on the winning
// candidate and reused while the bucket holds the same candidates with the same loaded recipes.
import * as E from "fp-ts/lib/Either.js";
import type { SourceListing } from "../model.js";
import { RESERVED_TOOL_NAMES } from "../model.js";
import type { Candidate } from "./candidates.js";
import { type LoadedRecipe, ownDiagnostics, riskLabelsOf, toolOf } from "./memo.js";
import type { RecipeEntry, ToolSpec } from "./types.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const NONE: readonly string[] = [];

export interface BucketMemo {
  readonly members: readonly Candidate[];
  readonly loaded: readonly (LoadedRecipe | undefined)[];
  /** the source of each member (entries show its root and flags) */
  readonly sources: readonly (SourceListing | undefined)[];
  readonly entries: readonly RecipeEntry[];
  /** the bucket's part of the registry diagnostics, in order */
  readonly diagnostics: readonly string[];
  readonly tool?: ToolSpec;
}

/** One id's candidates: a single candidate, or several in priority order. */
export type Group = Candidate | Candidate[];

const sameSource = (a: SourceListing | undefined, b: SourceListing | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.root === b.root && a.tool === b.tool && a.mutableUsage === b.mutableUsage);

const sameMember = (m: BucketMemo, i: number, c: Candidate, sources: readonly SourceListing[]): boolean =>
  m.members[i] === c && m.loaded[i] === c.loaded && sameSource(m.sources[i], sources[c.priority]);

function reusable(m: BucketMemo | undefined, group: Group, sources: readonly SourceListing[]): m is BucketMemo {
  if (m === undefined) return false;
  if (!Array.isArray(group)) return m.members.length === 1 && sameMember(m, 0, group, sources);
  return m.members.length === group.length && group.every((c, i) => sameMember(m, i, c, sources));
}

function resolve(id: string, bucket: readonly Candidate[], sources: readonly SourceListing[]): BucketMemo {
  const diagnostics: string[] = [];
  const entries: RecipeEntry[] = [];
  const winner = bucket[0]!;
  const winnerRecipe = winner.loaded!;
  const winnerPath = winner.file.path;
  const shadows = bucket.length > 1 ? bucket.slice(1).map((c) => c.file.path) : NONE;
  const disabled = winnerRecipe.config?.disabled === true;
  if (winnerRecipe.config === undefined) diagnostics.push(`Recipe ${id} is invalid and blocks lower-priority recipes`);
  else if (disabled) diagnostics.push(`Recipe ${id} is disabled and blocks lower-priority recipes`);
  if (shadows.length > 0) diagnostics.push(`Recipe ${id} shadows ${shadows.length} lower-priority recipe(s)`);

  let exposed: ToolSpec | undefined;
  bucket.forEach((candidate, index) => {
    const recipe = candidate.loaded!;
    const source = sources[candidate.priority]!;
    const isWinner = index === 0;
    let own = ownDiagnostics(recipe);
    if (!isWinner && candidate.format === "md" && winner.format === "json" && candidate.priority === winner.priority) {
      own = [...own, `Markdown recipe ${candidate.file.path} is shadowed by JSON recipe ${winnerPath}`];
    }
    const config = recipe.config;
    const entry: Mutable<RecipeEntry> = {
      id,
      path: candidate.file.path,
      format: candidate.format,
      priority: candidate.priority,
      sourceRoot: source.root,
      toolSource: source.tool,
      mutableUsage: source.mutableUsage,
      size: candidate.file.size,
      mtimeMs: candidate.file.mtimeMs,
      invalid: config === undefined,
      disabled: config?.disabled === true,
      active: isWinner,
      shadowed: !isWinner,
      shadows: isWinner ? shadows : NONE,
      riskLabels: riskLabelsOf(recipe),
      diagnostics: own,
      tool: false,
    };
    if (config !== undefined) entry.config = config;
    if (recipe.sourceSha256 !== undefined) entry.sourceSha256 = recipe.sourceSha256;
    if (recipe.problem !== undefined) entry.problem = recipe.problem;
    if (!isWinner) entry.shadowedBy = winnerPath;
    if (isWinner && source.tool && config !== undefined && !disabled) {
      if (RESERVED_TOOL_NAMES.includes(id)) {
        diagnostics.push(`Reserved tool name: ${id}`);
      } else {
        const converted = toolOf(recipe, candidate, config);
        if (E.isRight(converted)) {
          exposed = converted.right;
          entry.tool = true;
        } else {
          own = [...own, `Recipe ${id} could not be exposed as a tool: ${converted.left}`];
          entry.diagnostics = own;
        }
      }
    }
    entries.push(entry);
    for (const d of own) diagnostics.push(d);
  });
  return {
    members: bucket,
    loaded: bucket.map((c) => c.loaded),
    sources: bucket.map((c) => sources[c.priority]),
    entries,
    diagnostics,
    ...(exposed === undefined ? {} : { tool: exposed }),
  };
}

/** The resolved bucket of `id`; every member has been loaded (`candidate.loaded` is set). */
export function resolveBucket(id: string, group: Group, sources: readonly SourceListing[]): BucketMemo {
  const winner = Array.isArray(group) ? group[0]! : group;
  if (reusable(winner.bucket, group, sources)) return winner.bucket;
  const memo = resolve(id, Array.isArray(group) ? group : [group], sources);
  winner.bucket = memo;
  return memo;
}
