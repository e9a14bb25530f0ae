// Recipe files of the discovery sources as candidates for an id, in the order that decides
// shadowing.
//
// With a cache, a candidate is the same object for the same SnapshotFile from one pass to the
// next (it carries that file's loaded recipe and bucket, see compile-pass.ts), and the order is kept
// between passes: the previous order minus what vanished, merged with what is new. A refresh of
// 10,000 files then sorts only the files that changed.
import type { SnapshotFile, SourceListing } from "../model.js";
import { basename, recipeFileName } from "./paths.js";
import type { Candidate } from "./pass-records.js";
import { compareText } from "../text-order.js";


export const compareCandidates = (a: Candidate, b: Candidate): number =>
  a.priority - b.priority ||
  compareText(a.key, b.key) ||
  (a.format === b.format ? 0 : a.format === "json" ? -1 : 1);

export interface CandidateCache {
  pass: number;
  sorted: readonly Candidate[];
  byFile: WeakMap<SnapshotFile, Candidate>;
}

export const createCandidateCache = (): CandidateCache => ({ pass: 0, sorted: [], byFile: new WeakMap() });

function candidate(file: SnapshotFile, priority: number): Candidate | undefined {
  const parsed = recipeFileName(basename(file.path));
  if (parsed === undefined) return undefined;
  const key = parsed.format === "md" ? file.path.slice(0, -3) + ".json" : file.path;
  return { id: parsed.id, format: parsed.format, file, priority, key, mark: -1 };
}

function merge(a: readonly Candidate[], b: readonly Candidate[]): Candidate[] {
  if (b.length === 0) return a as Candidate[];
  const out: Candidate[] = new Array<Candidate>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareCandidates(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** Every recipe file of the sources, sorted by priority, then path (`.md` as `.json`), JSON first. */
export function candidatesOf(sources: readonly SourceListing[], cache: CandidateCache = createCandidateCache()): readonly Candidate[] {
  const pass = ++cache.pass;
  const fresh: Candidate[] = [];
  for (let priority = 0; priority < sources.length; priority++) {
    for (const file of sources[priority]!.files) {
      let c = cache.byFile.get(file);
      if (c === undefined || c.priority !== priority) {
        c = candidate(file, priority);
        if (c === undefined) continue;
        cache.byFile.set(file, c);
      } else if (c.mark === pass) {
        // the same file object listed twice: the second listing gets a candidate of its own
        c = candidate(file, priority)!;
      }
      if (c.mark !== pass - 1) fresh.push(c);
      c.mark = pass;
    }
  }
  const kept = cache.sorted.filter((c) => c.mark === pass);
  cache.sorted = merge(kept, fresh.sort(compareCandidates));
  return cache.sorted;
}

/**
 * Swaps candidates in place for files replaced by files of the same path and priority (an edit):
 * the order does not change. Returns the old and new candidate of each pair, or undefined, with
 * nothing changed, when a replaced file is not a listed candidate (then list afresh).
 */
export function replaceCandidates(
  cache: CandidateCache, replaced: readonly (readonly [SnapshotFile, SnapshotFile, number])[],
): (readonly [Candidate, Candidate])[] | undefined {
  const sorted = cache.sorted as Candidate[];
  const found: (readonly [Candidate, number, SnapshotFile])[] = [];
  for (const [old, next, priority] of replaced) {
    const c = cache.byFile.get(old);
    if (c === undefined || c.priority !== priority || c.mark !== cache.pass || cache.byFile.has(next)) return undefined;
    const at = sorted.indexOf(c);
    if (at < 0 || found.some(([seen]) => seen === c)) return undefined;
    found.push([c, at, next]);
  }
  return found.map(([c, at, next]) => {
    const fresh: Candidate = { id: c.id, format: c.format, file: next, priority: c.priority, key: c.key, mark: cache.pass };
    cache.byFile.set(next, fresh);
    c.mark = -1;
    sorted[at] = fresh;
    return [c, fresh] as const;
  });
}
