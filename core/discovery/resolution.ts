// The global stage of discovery: ids, buckets, entries, diagnostics and tools from the ordered
// candidates. `resolveAll` walks every candidate; `patchResolution` handles the common refresh
// (files replaced by files of the same path: edits) in time proportional to what changed, by
// patching the previous result. Both produce the same Discovery for the same snapshot.
import type { SnapshotFile, SourceListing } from "../model.js";
import { resolveBucket } from "./buckets.js";
import { candidatesOf, replaceCandidates } from "./candidates.js";
import type { BucketMemo, Candidate, Group, Resolution, Slot } from "./pass-records.js";
import type { Pass } from "./compile-pass.js";
import { PatchedMap } from "./patched-map.js";
import type { RecipeEntry } from "./discovery-result.js";
import type { ToolSpec } from "../tool/tool-spec.js";
import { compareText } from "../text-order.js";



const byName = (a: ToolSpec, b: ToolSpec): number => compareText(a.name, b.name);

const members = (g: Group): readonly Candidate[] => (Array.isArray(g) ? g : [g]);

export function resolveAll(sources: readonly SourceListing[], rootDiagnostics: readonly string[], pass: Pass): Resolution {
  // ids in order of first appearance; candidates arrive sorted, so each group is in priority order
  const groups = new Map<string, Group>();
  const readers = new Set<Candidate>();
  for (const candidate of candidatesOf(sources, pass.candidates)) {
    if (pass.recipe(candidate).reads.length > 0) readers.add(candidate);
    const group = groups.get(candidate.id);
    if (group === undefined) groups.set(candidate.id, candidate);
    else if (Array.isArray(group)) group.push(candidate);
    else groups.set(candidate.id, [group, candidate]);
  }
  const slots = new Map<string, Slot>();
  const diagnostics = [...rootDiagnostics];
  const entries: RecipeEntry[] = [];
  const active = new Map<string, RecipeEntry>();
  const tools: ToolSpec[] = [];
  for (const [id, group] of groups) {
    const bucket = resolveBucket(id, group, sources);
    slots.set(id, { group, bucket, start: entries.length });
    for (const entry of bucket.entries) entries.push(entry);
    active.set(id, bucket.entries[0]!);
    for (const d of bucket.diagnostics) diagnostics.push(d);
    if (bucket.tool !== undefined) tools.push(bucket.tool);
  }
  // nearly sorted already (candidates are in path order), which the sort is quick to notice
  tools.sort(byName);
  return { sources, slots, rootDiagnostics, readers, result: { entries, active, tools, diagnostics } };
}

const sameListing = (a: SourceListing, b: SourceListing): boolean =>
  a.kind === b.kind && a.root === b.root && a.present === b.present && a.rootMode === b.rootMode &&
  a.tool === b.tool && a.mutableUsage === b.mutableUsage && a.error === b.error && sameStrings(a.links ?? NO_LINKS, b.links ?? NO_LINKS) &&
  sameStrings(a.strays ?? NO_LINKS, b.strays ?? NO_LINKS);

const NO_LINKS: readonly string[] = [];

const sameStrings = (a: readonly string[], b: readonly string[]): boolean =>
  a === b || (a.length === b.length && a.every((s, i) => s === b[i]));

/** beyond this many replaced files the full walk costs no more */
const PATCH_LIMIT = 64;

/** Files that took the place of a file with the same path, or undefined when the listing changed otherwise. */
function replacedFiles(before: readonly SourceListing[], after: readonly SourceListing[]): [SnapshotFile, SnapshotFile, number][] | undefined {
  if (before.length !== after.length) return undefined;
  const out: [SnapshotFile, SnapshotFile, number][] = [];
  for (let p = 0; p < after.length; p++) {
    const a = before[p]!;
    const b = after[p]!;
    if (!sameListing(a, b)) return undefined;
    if (a.files === b.files) continue;
    if (a.files.length !== b.files.length) return undefined;
    for (let i = 0; i < b.files.length; i++) {
      const x = a.files[i]!;
      const y = b.files[i]!;
      if (x === y) continue;
      if (x.path !== y.path || out.length >= PATCH_LIMIT) return undefined;
      out.push([x, y, p]);
    }
  }
  return out;
}

function withTool(tools: ToolSpec[], before: ToolSpec | undefined, after: ToolSpec | undefined): void {
  const name = (before ?? after)!.name;
  let lo = 0;
  let hi = tools.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tools[mid]!.name < name) lo = mid + 1;
    else hi = mid;
  }
  const present = tools[lo]?.name === name;
  if (after === undefined) {
    if (present) tools.splice(lo, 1);
  } else if (present) tools[lo] = after;
  else tools.splice(lo, 0, after);
}

/** The previous resolution brought up to date, or undefined when only a full walk can. */
export function patchResolution(prev: Resolution, sources: readonly SourceListing[], pass: Pass): Resolution | undefined {
  const replaced = replacedFiles(prev.sources, sources);
  if (replaced === undefined) return undefined;
  const pairs = replaceCandidates(pass.candidates, replaced);
  if (pairs === undefined) return undefined;

  const affected = new Set<string>();
  for (const [old, next] of pairs) {
    const slot = prev.slots.get(old.id)!;
    slot.group = Array.isArray(slot.group) ? slot.group.map((c) => (c === old ? next : c)) : next;
    prev.readers.delete(old);
    affected.add(old.id);
  }
  for (const reader of prev.readers) {
    const seen = reader.loaded;
    if (pass.recipe(reader) !== seen) affected.add(reader.id);
  }

  const changes: (readonly [Slot, BucketMemo])[] = [];
  for (const id of affected) {
    const slot = prev.slots.get(id)!;
    for (const c of members(slot.group)) {
      if (pass.recipe(c).reads.length > 0) prev.readers.add(c);
      else prev.readers.delete(c);
    }
    const bucket = resolveBucket(id, slot.group, sources);
    if (bucket !== slot.bucket) changes.push([slot, bucket]);
  }
  if (changes.length === 0) return { ...prev, sources };

  const before = prev.result;
  const entries = before.entries.slice();
  const tools = before.tools.slice();
  let diagnosticsSame = true;
  for (const [slot, bucket] of changes) {
    bucket.entries.forEach((e, i) => (entries[slot.start + i] = e));
    if (slot.bucket.tool !== bucket.tool) withTool(tools, slot.bucket.tool, bucket.tool);
    diagnosticsSame &&= sameStrings(slot.bucket.diagnostics, bucket.diagnostics);
    slot.bucket = bucket;
  }
  const active = PatchedMap.replace(before.active, changes.map(([, bucket]) => [bucket.entries[0]!.id, bucket.entries[0]!] as const));
  let diagnostics = before.diagnostics;
  if (!diagnosticsSame) {
    const all = [...prev.rootDiagnostics];
    for (const slot of prev.slots.values()) for (const d of slot.bucket.diagnostics) all.push(d);
    diagnostics = all;
  }
  return { ...prev, sources, result: { entries, active, tools, diagnostics } };
}
