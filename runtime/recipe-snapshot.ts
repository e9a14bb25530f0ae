// Reading the recipe roots into a snapshot for the pure discovery in core.
import { RECIPE_SIZE_LIMIT, type RegistrySnapshot, type SnapshotFile, type SourceListing } from "../core/model.js";
import { misnamedRecipe, recipeFileName } from "../core/discovery/paths.js";
import { compareText } from "../core/text-order.js";
import type { FileIdentity, ScanPort } from "../adapters/fs/scan.js";
import type { AgentPaths } from "./agent-paths.js";
import type { CompileHook } from "../core/discovery/compile-hook.js";
import type { Discovery } from "../core/discovery/discovery-result.js";

/** One discovery pass through the compile cache (runtime/compile-cache.ts makes it); defined here,
 *  where it is used, so that the cache can use this module's readers without an import loop. */
export interface CompileCacheSession {
  /** one listed recipe file: unread when its entry is current (the bytes are then read only if
   *  something asks for them), read otherwise */
  file(path: string): SnapshotFile;
  /** files outside the listings, read with their identity noted */
  readExtra(path: string): SnapshotFile | undefined;
  readonly hook: CompileHook;
  /** the draft files of `dir`, read, with their identities noted (for the whole-root snapshot);
   *  `error` when the folder is there but could not be listed */
  drafts(dir: string): { readonly files: SnapshotFile[]; readonly error?: string };
  /** the whole discovery from the cache file's whole-root section, when it describes the roots as
   *  they are now (runtime/root-snapshot.ts); ask before reading anything else */
  revive(): Revived | undefined;
  /** writes the cache when this pass changed it (a cache not written only costs the next pass
   *  time), with a whole-root section made from `result` when the pass can vouch for it */
  finish(result?: { readonly discovery: Discovery; readonly snapshot: RegistrySnapshot }): void;
  /** what the pass relied on, for the list index (runtime/list-index.ts): the pass's start on the
   *  file system's clock (undefined without a recipe root), and the identity of every path it
   *  looked at (a listed recipe file, an import, a probe that found nothing: null), and whether
   *  any compile read a path (its result may then depend on the working directory). Ask before
   *  `finish`. */
  inputs(): PassInputs;
}

/** What a discovery pass relied on (CompileCacheSession.inputs, Revived.inputs). */
export interface PassInputs {
  /** the pass's start on the file system's clock; undefined without a recipe root */
  readonly start: bigint | undefined;
  /** every path the pass looked at, with its identity then (null: no regular file) */
  readonly observed: ReadonlyMap<string, string | null>;
  /** a compile read a path: its result may depend on the working directory */
  readonly readPaths: boolean;
  /** the draft root as the pass listed it, with each draft's identity, when it listed drafts (the
   *  list leaves drafts out; the views that show them need them: runtime/view-cache.ts) */
  readonly drafts?: PassDrafts;
}

export interface PassDrafts {
  readonly dir: string;
  readonly present: boolean;
  /** the folder could not be listed */
  readonly error?: string;
  readonly ids: ReadonlyMap<string, string | null>;
  /** a draft's compile read a path */
  readonly readPaths: boolean;
}

/** A discovery revived from the whole-root snapshot (runtime/root-snapshot.ts makes it; defined
 *  here for the same reason as CompileCacheSession), with what it stands on, as the list index
 *  wants it (runtime/list-index.ts). */
export interface Revived {
  readonly discovery: Discovery;
  /** the sources as the snapshot lists them (paths and sizes only: what the list index reads) */
  sources(): readonly SourceListing[];
  readonly inputs: PassInputs & { readonly start: bigint };
}

export interface SnapshotRequest {
  readonly paths: AgentPaths;
  /** lower-priority standard library of components */
  readonly packagedRoot?: string;
  /** explicitly named ad hoc recipe files: components ranked between the user root and packaged */
  readonly adhocFiles?: readonly string[];
}

/** What a FIFO, socket or device named like a recipe or import reads as: an error, never a wait. */
export const notRegularFile = (path: string): string => `EINVAL: not a regular file (a FIFO, socket or device): ${path}`;

/** A path the system cannot open at all; said plainly rather than as Node's argument error. */
export const nulInPath = (path: string): string => `EINVAL: the path contains a NUL byte: ${JSON.stringify(path)}`;

/** A folder where a recipe file was named. */
export const aFolder = (path: string): string => `EISDIR: a folder, not a recipe file: ${path}`;

/** A failed read: the errno code decides, the text is what the operator reads. */
export const unreadable = (head: { path: string; size: number; mtimeMs: number; birthtimeMs: number }, code: string, text: string): SnapshotFile =>
  ({ ...head, readError: text, readErrorCode: code });

/** Whether the read failed with one of these errno codes (by its code, never its text). */
export const readFailedWith = (f: SnapshotFile, ...codes: readonly string[]): boolean =>
  f.readErrorCode !== undefined && codes.includes(f.readErrorCode);

export function readFileEntry(scan: ScanPort, path: string, stat = false): SnapshotFile {
  return readEntry(scan, path, stat, false).file;
}

/** readFileEntry, with the identity of the regular file read (its descriptor's stat, taken before
 *  the read): one stat fewer than an identity by path and then the read, for a file that has to be
 *  read anyway (runtime/compile-cache.ts, a recipe it kept nothing for). */
export function readIdentifiedEntry(scan: ScanPort, path: string): { readonly file: SnapshotFile; readonly identity?: FileIdentity } {
  return readEntry(scan, path, false, true);
}

function readEntry(scan: ScanPort, path: string, stat: boolean, identity: boolean): { readonly file: SnapshotFile; readonly identity?: FileIdentity } {
  const none = { path, size: 0, mtimeMs: 0, birthtimeMs: 0 };
  if (path.includes("\0")) return { file: unreadable(none, "EINVAL", nulInPath(path)) };
  const r = scan.readBounded(path, RECIPE_SIZE_LIMIT, { stat, identity });
  // a Unix socket cannot be opened at all (ENXIO, as a device without its driver): not a
  // regular file, said as a FIFO is
  if (!r.ok && r.code === "ENXIO") return { file: unreadable(none, "EINVAL", notRegularFile(path)) };
  // node's own messages begin with the code already ("ENOENT: no such file or directory, open ...")
  if (!r.ok) return { file: unreadable(none, r.code, r.message.startsWith(`${r.code}:`) ? r.message : `${r.code}: ${r.message}`) };
  const { size, mtimeMs, birthtimeMs, bytes, isFile } = r.value;
  if (!isFile) {
    const head = { path, size: 0, mtimeMs, birthtimeMs };
    return { file: r.value.mode !== 0 && (r.value.mode & 0o170000) === 0o040000 ? unreadable(head, "EISDIR", aFolder(path)) : unreadable(head, "EINVAL", notRegularFile(path)) };
  }
  const file = bytes === undefined ? { path, size, mtimeMs, birthtimeMs } : { path, size, mtimeMs, birthtimeMs, bytes };
  return r.value.identity === undefined ? { file } : { file, identity: r.value.identity };
}

/** A listed entry that is a recipe: named `*.json`/`*.md` (no dot-file), and a file or another
 *  non-folder, non-symlink kind (a FIFO, socket or device so named, which cannot be read). */
export const isRecipeEntry = <E extends { readonly name: string; readonly kind: string }>(entry: E): entry is E & { readonly kind: "file" | "other" } =>
  (entry.kind === "file" || entry.kind === "other") && recipeFileName(entry.name) !== undefined;

/** A listed symbolic link named like a recipe: never followed, but said (SourceListing.links). */
export const isRecipeLink = (entry: { readonly name: string; readonly kind: string }): boolean =>
  entry.kind === "symlink" && recipeFileName(entry.name) !== undefined;

/** A listed entry meant as a recipe by its name but never loaded (SourceListing.strays): a folder
 *  named like a recipe, or anything but a folder with a near-miss name. */
export const isStrayEntry = (entry: { readonly name: string; readonly kind: string }): boolean =>
  entry.kind === "dir" ? recipeFileName(entry.name) !== undefined : misnamedRecipe(entry.name);

/** The recipe entries of one directory: entries named `*.json`/`*.md` that are not folders,
 *  symlinks or dot-files (a FIFO, socket or device so named is listed, kind "other"), in the
 *  order the directory gives them, and the paths of the symlinks named like recipes; `error`
 *  when the folder exists but cannot be listed. */
export function listRecipeEntries(
  scan: ScanPort, dir: string,
): { present: boolean; entries: { readonly path: string; readonly kind: "file" | "other" }[]; links: string[]; strays: string[]; error?: string } {
  const listed = scan.listDir(dir);
  if (!listed.ok) {
    if (listed.code === "ENOENT") return { present: false, entries: [], links: [], strays: [] };
    const detail = listed.code === "ELOOP" ? `the path is a symbolic link loop (${listed.message})` : listed.message.startsWith(listed.code) ? listed.message : `${listed.code}: ${listed.message}`;
    return { present: true, entries: [], links: [], strays: [], error: detail.startsWith(listed.code) ? detail : `${listed.code}: ${detail}` };
  }
  const entries: { path: string; kind: "file" | "other" }[] = [];
  const links: string[] = [];
  const strays: string[] = [];
  for (let i = 0; i < listed.value.length; i++) {
    const entry = listed.value[i]!;
    if (isRecipeEntry(entry)) entries.push({ path: dir + "/" + entry.name, kind: entry.kind });
    else if (isRecipeLink(entry)) links.push(dir + "/" + entry.name);
    else if (isStrayEntry(entry)) strays.push(dir + "/" + entry.name);
  }
  return { present: true, entries, links: links.sort(compareText), strays: strays.sort(compareText) };
}

/** The recipe file names `dir` lists now, when they can stand for a listing recorded earlier
 *  (the list index, the whole-root snapshot): the folder lists without an error, is present or
 *  absent as recorded, names no FIFO, socket or device and holds no symlink named like a recipe
 *  nor, unless `strays` is false (the drafts folder, whose strays are never said), a stray entry
 *  (isStrayEntry; a pass that saw either records nothing: its diagnostic would outlive it), and, when present and `mode` is given,
 *  still has that mode (a root turned world-writable is an error of the registry). Else undefined. */
export function namesListedNow(scan: ScanPort, dir: string, present: boolean, mode?: number | null, strays = true): Set<string> | undefined {
  // the names straight from the listing (isRecipeEntry, without making a path of each as
  // listRecipeEntries does: this runs over every recipe name of a warm `list`)
  const listed = scan.listDir(dir);
  if (!listed.ok) return listed.code === "ENOENT" && !present ? new Set() : undefined;
  if (!present) return undefined;
  const names = new Set<string>();
  for (let i = 0; i < listed.value.length; i++) {
    const entry = listed.value[i]!;
    if (!isRecipeEntry(entry)) {
      if (isRecipeLink(entry) || (strays && isStrayEntry(entry))) return undefined;
      continue;
    }
    if (entry.kind !== "file") return undefined;
    names.add(entry.name);
  }
  if (mode !== undefined) {
    const st = scan.statPath(dir);
    if (!st.ok || st.value.mode !== mode) return undefined;
  }
  return names;
}

/** Whether `dir` lists now without an error or is not there: either way a drafts folder adds no
 *  diagnostic to a discovery (listRecipeEntries says when a listing is an error). */
export function listsOrIsAbsent(scan: ScanPort, dir: string): boolean {
  const listed = scan.listDir(dir);
  return listed.ok || listed.code === "ENOENT";
}

/** Recipe files of one directory (listRecipeEntries). A FIFO, socket or device so named is a
 *  file that cannot be read. Regular files go through `read` when given (the compile cache). */
export function listRecipeDir(
  scan: ScanPort, dir: string, stat = false, read?: (path: string) => SnapshotFile,
): { present: boolean; files: SnapshotFile[]; links: string[]; strays: string[]; error?: string } {
  const { present, entries, links, strays, error } = listRecipeEntries(scan, dir);
  if (error !== undefined) return { present, files: [], links, strays, error };
  const files = entries.map(({ path, kind }) => (read === undefined || kind !== "file" ? readFileEntry(scan, path, stat) : read(path)));
  return { present, files, links, strays };
}

function rootSource(scan: ScanPort, dir: string, tool: boolean, cache: CompileCacheSession | undefined): SourceListing {
  const { present, files, links, strays, error } = listRecipeDir(scan, dir, false, cache?.file);
  const st = present ? scan.statPath(dir) : undefined;
  return {
    kind: "root",
    root: dir,
    present,
    tool,
    mutableUsage: tool,
    files,
    ...(st?.ok === true ? { rootMode: st.value.mode } : {}),
    ...(error === undefined ? {} : { error }),
    ...(links.length === 0 ? {} : { links }),
    ...(strays.length === 0 ? {} : { strays }),
  };
}

/** A cached reader of files outside the roots (imports, delegation targets): a missing file is
 * `undefined`, any other read problem is a file entry carrying its error. `exists` may answer
 * "missing" cheaply first (a stat instead of an open). */
export function extraReader(
  scan: ScanPort, exists: (path: string) => boolean = () => true, onRead?: (path: string, file: SnapshotFile | undefined) => void,
): (path: string) => SnapshotFile | undefined {
  const extra = new Map<string, SnapshotFile | undefined>();
  return (path) => {
    if (!extra.has(path)) {
      let file: SnapshotFile | undefined;
      if (exists(path)) {
        const f = readFileEntry(scan, path);
        file = readFailedWith(f, "ENOENT", "ENOTDIR", "EISDIR") ? undefined : f;
      }
      extra.set(path, file);
      onRead?.(path, file);
    }
    return extra.get(path);
  };
}

/** The snapshot discovery reads; with a compile cache session, files whose compile is current
 *  are stat'ed, not read. */
const cachedReader = (read: (path: string) => SnapshotFile | undefined): ((path: string) => SnapshotFile | undefined) => {
  const seen = new Map<string, SnapshotFile | undefined>();
  return (path) => {
    if (!seen.has(path)) seen.set(path, read(path));
    return seen.get(path);
  };
};

export function readSnapshot(scan: ScanPort, request: SnapshotRequest, cache?: CompileCacheSession): RegistrySnapshot {
  const { paths } = request;
  const sources: SourceListing[] = [rootSource(scan, paths.recipeRoot, true, cache)];
  for (const file of request.adhocFiles ?? []) {
    const dir = file.slice(0, file.lastIndexOf("/")) || "/";
    sources.push({ kind: "file", root: dir, present: true, tool: false, mutableUsage: false, files: [readFileEntry(scan, file)] });
  }
  if (request.packagedRoot !== undefined) sources.push(rootSource(scan, request.packagedRoot, false, cache));
  const readExtra = cache === undefined ? extraReader(scan) : cachedReader(cache.readExtra);
  const drafts = cache === undefined ? listRecipeDir(scan, paths.draftRoot, true) : cache.drafts(paths.draftRoot);
  return {
    agentDir: paths.agentDir,
    recipeRoot: paths.recipeRoot,
    home: paths.home,
    cwd: paths.cwd,
    sources,
    drafts: drafts.files,
    ...(drafts.error === undefined ? {} : { draftsUnlisted: { dir: paths.draftRoot, error: drafts.error } }),
    readExtra,
    ...(request.packagedRoot === undefined ? {} : { packagedRoot: request.packagedRoot }),
  };
}
