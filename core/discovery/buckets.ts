// Resolving one id's bucket: the winner, what it shadows, the
// entries, the bucket's diagnostics and the tool it exposes. The result is kept on the winning
// candidate and reused while the bucket holds the same candidates with the same loaded recipes.
import * as E from "fp-ts/lib/Either.js";
import type { SourceListing } from "../model.js";
import { RESERVED_TOOL_NAMES } from "../model.js";
import type { BucketMemo, Candidate, Group, LoadedRecipe } from "./pass-records.js";
import type { RecipeEntry } from "./discovery-result.js";
import type { ToolSpec } from "../tool/tool-spec.js";
import { disabledBlocks, invalidBlocks, markdownShadowed, notExposed, reservedName, reservedRecipe, shadowsLower } from "./diagnostic-texts.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NONE: readonly string[] = [];

// what a bucket reads of its members' source listings (a listing is rebuilt on every pass)
const sameSource = (a: SourceListing, b: SourceListing): boolean => a.root === b.root && a.tool === b.tool && a.mutableUsage === b.mutableUsage;

const sameMember = (m: BucketMemo, i: number, c: Candidate, sources: readonly SourceListing[]): boolean =>
  m.members[i] === c && m.seen[2 * i] === c.loaded && sameSource(m.seen[2 * i + 1] as SourceListing, sources[c.priority]!);

function reusable(m: BucketMemo | undefined, group: Group, sources: readonly SourceListing[]): m is BucketMemo {
  if (m === undefined) return false;
  if (!Array.isArray(group)) return m.members.length === 1 && sameMember(m, 0, group, sources);
  return m.members.length === group.length && group.every((c, i) => sameMember(m, i, c, sources));
}

function resolve(id: string, bucket: readonly Candidate[], sources: readonly SourceListing[]): BucketMemo {
  const diagnostics: string[] = [];
  const entries: RecipeEntry[] = [];
  const winner = bucket[0]!;
  const winnerCompiled = winner.loaded!.compiled;
  const winnerPath = winner.file.path;
  const shadows = bucket.length > 1 ? bucket.slice(1).map((c) => c.file.path) : NONE;
  const disabled = winnerCompiled.kind === "recipe" && winnerCompiled.disabled;
  if (winnerCompiled.kind === "problem") diagnostics.push(invalidBlocks(id));
  else if (disabled) diagnostics.push(disabledBlocks(id));
  if (shadows.length > 0) diagnostics.push(shadowsLower(id, shadows.length));

  let exposed: ToolSpec | undefined;
  bucket.forEach((candidate, index) => {
    const recipe = candidate.loaded!;
    const compiled = recipe.compiled;
    const source = sources[candidate.priority]!;
    const isWinner = index === 0;
    let own = compiled.diagnostics;
    if (!isWinner && candidate.format === "md" && winner.format === "json" && candidate.priority === winner.priority) {
      own = [...own, markdownShadowed(candidate.file.path, winnerPath)];
    }
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
      invalid: compiled.kind === "problem",
      disabled: compiled.kind === "recipe" && compiled.disabled,
      active: isWinner,
      shadowed: !isWinner,
      shadows: isWinner ? shadows : NONE,
      riskLabels: compiled.kind === "recipe" ? compiled.riskLabels : NONE,
      diagnostics: own,
      tool: false,
      compiled,
    };
    if (compiled.kind === "recipe") entry.config = compiled.config;
    if (recipe.facts !== undefined) entry.facts = recipe.facts;
    if (compiled.kind === "recipe" && compiled.sourceSha256 !== undefined) entry.sourceSha256 = compiled.sourceSha256;
    if (compiled.kind === "problem") entry.problem = compiled.problem;
    if (!isWinner) entry.shadowedBy = winnerPath;
    if (isWinner && source.tool && recipe.tool !== undefined) {
      if (RESERVED_TOOL_NAMES.includes(id)) {
        diagnostics.push(reservedName(id));
        // the file itself is a problem of its own, named by its path: the name alone does not say
        // which file to rename
        own = [...own, reservedRecipe(candidate.file.path, id)];
        entry.diagnostics = own;
        entry.reservedName = true;
      } else {
        const converted = recipe.tool;
        if (E.isRight(converted)) {
          exposed = converted.right;
          entry.tool = true;
        } else {
          own = [...own, notExposed(id, converted.left.message)];
          entry.diagnostics = own;
        }
      }
    }
    entries.push(entry);
    for (const d of own) diagnostics.push(d);
  });
  return {
    members: bucket,
    seen: seenOf(bucket, sources),
    entries,
    // most buckets have none: one shared empty list
    diagnostics: diagnostics.length === 0 ? NONE : diagnostics,
    ...(exposed === undefined ? {} : { tool: exposed }),
  };
}

function seenOf(bucket: readonly Candidate[], sources: readonly SourceListing[]): (LoadedRecipe | SourceListing | undefined)[] {
  const seen: (LoadedRecipe | SourceListing | undefined)[] = [];
  for (const c of bucket) seen.push(c.loaded, sources[c.priority]);
  return seen;
}

/** The resolved bucket of `id`; every member has been loaded (`candidate.loaded` is set). */
export function resolveBucket(id: string, group: Group, sources: readonly SourceListing[]): BucketMemo {
  const winner = Array.isArray(group) ? group[0]! : group;
  if (reusable(winner.bucket, group, sources)) return winner.bucket;
  const memo = resolve(id, Array.isArray(group) ? group : [group], sources);
  winner.bucket = memo;
  return memo;
}
