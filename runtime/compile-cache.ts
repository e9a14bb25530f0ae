// The verified compile cache: what the compile step derived from each recipe file
// (core/compile/compile-recipe.ts, plain data), kept in one file per recipe root, `<root>/.cache/compile.json`, so a
// process whose files did not change stats each file once instead of reading, parsing and
// checking it. An entry is used only when it is provably current:
//
// - the file's identity (device, inode, size, mtime and ctime in nanoseconds) is the one recorded,
//   and so is the identity (or absence) of every path its resolution read: imports, delegation
//   targets, and the bare-name probes that found nothing;
// - "racily clean" files are not trusted on identity alone: a file written in the same
//   timestamp tick as the pass that compiled it could be rewritten within that tick with the
//   same size and times. Each pass takes a time of the file system's own clock from before its
//   first read (the newest ctime of the recipe root, the cache folder and the cache file); an
//   entry is trusted on identity only when the file's mtime and ctime are strictly older than
//   that time, and is otherwise checked against the sha256 of the content it was compiled from
//   (then re-stamped, or, when the pass's clock is not yet newer than the file, the cache is
//   written again so that the next pass's clock is: a file edited in place is checked by content
//   in at most two passes);
// - the cache file names the code that wrote it (package version and a build hash) and the
//   context paths resolution depends on; another version, a torn or a foreign file is ignored
//   and replaced;
// - writers replace the file atomically (write a temp, rename: adapters/fs/replace-file-sync.ts)
//   at the end of the pass, so readers need no lock; two processes writing at once lose one's
//   additions, never correctness.
//
// A served compile result is a plain value made from the file's one parse
// (runtime/compile-cache-file.ts), equal to a fresh compile of the same bytes.
//
// The same file may also hold the whole-root snapshot (runtime/root-snapshot.ts): the assembled
// discovery of a pass that could vouch for every path it looked at. A session first asks
// `revive()`: when every listing and every identity is as that pass recorded, the Discovery comes
// from the snapshot and the entries, with no entry checked one by one and nothing resolved, and the
// file is not written. Otherwise the pass runs as described above, and `finish` writes the entries
// and a new snapshot section together, in one `JSON.stringify`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CompileHook } from "../core/discovery/compile-hook.js";
import type { SnapshotFile } from "../core/model.js";
import type { CompiledRecipe } from "../core/compile/compile-recipe.js";
import { checkedEntry, emitCacheText, entryInCacheBytes, entryOf, idOf, olderThan, readCacheBytes, servedCompile, statOlderThan, stillAsRecorded, toId, type Entry, type Id } from "./compile-cache-file.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import { makeNodeReplaceFileSync, type Replacement, type ReplaceFileSync } from "../adapters/fs/replace-file-sync.js";
import { packageInfo } from "./agent-paths.js";
import { sha256Bytes } from "./crypto-sha256.js";
import { listRecipeDir, readFailedWith, readFileEntry, readIdentifiedEntry, type CompileCacheSession } from "./recipe-snapshot.js";
import { revivedDiscovery, rootSection, TOO_NEW, type SectionInputs } from "./root-snapshot.js";

export const compileCacheDir = (recipeRoot: string): string => join(recipeRoot, ".cache");
export const compileCachePath = (recipeRoot: string): string => join(compileCacheDir(recipeRoot), "compile.json");

export interface CompileContext {
  readonly agentDir: string;
  readonly recipeRoot: string;
  readonly home: string;
  readonly cwd: string;
  readonly packagedRoot?: string;
  /** the draft root: a Discovery carries the drafts, so the whole-root snapshot covers it
   *  (runtime/root-snapshot.ts); without it no snapshot is read or written */
  readonly draftRoot?: string;
}

export interface CompileCacheOptions {
  /** the code version the cache belongs to; default the package version and a build hash */
  readonly version?: string;
  /** how the cache file is written (it is read through the scan port); default the node adapter */
  readonly writer?: ReplaceFileSync;
}

// the largest cache file read: some 1,100 bytes a recipe, so room for far more than 100,000
const MAX_CACHE_BYTES = 1 << 30;

const NO_DEPS: readonly (readonly [string, Id | null])[] = [];
const NO_PATHS: readonly string[] = [];

export { idOf, olderThan, toId } from "./compile-cache-file.js";

/** milliseconds as node:fs computes them for a Stats object (seconds * 1e3 + nanoseconds / 1e6) */
const nsToMs = (n: bigint): number => Number(n / 1_000_000_000n) * 1e3 + Number(n % 1_000_000_000n) / 1e6;

/** A recipe file served from the cache: its bytes are read on first use only (a recipe that
 *  imports this one and must be compiled again). */
class UnreadFile {
  private read: SnapshotFile | undefined;
  constructor(
    readonly path: string,
    readonly size: number,
    readonly mtimeMs: number,
    readonly birthtimeMs: number,
    private readonly scan: ScanPort,
  ) {}
  get bytes(): Uint8Array | undefined {
    return (this.read ??= readFileEntry(this.scan, this.path)).bytes;
  }
}

// the size under which the scan port's fast read reports no times (see adapters/fs/scan.ts):
// a file served from the cache looks exactly like one read
const FAST_READ = 64 * 1024;

declare const __PI_RECIPES_BUILD_ID__: string | undefined;
let versionMemo: string | undefined;

/** The package version and a hash of the code that compiles recipes: injected by the bundle
 *  (scripts/bundle.mjs), else a hash of the names, sizes and times of the core modules beside
 *  this one and of this module (unbundled runs: tests, the per-file build). */
export function codeVersion(scan: ScanPort): string {
  if (versionMemo !== undefined) return versionMemo;
  let build: string;
  if (typeof __PI_RECIPES_BUILD_ID__ === "string") build = __PI_RECIPES_BUILD_ID__;
  else {
    const self = fileURLToPath(import.meta.url);
    const here = dirname(self);
    const stamp = (p: string): string => {
      const st = scan.identity?.(p);
      return st?.ok === true ? `${p}:${st.value.size}:${st.value.mtimeNs}:${st.value.ctimeNs}` : `${p}:?`;
    };
    const parts: string[] = [stamp(self)];
    const walk = (dir: string): void => {
      const listed = scan.listDir(dir);
      if (!listed.ok) return;
      for (const d of [...listed.value].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (d.kind === "dir") walk(join(dir, d.name));
        else if (/\.(ts|js)$/.test(d.name)) parts.push(stamp(join(dir, d.name)));
      }
    };
    walk(join(here, "..", "core"));
    build = sha256Bytes(new TextEncoder().encode(parts.join("\0"))).slice(0, 16);
  }
  versionMemo = `${packageInfo().version}+${build}`;
  return versionMemo;
}

/** the context a cache file belongs to: the paths resolution depends on */
const cacheContextKey = (context: CompileContext): string => JSON.stringify([context.agentDir, context.recipeRoot, context.home, context.packagedRoot ?? null]);

/** The compile result the cache file keeps for the recipe file `path`, read from that entry's
 *  own line without parsing the rest of the file (runtime/compile-cache-file.ts), when the
 *  entry may be served by the rules above: `id` is the file's identity now (the caller has just
 *  seen it), the entry was made from that identity, which is older than the entry's pass, every
 *  path its resolution read is as recorded, and it was made in this working directory when it
 *  read any. Undefined otherwise: a discovery has to compile it. */
export function cachedCompileOf(scan: ScanPort, context: CompileContext, options: CompileCacheOptions, path: string, id: Id): CompiledRecipe | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined) return undefined;
  const read = scan.readBounded(compileCachePath(context.recipeRoot), MAX_CACHE_BYTES);
  const bytes = read.ok ? read.value.bytes : undefined;
  if (bytes === undefined) return undefined;
  const e = checkedEntry(entryInCacheBytes(bytes, options.version ?? codeVersion(scan), cacheContextKey(context), path));
  if (e === undefined || e.id !== id) return undefined;
  const t = BigInt(e.t);
  if (!olderThan(id, t)) return undefined;
  return depsHold(e, context.cwd, t, (dep) => idOf(identity(dep))) ? servedCompile(e, path) : undefined;
}

/** The paths entry `e`'s resolution read are as it recorded them, judged against its pass's clock
 *  `t` (a dependency written in the entry's own tick is not trusted on identity), and, when it read
 *  any, it was made in the working directory `cwd` (a relative import path resolves against it).
 *  `identityNow` gives a path's identity now (null: no regular file there). */
function depsHold(e: Entry, cwd: string, t: bigint, identityNow: (path: string) => Id | null): boolean {
  const deps = e.deps ?? NO_DEPS;
  if (deps.length > 0 && e.cwd !== cwd) return false;
  for (const [dep, was] of deps) if (!stillAsRecorded(identityNow(dep), was, t)) return false;
  return true;
}

export function beginCompileCache(scan: ScanPort, context: CompileContext, options: CompileCacheOptions = {}): CompileCacheSession | undefined {
  const identity = scan.identity?.bind(scan);
  if (identity === undefined) return undefined;
  const version = options.version ?? codeVersion(scan);
  const contextKey = cacheContextKey(context);
  const dir = compileCacheDir(context.recipeRoot);
  const path = compileCachePath(context.recipeRoot);

  const read = scan.readBounded(path, MAX_CACHE_BYTES, { stat: true });
  const bytes = read.ok ? read.value.bytes : undefined;
  const parsed = bytes === undefined ? undefined : readCacheBytes(bytes, version, contextKey);
  let old: Readonly<Record<string, unknown>> = parsed?.entries ?? {};
  // the whole-root section read (runtime/root-snapshot.ts), unchecked
  let oldRoot: unknown = parsed?.root;
  let changed = parsed === undefined;
  // the pass was answered by the whole-root section: nothing to write
  let revived = false;

  // This pass's start on the file system's own clock, read before any recipe file is: the newest
  // change time (ctime) of the recipe root, the cache folder and the cache file. The kernel sets a
  // ctime to its clock at each change (no call can set it), so each is a reading of that clock in
  // the past, and the newest of them is no later than this pass's reads. Without one (no recipe
  // root) the pass only reads the cache.
  let start: bigint | undefined;
  for (const p of [context.recipeRoot, dir, path]) {
    const r = identity(p);
    if (r.ok && (start === undefined || r.value.ctimeNs > start)) start = r.value.ctimeNs;
  }

  let observed = new Map<string, Id | null>();
  const identityNow = (p: string): Id | null => {
    const seen = observed.get(p);
    if (seen !== undefined) return seen;
    const id = idOf(identity(p));
    observed.set(p, id);
    return id;
  };
  const candidates = new WeakMap<SnapshotFile, Entry>();
  let next: Record<string, Entry> = {};
  let kept = 0;
  // whether a compile of this pass read any path (an import, a delegation target, a probe):
  // its result may then depend on the working directory
  let readPaths = false;
  // whether a draft's compile read any path (for the whole-root section, which holds the drafts)
  let draftReads = false;

  const stamps = new Map<string, bigint>();
  const stampOf = (t: string): bigint => {
    let v = stamps.get(t);
    if (v === undefined) stamps.set(t, (v = BigInt(t)));
    return v;
  };

  const file = (p: string): SnapshotFile => {
    // nothing kept for this path (a cold pass, a new recipe): read it, its identity taken from the
    // file opened rather than by a stat of the path first (one system call fewer a recipe)
    if (old[p] === undefined) {
      const read = readIdentifiedEntry(scan, p);
      if (read.identity?.isFile === true) observed.set(p, toId(read.identity));
      return read.file;
    }
    const r = identity(p);
    if (!r.ok || !r.value.isFile) return readFileEntry(scan, p);
    const stat = r.value;
    const id = toId(stat);
    observed.set(p, id);
    const e = checkedEntry(old[p]);
    if (e === undefined || e.id !== id) return readFileEntry(scan, p);
    if (statOlderThan(stat, stampOf(e.t))) {
      // a file the scan port would read in one go reports no times: look the same
      const small = stat.size < FAST_READ;
      // (its bytes are never absent in fact: a file without bytes has no entry)
      const f = new UnreadFile(p, stat.size, small ? 0 : nsToMs(stat.mtimeNs), small ? 0 : nsToMs(stat.birthtimeNs), scan) as SnapshotFile;
      candidates.set(f, e);
      return f;
    }
    // racily clean: the content decides
    const f = readFileEntry(scan, p);
    if (f.bytes !== undefined && sha256Bytes(f.bytes) === e.sha) {
      // re-stamped when its times are older than this pass; otherwise the cache is written again
      // all the same, so that the next pass reads a newer clock (the rewritten file's ctime)
      candidates.set(f, start !== undefined && statOlderThan(stat, start) ? { ...e, t: String(start) } : e);
      changed = true;
    }
    return f;
  };

  const readExtra = (p: string): SnapshotFile | undefined => {
    // the identity is recorded for the entries that read this path; the read itself decides
    // between absent and a diagnostic (a FIFO, a device or a NUL byte in the path is not "absent")
    identityNow(p);
    const f = readFileEntry(scan, p);
    return readFailedWith(f, "ENOENT", "ENOTDIR", "EISDIR") ? undefined : f;
  };

  const hook: CompileHook = {
    lookup(source) {
      const f = source.file;
      const e = candidates.get(f);
      if (e === undefined) return undefined;
      const deps = e.deps ?? NO_DEPS;
      if (!depsHold(e, context.cwd, stampOf(e.t), identityNow)) return undefined;
      next[f.path] = e;
      kept++;
      if (deps.length > 0) readPaths = true;
      // the entry's sha is that of the very bytes compiled: the digest a tool carries for accounting
      return { compiled: servedCompile(e, f.path), readPaths: deps.length === 0 ? NO_PATHS : deps.map(([dep]) => dep) };
    },
    draftRead() {
      // a draft's result may depend on the working directory too (relative paths)
      draftReads = true;
    },
    store(f, stored) {
      const id = observed.get(f.path);
      if (start === undefined || id == null || f.bytes === undefined || f.readError !== undefined) return;
      const deps = stored.readPaths.map((dep) => [dep, identityNow(dep)] as const);
      if (deps.length > 0) readPaths = true;
      const compiled = stored.compiled;
      // discovery digested the bytes already when it was given a digest function
      const sha = (compiled.kind === "recipe" ? compiled.sourceSha256 : undefined) ?? sha256Bytes(f.bytes);
      next[f.path] = entryOf(id, sha, String(start), deps, context.cwd, compiled);
      changed = true;
    },
  };

  // the draft root as this pass listed it, with each draft's identity (for the whole-root section)
  let drafts: { dir: string; present: boolean; error?: string; ids: Map<string, Id | null> } | undefined;
  const listDrafts = (dir: string): { readonly files: SnapshotFile[]; readonly error?: string } => {
    const ids = new Map<string, Id | null>();
    const listed = listRecipeDir(scan, dir, true, (p) => {
      // taken before the read: a change after it has a newer ctime, so the section then either
      // is not written (too new) or does not match
      ids.set(p, idOf(identity(p)));
      return readFileEntry(scan, p, true);
    });
    drafts = { dir, present: listed.present, ...(listed.error === undefined ? {} : { error: listed.error }), ids };
    return listed.error === undefined ? { files: listed.files } : { files: listed.files, error: listed.error };
  };

  const revive: CompileCacheSession["revive"] = () => {
    if (oldRoot === undefined || context.draftRoot === undefined) return undefined;
    const sources = [{ dir: context.recipeRoot, tool: true }, ...(context.packagedRoot === undefined ? [] : [{ dir: context.packagedRoot, tool: false }])];
    const hit = revivedDiscovery(scan, oldRoot, old, { sources, draftRoot: context.draftRoot, cwd: context.cwd });
    if (hit !== undefined) revived = true;
    return hit;
  };

  const finish: CompileCacheSession["finish"] = (result) => {
    if (revived) return;
    // entries of files that were not listed this time are dropped
    if (!changed && kept !== Object.keys(old).length) changed = true;
    const entries = next;
    const inputs: SectionInputs = { start, observed, readPaths: readPaths || draftReads, entries, drafts, cwd: context.cwd };
    const made = result === undefined || context.draftRoot === undefined ? undefined : rootSection(result.discovery, result.snapshot, inputs);
    const section = made === TOO_NEW ? undefined : made;
    // a new section is written; a stale one is dropped (it would only be checked in vain); and
    // when only a file as new as this pass's clock kept it out, the file is written all the same
    // so that the next pass reads a newer clock (as for a racily clean recipe above)
    if (made !== undefined || oldRoot !== undefined) changed = true;
    // what only the pass needed is let go
    old = {};
    oldRoot = undefined;
    next = {};
    observed = new Map();
    if (!changed || start === undefined) return;
    // written as it is stringified, a piece at a time: the whole text (9.8 MB at 10,000 recipes)
    // and its bytes are never held at once; a reader sees the old file until the new one is whole
    let replacement: Replacement | undefined;
    try {
      const open = (replacement = (options.writer ?? makeNodeReplaceFileSync()).begin(path, 0o600));
      emitCacheText((piece) => open.write(piece), version, contextKey, entries, section);
      open.commit();
    } catch {
      // a cache that cannot be written only costs the next process time
      replacement?.abort();
    }
  };

  return { file, readExtra, hook, drafts: listDrafts, revive, finish, inputs: () => ({ start, observed, readPaths, ...(drafts === undefined ? {} : { drafts: { ...drafts, readPaths: draftReads } }) }) };
}
