// The view cache: the answer of a one-shot `inspect target=recipes` (views status, summary, doctor
// and imports, verbose or not) kept in `<recipe root>/.cache/view-<output>-<view>.json` together
// with everything the computation of that answer read, so that the same command over unchanged
// files prints the kept answer instead of computing it again: it lists the roots and looks at each
// path once (a stat, as the list index does), reads the usage ledger's folders, and copies the
// answer out without parsing it. At 10,000 recipes that answer is some 11 MB of JSON that took a
// discovery, the usage ledger and the view to build (docs/performance.md has the numbers).
//
// The answer is a function of the recipe files (and their imports), the drafts, the usage ledger
// and the PI_RECIPES_SANDBOX setting, and of nothing else (no clock, no other variable). It is used
// only when it provably is that function's value for the files as they are now:
//
// - the same code (package version and build hash), context (agent dir, recipe root, home, packaged
//   root), command (the same key=value arguments, the same sandbox setting, the same output form:
//   `--json` or text), and working directory when any recipe's or draft's resolution read a path;
// - the discovery's inputs, as the list index records them (runtime/list-index.ts): each root's
//   listing and mode, the identity (device, inode, size, mtime and ctime in nanoseconds) of every
//   path it looked at; and the draft root's listing with each draft's identity;
// - what the usage lookup read through a recording file system (runtime/recording-fs.ts): each
//   file's identity, each folder's listing (the pending launch logs, the journal folder), each
//   path that was a folder or nothing. A computation that wrote anything (a fold of pending launches,
//   a recovery) or read in a way that is not recorded is not kept;
// - every recorded identity strictly older than a reading of the file system's clock taken before
//   the computation began (the newest ctime of the recipe root, the cache folder, the compile cache
//   file, this file and the usage folder): a file rewritten within the tick in which it was read
//   cannot look unchanged. When a file is that new the answer is not kept, but the file is written
//   all the same (without an answer), so that the next computation's clock is newer.
//
// A file's identity changes with every write (its ctime cannot be set back), so when every
// recorded identity still holds, each file held the recorded content from the moment the check
// began: the answer is the one a computation at that moment would give. A failed answer is never
// kept. A torn or foreign file is a miss. Hosts that keep a live registry (MCP, Pi) do not use it.
import { join } from "node:path";
import type { ScanPort } from "../adapters/fs/scan.js";
import type { SourceListing } from "../core/model.js";
import { compileCacheDir, compileCachePath } from "./compile-cache.js";
import { idOf, isStrings, olderThan, parseJsonLine, type Id } from "./compile-cache-file.js";
import { isRecordedInputs, namesStillListed, recordedInputsHold, recordInputs, type RecordedInputs } from "./list-index.js";
import type { PassInputs } from "./recipe-snapshot.js";
import { isNotThere, listingOf, type FsReads } from "./recording-fs.js";
import type { ViewKey, ViewOut } from "./view-key.js";

export const VIEW_CACHE_FORMAT = "pi-recipes-view/1";

/** One file per output form and view; the header says which command exactly it answers. */
export function viewCachePath(recipeRoot: string, params: Readonly<Record<string, unknown>>, out: ViewOut): string {
  const view = typeof params["view"] === "string" ? params["view"] : "status";
  const verbose = params["verbose"] === "true" ? "-verbose" : "";
  return join(compileCacheDir(recipeRoot), `view-${out}-${view}${verbose}.json`);
}

/** What a kept answer is for and rests on. */
export interface ViewHeader extends RecordedInputs {
  readonly format: string;
  readonly version: string;
  readonly context: string;
  readonly key: ViewKey;
  /** the working directory, when a recipe's or a draft's resolution read a path */
  readonly cwd?: string;
  /** the clock reading taken before the computation (ns) */
  readonly t: string;
  /** the draft root as listed (file names, sorted); each draft's identity is in `paths` */
  readonly drafts: { readonly dir: string; readonly present: boolean; readonly names: readonly string[] };
  /** the folders the usage lookup listed, as listingOf gives them (null: no folder there) */
  readonly dirs: readonly (readonly [string, readonly string[] | null])[];
  /** the paths a stat found to be a folder or nothing */
  readonly kinds: readonly (readonly [string, "dir" | null])[];
  /** the answer's text, and the size in bytes of the `--json` object kept before the header (0
   *  for the text form); null: no answer kept (the file only moves the clock on) */
  readonly answer: { readonly text: string; readonly body: number } | null;
}

/** What the command must match. */
export interface ViewExpect {
  readonly key: ViewKey;
  readonly version: string;
  readonly context: string;
  readonly cwd: string;
}

/** A reading of the file system's clock from before anything the computation reads: the newest
 *  ctime of `paths` (each a reading of that clock in the past). */
export function viewClock(scan: ScanPort, paths: readonly string[]): bigint | undefined {
  let t: bigint | undefined;
  for (const p of paths) {
    const r = scan.identity?.(p);
    if (r?.ok === true && (t === undefined || r.value.ctimeNs > t)) t = r.value.ctimeNs;
  }
  return t;
}

/** The paths whose ctimes make the clock of a view's computation. */
export const viewClockPaths = (recipeRoot: string, usageRoot: string, viewPath: string): string[] =>
  [recipeRoot, compileCacheDir(recipeRoot), compileCachePath(recipeRoot), viewPath, usageRoot];

/** The header for an answer computed after clock reading `t`, from the discovery `seen` and the
 *  usage lookup's `reads`; undefined when the computation cannot vouch for it (see above). */
export function viewHeader(
  scan: ScanPort,
  expect: ViewExpect,
  t: bigint,
  seen: { readonly sources: readonly SourceListing[]; readonly inputs: PassInputs } | undefined,
  reads: FsReads,
  answer: { readonly text: string; readonly body: number },
): ViewHeader | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined || seen === undefined || reads.opaque) return undefined;
  const { inputs } = seen;
  const drafts = inputs.drafts;
  if (drafts === undefined || drafts.error !== undefined) return undefined;
  const recorded = recordInputs(seen.sources, inputs.observed, t);
  if (recorded === undefined) return undefined;
  const paths = new Map<string, Id | null>(recorded.paths);
  const add = (path: string, id: Id | null): boolean => {
    if (id !== null && !olderThan(id, t)) return false;
    const was = paths.get(path);
    if (was !== undefined && was !== id) return false;
    paths.set(path, id);
    return true;
  };
  const names: string[] = [];
  for (const [path, id] of drafts.ids) {
    if (id === null || !path.startsWith(drafts.dir + "/") || !add(path, id)) return undefined;
    names.push(path.slice(drafts.dir.length + 1));
  }
  // identities taken after the reads: a file changed since its read is newer than the clock
  for (const path of reads.files) if (!add(path, idOf(identity(path)))) return undefined;
  return {
    format: VIEW_CACHE_FORMAT,
    version: expect.version,
    context: expect.context,
    key: expect.key,
    ...(inputs.readPaths || drafts.readPaths ? { cwd: expect.cwd } : {}),
    t: String(t),
    roots: recorded.roots,
    paths: [...paths],
    drafts: { dir: drafts.dir, present: drafts.present, names: names.sort() },
    dirs: [...reads.dirs],
    kinds: [...reads.kinds],
    answer,
  };
}

/** A file without an answer, for the same command: written when a computation could not vouch for
 *  its answer, its ctime is the next computation's clock. */
export const clockOnlyHeader = (expect: ViewExpect): Omit<ViewHeader, "roots" | "paths" | "drafts" | "dirs" | "kinds" | "t"> => ({
  format: VIEW_CACHE_FORMAT,
  version: expect.version,
  context: expect.context,
  key: expect.key,
  answer: null,
});

const sameKey = (a: unknown, b: ViewKey): boolean => {
  const k = a as Partial<ViewKey> | null;
  return typeof k === "object" && k !== null && k.params === b.params && k.sandbox === b.sandbox && k.out === b.out;
};

function parseHeader(bytes: Uint8Array, expect: ViewExpect): ViewHeader | undefined {
  const x = parseJsonLine(bytes) as Partial<ViewHeader> | null | undefined;
  if (x === undefined || x === null || typeof x !== "object" || x.format !== VIEW_CACHE_FORMAT) return undefined;
  if (x.version !== expect.version || x.context !== expect.context || !sameKey(x.key, expect.key)) return undefined;
  if (x.cwd !== undefined && x.cwd !== expect.cwd) return undefined;
  const answer = x.answer;
  if (answer === null || typeof answer !== "object" || typeof answer.text !== "string" || typeof answer.body !== "number") return undefined;
  if (typeof x.t !== "string" || !/^\d+$/.test(x.t) || !isRecordedInputs(x)) return undefined;
  const d = x.drafts;
  if (typeof d !== "object" || d === null || typeof d.dir !== "string" || typeof d.present !== "boolean" || !isStrings(d.names)) return undefined;
  if (!Array.isArray(x.dirs) || !x.dirs.every((e) => Array.isArray(e) && typeof e[0] === "string" && (e[1] === null || isStrings(e[1])))) return undefined;
  if (!Array.isArray(x.kinds) || !x.kinds.every((e) => Array.isArray(e) && typeof e[0] === "string" && (e[1] === null || e[1] === "dir"))) return undefined;
  return x as ViewHeader;
}

/** The kept answer of `bytes` (a header line), when everything it rests on still holds; else
 *  undefined. */
export function viewAnswer(scan: ScanPort, bytes: Uint8Array, expect: ViewExpect): { readonly text: string; readonly body: number } | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined) return undefined;
  const h = parseHeader(bytes, expect);
  if (h === undefined || h.answer === null) return undefined;
  const t = BigInt(h.t);
  if (!namesStillListed(scan, h.drafts.dir, h.drafts.present, undefined, h.drafts.names, false)) return undefined;
  for (const [dir, was] of h.dirs) {
    const now = scan.listDir(dir);
    if (!now.ok ? !(was === null && isNotThere(now.code)) : was === null || !sameList(listingOf(now.value), was)) return undefined;
  }
  for (const [path, was] of h.kinds) {
    const now = scan.statPath(path);
    if (!now.ok ? !(was === null && isNotThere(now.code)) : was !== "dir" || !now.value.isDirectory) return undefined;
  }
  // every recorded path (the discovery's, the drafts', the usage files') still as recorded
  return recordedInputsHold(scan, identity, h, t) ? h.answer : undefined;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
