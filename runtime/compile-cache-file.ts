// The bytes of the compile cache file (runtime/compile-cache.ts says when an entry may be used).
//
// One JSON value ending in a newline: the format, the code version, the context, and one entry per
// recipe file with its identity, digest, dependencies and the compile step's result as plain data
// (the recipe's config and argument surface included; `sourceSha256` is the entry's `sha`, empty
// lists left out). One `JSON.parse` gives every entry, and a served compile result is a plain object
// made from its entry, with the same fields in the same order as a fresh compile
// (core/compile/compile-recipe.ts): nothing is parsed later.
//
// The entries are a flat list, path then entry, and each of those items stands on a line of its
// own (`"entries":[` newline `"<path>",` newline `{...},` newline ...). `JSON.stringify` never
// writes a raw newline inside a value, so the item `"<path>",` between two newlines is found only
// where that path's entry follows: a command that needs one recipe's compile (`call`) reads that
// one entry without parsing the rest (`entryInCacheBytes`). Making the lines costs one
// `JSON.stringify` per item instead of one in all; the file is written as it is stringified, some
// hundreds of kB at a time, so a cold pass of 10,000 recipes pays about 2 % more time and no more
// memory (docs/performance.md, "One tool from the compile cache").
//
// A file that does not end in the newline (a torn write) or does not parse is no cache at all; an
// entry whose fields are not of the stored shape is a miss, answered by compiling the file afresh.
//
// The file may also hold a whole-root section, `root`: the assembled discovery of the roots as
// the writing pass found them, with what it relied on (the listings, the identities of the paths
// it looked at, its clock). runtime/root-snapshot.ts writes it, checks it and revives a Discovery
// from it and the entries; it is in this file so that a warm process parses one file once and a
// cold one stringifies once.
import type { CompiledConfig, CompiledProblem, CompiledRecipe } from "../core/compile/compile-recipe.js";
import type { ToolList } from "../core/views/list-view.js";
import type { FileIdentity, ScanResult } from "../adapters/fs/scan.js";

export const CACHE_FORMAT = "pi-recipes-compile-cache/7";

/** "dev:ino:size:mtimeNs:ctimeNs" */
export type Id = string;

export const toId = (f: FileIdentity): Id => `${f.dev}:${f.ino}:${f.size}:${f.mtimeNs}:${f.ctimeNs}`;
/** the id of what a stat found: null for no regular file there (absent, a folder, unreadable) */
export const idOf = (r: ScanResult<FileIdentity>): Id | null => (r.ok && r.value.isFile ? toId(r.value) : null);
/** both times of `id` strictly older than `t` */
export const olderThan = (id: Id, t: bigint): boolean => {
  const parts = id.split(":");
  return BigInt(parts[3]!) < t && BigInt(parts[4]!) < t;
};
/** A path a pass with clock `t` recorded as `was` may be trusted unread when it is `now`: the same
 *  identity (or still no regular file there), and a file's not written within the pass's tick. */
export const stillAsRecorded = (now: Id | null, was: Id | null, t: bigint): boolean => now === was && (was === null || olderThan(was, t));
/** stillAsRecorded for what a stat found now: the times compared are the stat's own (equal to the
 *  recorded ones when the ids are), so the recorded id need not be split and parsed. */
export const statStillAsRecorded = (now: ScanResult<FileIdentity>, was: Id | null, t: bigint): boolean => {
  if (!now.ok || !now.value.isFile) return was === null;
  return was !== null && statOlderThan(now.value, t) && toId(now.value) === was;
};
/** both times of what a stat found strictly older than `t` (olderThan for a stat) */
export const statOlderThan = (f: FileIdentity, t: bigint): boolean => f.mtimeNs < t && f.ctimeNs < t;

export type Deps = readonly (readonly [string, Id | null])[];

/** A compile result's lists, left out of the stored form when empty. */
type Lists = "diagnostics" | "warnings" | "riskLabels" | "optionInjection";
type Optional<T, K extends keyof T> = Omit<T, K> & { readonly [P in K]?: T[P] | undefined };

/** The compile result as stored: without `path` (the entry's key) and `sourceSha256` (the entry's
 *  `sha`), empty lists left out. */
type StoredRecipe = Optional<Omit<CompiledConfig, "path" | "sourceSha256">, Lists>;
type StoredResult = Optional<Omit<CompiledProblem, "path">, "diagnostics"> | StoredRecipe;

export interface Entry {
  readonly id: Id;
  /** sha256 of the bytes compiled */
  readonly sha: string;
  /** the file-system time (ns) of the pass that verified this entry: identities strictly older
   *  than it are trusted without reading */
  readonly t: string;
  /** each path resolution read, with its identity then (null: absent); absent when none */
  readonly deps?: Deps;
  /** the working directory, for entries whose resolution read files (relative import paths) */
  readonly cwd?: string;
  /** the compile step's result (plain data), see StoredResult */
  readonly r: StoredResult;
}

interface CacheFile {
  readonly format: string;
  readonly version: string;
  readonly context: string;
  /** path, entry, path, entry, ... (see the top of this file) */
  readonly entries: readonly unknown[];
  /** the whole-root section (runtime/root-snapshot.ts RootSection), when the pass could vouch for it */
  readonly root?: unknown;
}

const NEWLINE = 0x0a;

/** the file was written to its end: a writer ends it with a newline (a torn write does not) */
const whole = (bytes: Uint8Array): boolean => bytes.length > 0 && bytes[bytes.length - 1] === NEWLINE;

/** The entries (path -> entry, unchecked) and the whole-root section (unchecked) of a cache file of
 *  this code and context; undefined for a torn, foreign or other version's file. */
export function readCacheBytes(bytes: Uint8Array, version: string, context: string): { readonly entries: Readonly<Record<string, unknown>>; readonly root: unknown } | undefined {
  const u = parseJsonLine(bytes) as Partial<CacheFile> | null | undefined;
  if (u === undefined || u === null || typeof u !== "object" || u.format !== CACHE_FORMAT || u.version !== version || u.context !== context) return undefined;
  const list = u.entries;
  if (!Array.isArray(list) || list.length % 2 !== 0) return undefined;
  // no prototype: any path is an own key, "__proto__" included
  const entries = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < list.length; i += 2) {
    const path = list[i] as unknown;
    if (typeof path !== "string") return undefined;
    entries[path] = list[i + 1];
  }
  return { entries, root: u.root };
}

/** The text the cache file of this code and context begins with, up to its first entry. */
const headOf = (version: string, context: string): string => `${JSON.stringify({ format: CACHE_FORMAT, version, context }).slice(0, -1)},"entries":[\n`;

/** The entry (unchecked) a cache file of this code and context holds for `path`, found on its own
 *  line without parsing the rest of the file (see the top of this file); undefined when the file
 *  is of other code or context, is cut short, or holds no entry for `path`. */
export function entryInCacheBytes(bytes: Uint8Array, version: string, context: string, path: string): unknown {
  if (!whole(bytes)) return undefined;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const head = Buffer.from(headOf(version, context));
  if (buf.length <= head.length || !buf.subarray(0, head.length).equals(head)) return undefined;
  // the path's own item: a newline, the path as JSON, a comma, a newline (the first item follows
  // the head's newline)
  const item = Buffer.from(`\n${JSON.stringify(path)},\n`);
  const at = buf.indexOf(item, head.length - 1);
  if (at < 0) return undefined;
  const start = at + item.length;
  const end = buf.indexOf(NEWLINE, start);
  if (end < 0) return undefined;
  // the entry, then a comma unless it is the last
  const last = buf[end - 1] === 0x2c ? end - 1 : end;
  try {
    return JSON.parse(buf.toString("utf8", start, last)) as unknown;
  } catch {
    return undefined;
  }
}

/** The value of a file its writer wrote as one JSON value ending in a newline (the compile
 *  cache, the list index); undefined for a file cut short (no newline at its end) or one that does
 *  not parse. */
export function parseJsonLine(bytes: Uint8Array): unknown {
  if (!whole(bytes)) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** the entries stringified and handed on together: a piece of some hundreds of kB */
const ENTRIES_A_PIECE = 512;

/** The file for `entries` (path -> entry) and, when given, the whole-root section, handed to
 *  `emit` in pieces that make the file when put together: each path and each entry stringified
 *  once, an item a line (see the top of this file). No piece holds more than ENTRIES_A_PIECE
 *  entries, so the whole text is never held at once (nor its bytes, when `emit` writes them). */
export function emitCacheText(emit: (piece: string) => void, version: string, context: string, entries: Readonly<Record<string, Entry>>, root?: unknown): void {
  let items: string[] = [];
  let first = true;
  const flush = (): void => {
    if (items.length === 0) return;
    // joined in one call over flat strings: the fast path of Array.prototype.join
    const piece = items.join(",\n");
    emit(first ? piece : `,\n${piece}`);
    first = false;
    items = [];
  };
  emit(headOf(version, context));
  for (const path in entries) {
    items.push(JSON.stringify(path), JSON.stringify(entries[path]));
    if (items.length >= 2 * ENTRIES_A_PIECE) flush();
  }
  flush();
  emit(root === undefined ? "\n]}\n" : `\n],"root":${JSON.stringify(root)}}\n`);
}

/** shape checks of the stored files (this one, the whole-root section, the list index) */
export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
export const isStrings = (a: unknown): a is string[] => Array.isArray(a) && a.every((x) => typeof x === "string");
const isOptionalStrings = (a: unknown): boolean => a === undefined || isStrings(a);
/** what `list` shows (the list index's, the packaged compiles' list without a recipe root) */
export const isToolList = (x: unknown): x is ToolList =>
  typeof x === "object" && x !== null && isStrings((x as Partial<ToolList>).names) && isStrings((x as Partial<ToolList>).problems) &&
  isOptionalStrings((x as Partial<ToolList>).unlisted);
const isId = (i: unknown): i is Id => typeof i === "string";
const isDep = (d: unknown): boolean => Array.isArray(d) && typeof d[0] === "string" && (d[1] === null || isId(d[1]));
const DIGITS = /^\d+$/;

/** An argument surface of the stored shape (core/tool/tool-spec.ts ArgSurface). */
const isSurface = (s: unknown): boolean =>
  isObject(s) && isStrings(s["names"]) && isStrings(s["required"]) && isObject(s["types"]) && isObject(s["defaults"]) &&
  (s["declaredDefaults"] === undefined || isObject(s["declaredDefaults"])) && (s["descriptions"] === undefined || isObject(s["descriptions"]));

/** A well-formed entry, or undefined (a damaged entry is a miss, never an error). */
export function checkedEntry(e: unknown): Entry | undefined {
  if (!isObject(e)) return undefined;
  const x = e as Partial<Entry>;
  if (!isId(x.id) || typeof x.sha !== "string" || typeof x.t !== "string" || !DIGITS.test(x.t)) return undefined;
  if (x.deps !== undefined && !(Array.isArray(x.deps) && x.deps.every(isDep))) return undefined;
  const r = x.r as Partial<Record<keyof CompiledConfig | keyof CompiledProblem, unknown>> | undefined;
  if (!isObject(r) || typeof r.id !== "string" || typeof r.format !== "string" || !isOptionalStrings(r.diagnostics)) return undefined;
  if (r.kind === "problem") return isObject(r.problem) ? (x as Entry) : undefined;
  if (r.kind !== "recipe" || typeof r.disabled !== "boolean" || !isObject(r.config) || !isSurface(r.surface)) return undefined;
  if (!(r.warnings === undefined || Array.isArray(r.warnings)) || !isOptionalStrings(r.riskLabels) || !isOptionalStrings(r.optionInjection)) return undefined;
  if (!(r.toolProblem === undefined || typeof r.toolProblem === "string")) return undefined;
  return x as Entry;
}

const NONE: readonly never[] = Object.freeze([]);
const listOf = <T>(list: readonly T[]): readonly T[] | undefined => (list.length === 0 ? undefined : list);

/** The entry stored for a fresh compile. */
export function entryOf(id: Id, sha: string, t: string, deps: Deps, cwd: string, compiled: CompiledRecipe): Entry {
  const where = deps.length > 0 ? { deps, cwd } : {};
  if (compiled.kind === "problem") {
    const { path: _path, ...r } = compiled;
    return { id, sha, t, ...where, r };
  }
  // each field named (not a rest spread, which costs several times more per entry); a field the
  // compile result gains and this leaves out is caught by the cache-against-cacheless property
  const r: { -readonly [K in keyof StoredRecipe]: StoredRecipe[K] } = {
    kind: "recipe",
    id: compiled.id,
    format: compiled.format,
    config: compiled.config,
    disabled: compiled.disabled,
    surface: compiled.surface,
    diagnostics: listOf(compiled.diagnostics),
    warnings: listOf(compiled.warnings),
    riskLabels: listOf(compiled.riskLabels),
    optionInjection: listOf(compiled.optionInjection),
  };
  if (compiled.toolProblem !== undefined) r.toolProblem = compiled.toolProblem;
  return { id, sha, t, ...where, r };
}

/** The compile result an entry stands for: a plain object with the fields of a fresh compile of
 *  the same bytes, in the same order. */
export function servedCompile(entry: Entry, path: string): CompiledRecipe {
  const r = entry.r;
  if (r.kind === "problem") return { kind: "problem", id: r.id, path, format: r.format, problem: r.problem, diagnostics: r.diagnostics ?? NONE };
  const served: { -readonly [K in keyof CompiledConfig]: CompiledConfig[K] } = {
    kind: "recipe",
    id: r.id,
    path,
    format: r.format,
    sourceSha256: entry.sha,
    diagnostics: r.diagnostics ?? NONE,
    config: r.config,
    disabled: r.disabled,
    warnings: r.warnings ?? NONE,
    riskLabels: r.riskLabels ?? NONE,
    optionInjection: r.optionInjection ?? NONE,
    surface: r.surface,
  };
  if (r.toolProblem !== undefined) served.toolProblem = r.toolProblem;
  return served;
}
