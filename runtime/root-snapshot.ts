// The whole-root snapshot: the assembled discovery of the roots (every entry, the winners, the
// tools, the registry diagnostics and the drafts: core/discovery/discovery-result.ts), kept as the
// optional `root` section of the compile cache file (runtime/compile-cache-file.ts), so that a
// discovery of unchanged roots checks no cache entry and resolves nothing: it lists the roots, looks
// at each path once (a stat) and assembles the Discovery from the section and the entries the file
// holds anyway. It generalises the list index (runtime/list-index.ts) from what `list` shows to the
// whole Discovery, and follows the same rules; the section is used only when:
//
// - the file was written by the same code for the same context (the compile cache file's header
//   says so), and from the same working directory when any recipe's or draft's resolution read a
//   path (an import path may be relative to it);
// - every root lists the same recipe file names (the user recipe root and the packaged root, with
//   the same mode, and the draft root: a Discovery carries the drafts), each present or absent as
//   before, and none of those names a FIFO, socket or device (folders and symlinks are not listed);
// - every path the writing discovery looked at has the identity recorded: each listed recipe
//   file (the identity of its compile cache entry), each draft, each import, delegation target
//   and probe that found nothing (no regular file there then and now);
// - every recorded identity is strictly older than the writing pass's start on the file system's
//   clock (runtime/compile-cache.ts explains the clock): a file rewritten within the tick in which
//   the pass read it cannot look unchanged, since the section is not written at all when a file is
//   that new (the cache file is then written all the same, so that the next pass's clock, the
//   rewritten file's ctime, is newer: see TOO_NEW).
//
// Anything else is a miss: the discovery runs through the compile cache as before (every other
// entry is still served) and the file is written again with a new section. A damaged section is a
// miss, never an error. A root that cannot be listed, a recipe name that is no regular file (a
// symlink named like a recipe included: its diagnostic must go when it goes), or a
// recipe without a compile cache entry (too large to read, unreadable) is never snapshotted: the
// full discovery reports it each time. docs/performance.md has the measurements.
//
// What is stored is only what the compile cache entries do not give: per entry its source, file
// name, size and mtime (as the pass saw them) and its diagnostics when resolution added one (a
// shadowed Markdown twin, a tool that could not be built); the entry order (which is the
// resolution's: ids in order of first appearance, winner first), the tools as entry indices in
// tool order, the registry diagnostics and the draft entries. Shadowing and activity follow from
// the order; a tool is rebuilt with `toolOf` from the served compile, as discovery builds it
// (storing the tools instead would cost about as much to parse and make the file 29 % larger:
// docs/performance.md, "The whole-root snapshot").
import type { Discovery, DraftEntry, RecipeEntry } from "../core/discovery/discovery-result.js";
import { configFacts, type ConfigFacts } from "../core/discovery/discovery-result.js";
import type { CompiledConfig } from "../core/compile/compile-recipe.js";
import { toolOf } from "../core/compile/tool.js";
import { recipeFileName } from "../core/discovery/paths.js";
import { RESERVED_TOOL_NAMES, type RegistrySnapshot, type SourceListing } from "../core/model.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import type { FileIdentity, ScanPort, ScanResult } from "../adapters/fs/scan.js";
import { checkedEntry, isObject, isStrings, olderThan, servedCompile, statStillAsRecorded, type Entry, type Id } from "./compile-cache-file.js";
import { namesListedNow, type Revived } from "./recipe-snapshot.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** one entry: source index, file name, size and mtimeMs as the pass saw them, and its
 *  diagnostics when they are not its compile result's */
type Rec = readonly [number, string, number, number, (readonly string[])?];

interface SectionSource {
  readonly dir: string;
  readonly present: boolean;
  /** the root folder's mode when present */
  readonly mode: number | null;
  readonly tool: boolean;
  readonly mutableUsage: boolean;
}

export interface RootSection {
  /** the writing pass's start on the file system's clock (ns) */
  readonly t: string;
  /** the working directory, when a recipe's or a draft's resolution read a path */
  readonly cwd?: string;
  /** the discovery sources (user recipe root, then the packaged root), in priority order */
  readonly sources: readonly SectionSource[];
  readonly draftRoot: { readonly dir: string; readonly present: boolean };
  readonly entries: readonly Rec[];
  /** the tools, in their order, as indices into `entries` */
  readonly tools: readonly number[];
  readonly diagnostics: readonly string[];
  readonly drafts: readonly DraftEntry[];
  /** the identity of each draft file, in the order of `drafts` */
  readonly draftIds: readonly Id[];
  /** every other path the discovery looked at (imports, delegation targets, probes), with its
   *  identity then (null: no regular file) */
  readonly extra: readonly (readonly [string, Id | null])[];
}

/** What the pass that wrote the section relied on (compile-cache.ts keeps it). */
export interface SectionInputs {
  readonly start: bigint | undefined;
  readonly observed: ReadonlyMap<string, Id | null>;
  /** a recipe's or a draft's resolution read a path */
  readonly readPaths: boolean;
  /** the entries the cache file will hold (path -> entry) */
  readonly entries: Readonly<Record<string, Entry>>;
  /** the draft root as the pass listed it, with each draft file's identity */
  readonly drafts: { readonly dir: string; readonly present: boolean; readonly error?: string; readonly ids: ReadonlyMap<string, Id | null> } | undefined;
  readonly cwd: string;
}

const NONE: readonly string[] = [];

/** What `rootSection` answers when the only thing that kept the section out is a file as new as
 *  the pass's clock: the cache file is then written all the same, so that the next pass reads a
 *  newer clock (the rewritten file's ctime) and can vouch for it. Without that, a draft or an
 *  import rewritten in the very tick of a cache write would keep every later pass from writing a
 *  section until something else wrote the cache. */
export const TOO_NEW = "too-new";

/** The section for the discovery `discovery` of `snapshot`; undefined when that pass cannot vouch
 *  for it (see the top of this file), TOO_NEW when it could but for a file as new as its clock. */
export function rootSection(discovery: Discovery, snapshot: RegistrySnapshot, inputs: SectionInputs): RootSection | typeof TOO_NEW | undefined {
  const { start, observed, entries, drafts } = inputs;
  let tooNew = false;
  if (start === undefined || drafts === undefined || drafts.error !== undefined) return undefined;
  const sources: SectionSource[] = [];
  const listed = new Set<string>();
  for (const source of snapshot.sources) {
    // a symlink named like a recipe, or a stray entry: its diagnostic would outlive it (its
    // removal leaves the names)
    if (source.kind !== "root" || source.error !== undefined || (source.present && source.rootMode === undefined) || source.links !== undefined || source.strays !== undefined) return undefined;
    for (const f of source.files) {
      const e = entries[f.path];
      if (e === undefined || observed.get(f.path) !== e.id) return undefined;
      if (!olderThan(e.id, start)) tooNew = true;
      listed.add(f.path);
    }
    sources.push({ dir: source.root, present: source.present, mode: source.rootMode ?? null, tool: source.tool, mutableUsage: source.mutableUsage });
  }
  // every listed file is one entry (discovery lists the same names the roots give)
  if (discovery.entries.length !== listed.size) return undefined;
  const recs: Rec[] = [];
  const toolAt = new Map<string, number>();
  for (const entry of discovery.entries) {
    const dir = sources[entry.priority]?.dir;
    if (dir === undefined || !entry.path.startsWith(dir + "/")) return undefined;
    const name = entry.path.slice(dir.length + 1);
    if (entry.tool) toolAt.set(entry.path, recs.length);
    recs.push(entry.diagnostics === entry.compiled.diagnostics
      ? [entry.priority, name, entry.size, entry.mtimeMs]
      : [entry.priority, name, entry.size, entry.mtimeMs, entry.diagnostics]);
  }
  const tools: number[] = [];
  for (const tool of discovery.tools) {
    const at = toolAt.get(tool.path);
    if (at === undefined) return undefined;
    tools.push(at);
  }
  if (discovery.drafts.length !== snapshot.drafts.length) return undefined;
  const draftIds: Id[] = [];
  for (const d of discovery.drafts) {
    const id = drafts.ids.get(d.path);
    if (id == null) return undefined;
    if (!olderThan(id, start)) tooNew = true;
    draftIds.push(id);
  }
  const extra: (readonly [string, Id | null])[] = [];
  for (const [path, id] of observed) {
    if (listed.has(path)) continue;
    if (id !== null && !olderThan(id, start)) tooNew = true;
    extra.push([path, id]);
  }
  if (tooNew) return TOO_NEW;
  const cwdMatters = inputs.readPaths || extra.length > 0;
  return {
    t: String(start),
    ...(cwdMatters ? { cwd: inputs.cwd } : {}),
    sources,
    draftRoot: { dir: drafts.dir, present: drafts.present },
    entries: recs,
    tools,
    diagnostics: discovery.diagnostics,
    drafts: discovery.drafts,
    draftIds,
    extra,
  };
}

function checkedSection(x: unknown): RootSection | undefined {
  if (!isObject(x)) return undefined;
  const s = x as Partial<Record<keyof RootSection, unknown>>;
  if (typeof s.t !== "string" || !/^\d+$/.test(s.t) || !(s.cwd === undefined || typeof s.cwd === "string")) return undefined;
  if (!Array.isArray(s.sources) || !isObject(s.draftRoot) || typeof s.draftRoot["dir"] !== "string" || typeof s.draftRoot["present"] !== "boolean") return undefined;
  for (const src of s.sources as unknown[]) {
    if (!isObject(src) || typeof src["dir"] !== "string" || typeof src["present"] !== "boolean" || !(src["mode"] === null || typeof src["mode"] === "number")) return undefined;
    if (typeof src["tool"] !== "boolean" || typeof src["mutableUsage"] !== "boolean") return undefined;
  }
  if (!Array.isArray(s.entries) || !Array.isArray(s.tools) || !isStrings(s.diagnostics) || !isStrings(s.draftIds) || !Array.isArray(s.extra)) return undefined;
  if (!Array.isArray(s.drafts) || s.drafts.length !== s.draftIds.length || !(s.drafts as unknown[]).every((d) => isObject(d) && typeof d["path"] === "string")) return undefined;
  for (const p of s.extra as unknown[]) if (!Array.isArray(p) || typeof p[0] !== "string" || !(p[1] === null || typeof p[1] === "string")) return undefined;
  return x as unknown as RootSection;
}

const validRec = (r: unknown, sources: number): r is Rec =>
  Array.isArray(r) && Number.isInteger(r[0]) && r[0] >= 0 && r[0] < sources && typeof r[1] === "string" && typeof r[2] === "number" && typeof r[3] === "number" &&
  (r[4] === undefined || isStrings(r[4]));

export interface Expected {
  /** the sources discovery would read now, in priority order */
  readonly sources: readonly { readonly dir: string; readonly tool: boolean }[];
  readonly draftRoot: string;
  readonly cwd: string;
}

/** The Discovery the section `raw` holds, when it describes the roots as they are now (see the top
 *  of this file); else undefined. `entries` are the cache file's entries (path -> entry). */
export function revivedDiscovery(
  scan: ScanPort, raw: unknown, entries: Readonly<Record<string, unknown>>, expected: Expected,
): Revived | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined) return undefined;
  try {
    return revive(scan, identity, raw, entries, expected);
  } catch {
    // a section of the right shape whose values still do not fit (a damaged file): a miss
    return undefined;
  }
}

function revive(
  scan: ScanPort, identity: (p: string) => ScanResult<FileIdentity>, raw: unknown, stored: Readonly<Record<string, unknown>>, expected: Expected,
): Revived | undefined {
  const s = checkedSection(raw);
  if (s === undefined || (s.cwd !== undefined && s.cwd !== expected.cwd)) return undefined;
  if (s.sources.length !== expected.sources.length || s.draftRoot.dir !== expected.draftRoot) return undefined;
  const t = BigInt(s.t);
  // the listings: each root's names as they are now, ticked off by the entries below
  const names: Set<string>[] = [];
  for (let i = 0; i < s.sources.length; i++) {
    const src = s.sources[i]!;
    const want = expected.sources[i]!;
    if (src.dir !== want.dir || src.tool !== want.tool) return undefined;
    const now = namesListedNow(scan, src.dir, src.present, src.mode);
    if (now === undefined) return undefined;
    names.push(now);
  }
  const draftNames = namesListedNow(scan, s.draftRoot.dir, s.draftRoot.present, undefined, false);
  if (draftNames === undefined || draftNames.size !== s.drafts.length) return undefined;
  for (let i = 0; i < s.drafts.length; i++) {
    const path = s.drafts[i]!.path;
    const was = s.draftIds[i]!;
    if (!path.startsWith(s.draftRoot.dir + "/") || !draftNames.delete(path.slice(s.draftRoot.dir.length + 1))) return undefined;
    if (!statStillAsRecorded(identity(path), was, t)) return undefined;
  }
  for (let i = 0; i < s.extra.length; i++) {
    const path = s.extra[i]![0], was = s.extra[i]![1];
    if (!statStillAsRecorded(identity(path), was, t)) return undefined;
  }

  const n = s.entries.length;
  // a file added or removed shows in the counts: no need to look at every path first
  const counts = names.map(() => 0);
  // (indexed loops here and below: this runs once per process, mostly before the code is optimised,
  // where an array iterator costs an object per step)
  for (let i = 0; i < n; i++) {
    const rec = s.entries[i];
    if (Array.isArray(rec) && counts[rec[0] as number] !== undefined) counts[rec[0] as number]!++;
  }
  if (counts.some((c, i) => c !== names[i]!.size)) return undefined;
  const isTool = new Uint8Array(n);
  for (let k = 0; k < s.tools.length; k++) {
    const i = s.tools[k]!;
    if (!Number.isInteger(i) || i < 0 || i >= n) return undefined;
    isTool[i] = 1;
  }
  const entries: RecipeEntry[] = new Array<RecipeEntry>(n);
  const active = new Map<string, RecipeEntry>();
  const observed = new Map<string, Id | null>();
  const facts: (ConfigFacts | undefined)[] = new Array<ConfigFacts | undefined>(n);
  let winner: Mutable<RecipeEntry> | undefined;
  for (let i = 0; i < n; i++) {
    const rec = s.entries[i];
    if (!validRec(rec, s.sources.length)) return undefined;
    const priority = rec[0], name = rec[1], size = rec[2], mtimeMs = rec[3], diagnostics = rec[4];
    const src = s.sources[priority]!;
    // each listed name is one entry, once
    if (!names[priority]!.delete(name)) return undefined;
    const parsed = recipeFileName(name);
    if (parsed === undefined) return undefined;
    const path = src.dir + "/" + name;
    const e = checkedEntry(stored[path]);
    if (e === undefined || !statStillAsRecorded(identity(path), e.id, t)) return undefined;
    observed.set(path, e.id);
    const compiled = servedCompile(e, path);
    const isWinner = winner === undefined || winner.id !== parsed.id;
    const entry: Mutable<RecipeEntry> = {
      id: parsed.id,
      path,
      format: parsed.format,
      priority,
      sourceRoot: src.dir,
      toolSource: src.tool,
      mutableUsage: src.mutableUsage,
      size,
      mtimeMs,
      invalid: compiled.kind === "problem",
      disabled: compiled.kind === "recipe" && compiled.disabled,
      active: isWinner,
      shadowed: !isWinner,
      shadows: NONE,
      riskLabels: compiled.kind === "recipe" ? compiled.riskLabels : NONE,
      diagnostics: diagnostics ?? compiled.diagnostics,
      tool: isTool[i] === 1,
      compiled,
    };
    if (compiled.kind === "recipe") {
      entry.config = compiled.config;
      entry.facts = facts[i] = configFacts(compiled.config);
      if (compiled.sourceSha256 !== undefined) entry.sourceSha256 = compiled.sourceSha256;
    } else entry.problem = compiled.problem;
    if (isWinner) {
      // as discovery marks it (core/discovery/buckets.ts): an enabled, valid winner of a tool
      // source named like a built-in tool
      if (src.tool && compiled.kind === "recipe" && !compiled.disabled && RESERVED_TOOL_NAMES.includes(parsed.id)) entry.reservedName = true;
      winner = entry;
      active.set(entry.id, entry);
    } else {
      entry.shadowedBy = winner!.path;
      // the winner's list of what it shadows, in order (its key already in place)
      winner!.shadows = winner!.shadows === NONE ? [path] : [...winner!.shadows, path];
    }
    entries[i] = entry;
  }
  for (let k = 0; k < names.length; k++) if (names[k]!.size > 0) return undefined;

  const tools: ToolSpec[] = [];
  for (let k = 0; k < s.tools.length; k++) {
    const i = s.tools[k]!;
    const entry = entries[i]!;
    if (entry.compiled.kind !== "recipe" || !entry.active) return undefined;
    const tool = toolOf(entry.compiled as CompiledConfig, facts[i]);
    if (tool._tag !== "Right") return undefined;
    tools.push(tool.right);
  }
  for (let i = 0; i < s.extra.length; i++) observed.set(s.extra[i]![0], s.extra[i]![1]);
  // (a root that could not be listed is never snapshotted)
  const discovery: Discovery = { entries, active, tools, diagnostics: s.diagnostics, drafts: s.drafts, unlisted: [] };
  const sources = (): SourceListing[] => s.sources.map((src, priority) => ({
    kind: "root",
    root: src.dir,
    present: src.present,
    tool: src.tool,
    mutableUsage: src.mutableUsage,
    files: entries.filter((e) => e.priority === priority).map((e) => ({ path: e.path, size: e.size, mtimeMs: e.mtimeMs, birthtimeMs: 0 })),
    ...(src.mode === null ? {} : { rootMode: src.mode }),
  }));
  const drafts = { dir: s.draftRoot.dir, present: s.draftRoot.present, ids: new Map(s.drafts.map((d, i) => [d.path, s.draftIds[i]!] as const)), readPaths: s.cwd !== undefined };
  return { discovery, sources, inputs: { start: t, observed, readPaths: s.cwd !== undefined, drafts } };
}
