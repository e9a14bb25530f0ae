// The list index: what `pi-recipes list` shows (core/views/list-view.ts: the tool names and the
// registry's errors), kept in `<recipe root>/.cache/list.json` together with everything the
// discovery that made it relied on. A `list` whose inputs did not change answers from this one
// small file: it lists the roots and looks at each path once (a stat, as the compile cache does),
// but reads no recipe, parses no compile cache and resolves nothing.
//
// The index is used only when it provably describes the roots as they are now:
//
// - it was written by the same code (package version and build hash) for the same context (agent
//   dir, recipe root, home, packaged root), and from the same working directory when any recipe's
//   resolution read a path (an import path may be relative to it; a registry whose recipes read
//   no other file answers the same from anywhere);
// - every root lists the same recipe file names (folders, symlinks and dot-files left out, as
//   discovery leaves them out), is present or absent as before, and has the same mode (a world-
//   or group-writable root is a diagnostic of discovery);
// - the drafts folder lists without an error, or is not there, as when the index was written (one
//   that cannot be listed is one of the list's errors; its drafts are not the list's);
// - every path the discovery looked at (each listed recipe file, each import or delegation target,
//   each probe that found nothing) has the identity recorded: device, inode, size, mtime and ctime
//   in nanoseconds, or still no regular file there;
// - every recorded identity is strictly older than the writing pass's start on the file system's
//   clock (runtime/compile-cache.ts explains the clock): a file rewritten within the tick in
//   which the pass read it cannot look unchanged, since the index is not written at all when a
//   file is that new.
//
// Anything else is a miss: the list comes from a full discovery (through the compile cache) and
// the index is written again. A torn, foreign or damaged file is a miss too, and a root or drafts
// folder that cannot be listed or a recipe name that is no regular file is never indexed (the full
// discovery reports it each time). The file is replaced whole (write a temp, rename), so a reader needs no lock.
import { join } from "node:path";
import type { SourceListing } from "../core/model.js";
import type { ToolList } from "../core/views/list-view.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import type { ReplaceFileSync } from "../adapters/fs/replace-file-sync.js";
import { registryContext, type AgentPaths } from "./agent-paths.js";
import { compileCacheDir, olderThan } from "./compile-cache.js";
import { listsOrIsAbsent, namesListedNow, type PassInputs } from "./recipe-snapshot.js";
import { isStrings, isToolList, parseJsonLine, statStillAsRecorded } from "./compile-cache-file.js";
import { preparedAbsentRootList } from "./packaged-compiles.js";

export const LIST_INDEX_FORMAT = "pi-recipes-list-index/4";

export const listIndexPath = (recipeRoot: string): string => join(compileCacheDir(recipeRoot), "list.json");

// names, errors and identities of some 200 bytes a recipe: room for far more than 100,000
const MAX_INDEX_BYTES = 1 << 28;

export interface IndexedRoot {
  readonly dir: string;
  readonly present: boolean;
  /** the root folder's mode when present */
  readonly mode: number | null;
  /** the recipe file names listed, sorted */
  readonly names: readonly string[];
  /** the identity of each, in the order of `names` (a file's path is `<dir>/<name>`: kept once) */
  readonly ids: readonly string[];
}

/** What a discovery relied on, as the list index and the view cache (runtime/view-cache.ts) keep
 *  it: each root's listing with the identity of each recipe file, and every other path it looked
 *  at (imports, delegation targets, probes), with its identity then (null: no regular file). */
export interface RecordedInputs {
  readonly roots: readonly IndexedRoot[];
  readonly paths: readonly (readonly [string, string | null])[];
}

interface IndexFile extends RecordedInputs {
  readonly format: string;
  readonly version: string;
  readonly context: string;
  /** the working directory, when a recipe's resolution read a path */
  readonly cwd?: string;
  /** the writing pass's start on the file system's clock (ns) */
  readonly t: string;
  /** the drafts folder, which listed without an error (or was not there) */
  readonly drafts: string;
  readonly list: ToolList;
  /** for each tool of `list.names`, the recipe file it is made from: its place among the names of
   *  `roots`, counted across the roots in order */
  readonly tools: readonly number[];
}


function parseIndex(bytes: Uint8Array): IndexFile | undefined {
  const x = parseJsonLine(bytes) as Partial<IndexFile> | null | undefined;
  if (x === undefined || x === null || typeof x !== "object" || x.format !== LIST_INDEX_FORMAT || typeof x.t !== "string" || !/^\d+$/.test(x.t)) return undefined;
  if (!(x.cwd === undefined || typeof x.cwd === "string") || typeof x.drafts !== "string") return undefined;
  if (!isRecordedInputs(x)) return undefined;
  if (!isToolList(x.list)) return undefined;
  if (!Array.isArray(x.tools) || x.tools.length !== x.list.names.length || !x.tools.every((n) => Number.isInteger(n) && n >= 0)) return undefined;
  return x as IndexFile;
}

/** `roots` and `paths` of a parsed file have the shapes of RecordedInputs. */
export function isRecordedInputs(x: { readonly roots?: unknown; readonly paths?: unknown }): boolean {
  if (!Array.isArray(x.roots) || !Array.isArray(x.paths)) return false;
  for (const r of x.roots as unknown[]) {
    const root = r as Partial<IndexedRoot> | null;
    if (root === null || typeof root.dir !== "string" || typeof root.present !== "boolean" || !(root.mode === null || typeof root.mode === "number") || !isStrings(root.names)) return false;
    if (!isStrings(root.ids) || root.ids.length !== root.names.length) return false;
  }
  for (const p of x.paths as unknown[]) if (!Array.isArray(p) || typeof p[0] !== "string" || !(p[1] === null || typeof p[1] === "string")) return false;
  return true;
}

/** The folder `dir` lists exactly the recipe file names `names` (namesListedNow: present or absent
 *  as recorded, of the mode recorded when `mode` is given; `strays` false for the drafts folder). */
export function namesStillListed(scan: ScanPort, dir: string, present: boolean, mode: number | null | undefined, names: readonly string[], strays = true): boolean {
  const now = namesListedNow(scan, dir, present, mode, strays);
  return now !== undefined && now.size === names.length && names.every((n) => now.has(n));
}

/** Every root lists the recorded names (and is present, absent and of the mode recorded), and every
 *  recorded path has its identity still, older than the recording pass's clock `t`. */
export function recordedInputsHold(scan: ScanPort, identity: NonNullable<ScanPort["identity"]>, recorded: RecordedInputs, t: bigint): boolean {
  for (const root of recorded.roots) if (!namesStillListed(scan, root.dir, root.present, root.mode, root.names)) return false;
  for (const root of recorded.roots) {
    const prefix = `${root.dir}/`;
    for (let i = 0; i < root.names.length; i++) if (!statStillAsRecorded(identity(prefix + root.names[i]!), root.ids[i]!, t)) return false;
  }
  for (const [path, was] of recorded.paths) {
    if (!statStillAsRecorded(identity(path), was, t)) return false;
  }
  return true;
}

/** The index, when it describes the roots as they are now (see above); else undefined. */
function currentIndex(scan: ScanPort, recipeRoot: string, version: string, context: string, cwd: string): IndexFile | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined) return undefined;
  const read = scan.readBounded(listIndexPath(recipeRoot), MAX_INDEX_BYTES);
  if (!read.ok || read.value.bytes === undefined) return undefined;
  const index = parseIndex(read.value.bytes);
  if (index === undefined || index.version !== version || index.context !== context) return undefined;
  if (index.cwd !== undefined && index.cwd !== cwd) return undefined;
  if (!listsOrIsAbsent(scan, index.drafts)) return undefined;
  return recordedInputsHold(scan, identity, index, BigInt(index.t)) ? index : undefined;
}

/** A tool's recipe file as a current index knows it: its path and its identity, which is the
 *  file's identity now (the index was found current by a stat of every recorded path). */
export interface IndexedToolFile {
  readonly path: string;
  readonly id: string;
}

/** What a current list index (see above) says of the name of a tool: the recipe file discovery
 *  makes that tool from, as it is now; or that no root holds a recipe of that name at all, with the
 *  tools there are. Undefined: a discovery has to say (the index is not current, or a recipe of
 *  that name is there but makes no tool: invalid, disabled, a component, a reserved name). */
export type IndexedName = { readonly file: IndexedToolFile } | { readonly unknown: readonly string[] };

export function indexedName(scan: ScanPort, at: ListPlace, name: string): IndexedName | undefined {
  const index = currentIndex(scan, at.recipeRoot, at.version, at.context, at.cwd);
  if (index === undefined) return undefined;
  const i = index.list.names.indexOf(name);
  if (i < 0) {
    // a recipe's id is its file name without the extension (core/discovery/paths.ts)
    const files = [`${name}.json`, `${name}.md`];
    return index.roots.some((root) => files.some((f) => root.names.includes(f))) ? undefined : { unknown: index.list.names };
  }
  let n = index.tools[i]!;
  for (const root of index.roots) {
    if (n < root.names.length) return { file: { path: `${root.dir}/${root.names[n]!}`, id: root.ids[n]! } };
    n -= root.names.length;
  }
  return undefined;
}

/** Where `list` is answered without a discovery, and for which code and context. */
export interface ListPlace {
  readonly recipeRoot: string;
  readonly cwd: string;
  /** the code version (runtime/compile-cache.ts codeVersion) */
  readonly version: string;
  /** the registry context (runtime/agent-paths.ts registryContext) */
  readonly context: string;
  /** the packaged root and the build's prepared compiles of it (runtime/packaged-compiles.ts) */
  readonly packaged?: { readonly root: string; readonly file: string };
}

/** The ListPlace of a registry at `paths` with the packaged root `packagedRoot`, for code of
 *  `version`; `preparedFile` is the build's prepared compiles of that root (null: none used). */
export function listPlace(paths: AgentPaths, packagedRoot: string | undefined, version: string, preparedFile: string | null): ListPlace {
  const packaged = packagedRoot === undefined || preparedFile === null ? {} : { packaged: { root: packagedRoot, file: preparedFile } };
  return { recipeRoot: paths.recipeRoot, cwd: paths.cwd, version, context: registryContext(paths, packagedRoot), ...packaged };
}

/** What `list` shows, when it is provable without a discovery: the list index of a recipe root
 *  whose inputs did not change (above), or, when there is no recipe root, the list the build
 *  prepared for that (runtime/packaged-compiles.ts). Undefined: a discovery has to answer. The
 *  command line answers `list` with this before it loads the registry (host-cli/front-door.ts),
 *  and the registry with it before it discovers. */
export function listWithoutDiscovery(scan: ScanPort, at: ListPlace): ToolList | undefined {
  const indexed = currentIndex(scan, at.recipeRoot, at.version, at.context, at.cwd)?.list;
  if (indexed !== undefined || at.packaged === undefined) return indexed;
  return preparedAbsentRootList(scan, at.packaged.file, at.packaged.root, at.version, at.recipeRoot);
}

/** The index for `list`, made from the discovery pass that read `sources` (or from the whole-root
 *  snapshot that answered it, runtime/root-snapshot.ts); `toolPaths` are the recipe files of the
 *  tools of `list`, in its order. Undefined when that pass cannot vouch for it (a root or the
 *  drafts folder not listed, a recipe name that is no regular file, a file as new as the pass). */
export function listIndexText(
  version: string, context: string, cwd: string, sources: readonly SourceListing[], inputs: PassInputs, list: ToolList, toolPaths: readonly string[],
): string | undefined {
  const { start, drafts } = inputs;
  if (start === undefined || toolPaths.length !== list.names.length) return undefined;
  if (drafts === undefined || drafts.error !== undefined) return undefined;
  const recorded = recordInputs(sources, inputs.observed, start);
  if (recorded === undefined) return undefined;
  const place = new Map<string, number>();
  let counted = 0;
  for (const root of recorded.roots) {
    for (const name of root.names) {
      const path = `${root.dir}/${name}`;
      // its first place (one folder given twice lists each file twice)
      if (!place.has(path)) place.set(path, counted);
      counted++;
    }
  }
  const tools: number[] = [];
  for (const path of toolPaths) {
    const n = place.get(path);
    // a tool is made from a listed recipe file; anything else is not indexed
    if (n === undefined) return undefined;
    tools.push(n);
  }
  const file: IndexFile = { format: LIST_INDEX_FORMAT, version, context, ...(inputs.readPaths ? { cwd } : {}), t: String(start), drafts: drafts.dir, ...recorded, list, tools };
  return JSON.stringify(file) + "\n";
}

/** The roots `sources` listed and the paths `observed`, when that pass can vouch for them against
 *  the clock `t` (a reading taken before any of those paths was read): every root listed without
 *  an error, every recipe file a regular file, every identity strictly older than `t`. */
export function recordInputs(sources: readonly SourceListing[], observed: ReadonlyMap<string, string | null>, t: bigint): RecordedInputs | undefined {
  const roots: IndexedRoot[] = [];
  const listed = new Set<string>();
  for (const source of sources) {
    if (source.kind !== "root" || source.error !== undefined) return undefined;
    if (source.present && source.rootMode === undefined) return undefined;
    // a symlink named like a recipe, or a stray entry: its diagnostic would outlive it (removing
    // it leaves the names)
    if (source.links !== undefined || source.strays !== undefined) return undefined;
    const prefix = `${source.root}/`;
    const names: string[] = [];
    for (const f of source.files) {
      // a path of another form than `<root>/<name>` could not be found again from the name
      if (!f.path.startsWith(prefix) || f.path.indexOf("/", prefix.length) >= 0) return undefined;
      names.push(f.path.slice(prefix.length));
      listed.add(f.path);
    }
    names.sort();
    const ids: string[] = [];
    for (const name of names) {
      const id = observed.get(prefix + name);
      if (id == null || !olderThan(id, t)) return undefined;
      ids.push(id);
    }
    roots.push({ dir: source.root, present: source.present, mode: source.rootMode ?? null, names, ids });
  }
  const paths: (readonly [string, string | null])[] = [];
  for (const [path, id] of observed) {
    if (listed.has(path)) continue;
    if (id !== null && !olderThan(id, t)) return undefined;
    paths.push([path, id]);
  }
  return { roots, paths };
}

/** Writes the index; a failed write only costs the next `list` a full discovery. */
export function writeListIndex(writer: ReplaceFileSync, recipeRoot: string, text: string): void {
  try {
    writer.replaceFileSync(listIndexPath(recipeRoot), text, 0o600);
  } catch {
    // the next list discovers in full
  }
}
