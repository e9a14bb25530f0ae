// The FileSystem port: a small set of primitives that adapters (node, memfs) implement, plus the
// helpers that are written once on top of it.
//
// Error style: every operation returns a Promise and rejects only with an `FsError`, whose `code`
// is one member of the closed `FsErrorCode` union. Adapters never build an FsError themselves:
// they run each call through `guardFs`, which uses the single mapping function `toFsError`, so
// one errno always becomes the same typed error whatever the adapter. Callers that prefer
// values can wrap a call with fp-ts `TaskEither.tryCatch(run, (e) => e as FsError)`; the cast
// is sound because of that guarantee (the contract suite checks it).
//
// Paths are absolute, in the host's syntax. Where memfs behaves unlike Linux, the adapter says
// so in `capabilities` instead of pretending; the shared contract suite states each difference.
import { basename, dirname, join } from "node:path";

export type FileKind = "file" | "dir" | "symlink" | "other";

export interface DirEntry {
  readonly name: string;
  /** the entry itself: a symlink is "symlink" whatever it points to */
  readonly kind: FileKind;
}

export interface FileStat {
  readonly kind: FileKind;
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs: number;
  /** type and permission bits, as in st_mode */
  readonly mode: number;
  readonly nlink: number;
  readonly ino?: number;
  readonly dev?: number;
}

export type WriteFlag = "w" | "wx" | "a";
export type OpenFlag = "r" | WriteFlag;

export interface WriteOptions {
  /** "w" create or truncate (default), "wx" create only if absent, "a" create or append */
  readonly flag?: WriteFlag;
  /** permission bits used only when the file is created (the process umask still applies) */
  readonly mode?: number;
}

/** An open file: writes go at the current position (the end, for "a"). */
export interface FileHandle {
  write(data: Uint8Array | string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface FsCapabilities {
  /** rename refuses what Linux refuses: a folder into itself (EINVAL), a file over a folder
   *  (EISDIR), a folder over a file (ENOTDIR), a folder over a non-empty folder (ENOTEMPTY).
   *  memfs: false, it performs those renames and the target is lost. */
  readonly strictRename: boolean;
  /** link refuses to hard-link a folder (EPERM). memfs: false, it links the folder. */
  readonly strictLink: boolean;
  /** sync/fsyncDir reach stable storage. memfs: false, they only check the path. */
  readonly durableSync: boolean;
  /** the code of unlink on a folder: Linux says EISDIR, POSIX/macOS and memfs say EPERM */
  readonly unlinkDirCode: "EISDIR" | "EPERM";
}

export interface FileSystem {
  readonly name: string;
  readonly capabilities: FsCapabilities;
  /** regular files only: a FIFO, socket or device fails at once with EINVAL, never blocks */
  readFile(path: string): Promise<Uint8Array>;
  /** up to `length` bytes of a regular file from byte `position` on (fewer at its end, none past
   *  it): a part of a file that may be large or still growing, such as a log's last lines */
  readAt(path: string, position: number, length: number): Promise<Uint8Array>;
  /** a string is written as UTF-8 */
  writeFile(path: string, data: Uint8Array | string, options?: WriteOptions): Promise<void>;
  open(path: string, flag: OpenFlag, mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options?: { readonly recursive?: boolean }): Promise<void>;
  rmdir(path: string): Promise<void>;
  /** removes a file or symlink (never what it points to); a folder needs `recursive`;
   *  `force` makes a missing path a success */
  rm(path: string, options?: { readonly recursive?: boolean; readonly force?: boolean }): Promise<void>;
  /** entries in no particular order, without "." and ".." */
  readdir(path: string): Promise<readonly DirEntry[]>;
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  link(existing: string, newPath: string): Promise<void>;
  fsyncDir(path: string): Promise<void>;
  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void>;
  /** sets the permission bits exactly (no umask); optional: a file system without permissions
   *  (a crash model) leaves it out and callers skip it */
  chmod?(path: string, mode: number): Promise<void>;
}

export type FsOperation = Exclude<keyof FileSystem, "name" | "capabilities"> | "handle.write" | "handle.sync" | "handle.close";

export type FsErrorCode =
  | "ENOENT" | "EEXIST" | "ENOTDIR" | "EISDIR" | "ENOTEMPTY" | "EACCES" | "EPERM" | "ELOOP"
  | "EXDEV" | "EINVAL" | "EBUSY" | "EMFILE"
  /** bytes that are not valid UTF-8 (readText) */
  | "EILSEQ"
  | "UNKNOWN";

const KNOWN_CODES: ReadonlySet<string> = new Set<FsErrorCode>([
  "ENOENT", "EEXIST", "ENOTDIR", "EISDIR", "ENOTEMPTY", "EACCES", "EPERM", "ELOOP",
  "EXDEV", "EINVAL", "EBUSY", "EMFILE", "EILSEQ",
]);

// Node's rm reports a folder without `recursive` with its own non-errno code.
const ALIASES: Readonly<Record<string, FsErrorCode>> = { ERR_FS_EISDIR: "EISDIR", ENFILE: "EMFILE" };

export class FsError extends Error {
  override readonly name = "FsError";
  readonly code: FsErrorCode;
  /** the port operation that failed (not the underlying system call, which differs per adapter) */
  readonly syscall: FsOperation;
  /** the path the caller passed */
  readonly path: string;
  /** the second path of rename, link and symlink */
  readonly dest: string | undefined;
  /** the adapter's own code, kept when `code` is UNKNOWN (e.g. ENOSPC, ENAMETOOLONG) */
  readonly rawCode: string | undefined;

  constructor(code: FsErrorCode, syscall: FsOperation, path: string, message: string, extra: { dest?: string; rawCode?: string; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.syscall = syscall;
    this.path = path;
    this.dest = extra.dest;
    this.rawCode = extra.rawCode;
  }
}

export const isFsError = (u: unknown): u is FsError => u instanceof FsError;

export const hasCode = (u: unknown, ...codes: readonly FsErrorCode[]): u is FsError => isFsError(u) && codes.includes(u.code);

/** The one errno mapping. An FsError passes through unchanged, so helpers can nest guards. */
export function toFsError(cause: unknown, syscall: FsOperation, path: string, dest?: string): FsError {
  if (isFsError(cause)) return cause;
  const raw = typeof cause === "object" && cause !== null && typeof (cause as { code?: unknown }).code === "string" ? (cause as { code: string }).code : undefined;
  const code: FsErrorCode = raw === undefined ? "UNKNOWN" : KNOWN_CODES.has(raw) ? (raw as FsErrorCode) : (ALIASES[raw] ?? "UNKNOWN");
  const detail = cause instanceof Error ? cause.message : String(cause);
  const where = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
  // node's own message is whole already ("ENOTDIR: not a directory, open '/x'"): said once, not
  // wrapped in a second one that names the code and the path again
  const whole = raw !== undefined && detail.startsWith(`${raw}: `) && detail.includes(`'${path}'`);
  const message = whole ? detail : `${code === "UNKNOWN" ? (raw ?? "UNKNOWN") : code}: ${syscall} ${where} (${detail})`;
  return new FsError(code, syscall, path, message, { ...(dest === undefined ? {} : { dest }), ...(raw === undefined ? {} : { rawCode: raw }), cause });
}

/** Runs one adapter call and rejects with the mapped FsError; both adapters route every call here. */
export async function guardFs<A>(syscall: FsOperation, path: string, run: () => Promise<A>, dest?: string): Promise<A> {
  try {
    return await run();
  } catch (e) {
    throw toFsError(e, syscall, path, dest);
  }
}

// ---- derived helpers, written once on the port ----

/** true for anything `stat` reaches; false when the path or a folder on it is missing (a
 *  dangling symlink is missing). Other failures (EACCES, ELOOP) reject: they are not absence. */
export async function exists(fs: FileSystem, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return true;
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return false;
    throw e;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text with a leading BOM dropped; invalid bytes reject with EILSEQ. */
export async function readText(fs: FileSystem, path: string): Promise<string> {
  const bytes = await fs.readFile(path);
  try {
    return utf8.decode(bytes);
  } catch (e) {
    throw new FsError("EILSEQ", "readFile", path, `EILSEQ: readFile '${path}' is not valid UTF-8`, { cause: e });
  }
}

/** Parsed JSON; malformed JSON rejects with EINVAL carrying the parser's message. */
export async function readJson(fs: FileSystem, path: string): Promise<unknown> {
  const text = await readText(fs, path);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new FsError("EINVAL", "readFile", path, `EINVAL: readFile '${path}' is not valid JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** Parsed JSON, or undefined when there is no file (or a folder on its path is a file, or its
 *  bytes are not JSON or not UTF-8): for state a writer may not have written yet. */
export async function readJsonOrUndefined(fs: FileSystem, path: string): Promise<unknown> {
  try {
    return await readJson(fs, path);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR", "EINVAL", "EILSEQ")) return undefined;
    throw e;
  }
}

/** Flushes a file's data and metadata (a no-op where the adapter is not durable). */
export async function fsyncFile(fs: FileSystem, path: string): Promise<void> {
  const handle = await fs.open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Temp names are dot-files so discovery and the watcher skip them; the suffix keeps concurrent
// writers (and a stray left by a crash) apart.
const TEMP_NAME = /^\.(.+)\.([A-Za-z0-9_-]+)\.tmp$/;
const SUFFIX = /^[A-Za-z0-9_-]+$/;

export const atomicTempName = (base: string, suffix: string): string => `.${base}.${suffix}.tmp`;

export const isAtomicTempName = (name: string): boolean => TEMP_NAME.test(name);

/** The file an atomic-write temp was for and its writer's pid, for a temp named the way this
 *  module names them by default (`.<base>.<pid>-<n>.tmp`); undefined for any other name. */
export function atomicTempWriter(name: string): { readonly base: string; readonly pid: number } | undefined {
  const m = TEMP_NAME.exec(name);
  const pid = m === null ? undefined : /^(\d+)-\d+$/.exec(m[2]!)?.[1];
  return pid === undefined ? undefined : { base: m![1]!, pid: Number(pid) };
}

let tempCounter = 0;
/** A fresh unique part of a temp name: this process's pid and a counter (atomicTempWriter reads
 *  the pid back). Shared by every writer of temps in this process. */
export const nextTempId = (): string => `${process.pid}-${++tempCounter}`;

export interface AtomicWriteOptions {
  /** permission bits of the new file */
  readonly mode?: number;
  /** the unique part of the temp name, [A-Za-z0-9_-]+; defaults to pid + a counter */
  readonly tempId?: () => string;
}

/** How many fresh temp names a writer tries: a stray temp of a dead process with a reused pid
 *  (or of this one) can hold a name. */
export const TEMP_ATTEMPTS = 8;

/**
 * Replaces `path` so that a reader or a crash sees the old content or the new, never a mix:
 * write a temp in the same folder, fsync it, rename it over the target, fsync the folder.
 * On failure the temp is removed and the target is untouched. A symlink at `path` is replaced
 * by the file, not written through.
 */
export async function writeFileAtomic(fs: FileSystem, path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  await placeSyncedTemp(fs, path, data, options, (temp) => fs.rename(temp, path));
  await fs.fsyncDir(dirname(path));
}

/**
 * Creates `path` with `data` only if nothing is there yet, so that a reader or a crash sees no
 * file or the whole file, never a part: write a temp in the same folder, fsync it, hard-link it
 * to the target (link refuses an existing name with EEXIST, so an existing file is never
 * replaced), remove the temp, fsync the folder. On EEXIST (or any failure) the temp is removed
 * and the existing file is untouched; the error says `link` when the target already existed.
 * A crash may leave the temp behind (a dot-temp that `cleanStrayTemps` removes), never a short
 * target.
 */
export async function writeFileAtomicExclusive(fs: FileSystem, path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = await placeSyncedTemp(fs, path, data, options, (t) => fs.link(t, path));
  // The target is in place; the temp is a second name of the same file. Failing to remove it
  // does not undo the write, so it is reported like any other failure after the fact would be:
  // the caller learns the folder still holds a stray temp.
  await fs.unlink(temp);
  await fs.fsyncDir(dirname(path));
}

/**
 * Writes `data` to a fresh temp beside `path`, fsyncs and closes it, then hands it to `place`
 * (rename over the target, or link to it). On any failure the temp is removed and the failure
 * rethrown. Returns the temp's name.
 */
async function placeSyncedTemp(fs: FileSystem, path: string, data: Uint8Array | string, options: AtomicWriteOptions, place: (temp: string) => Promise<void>): Promise<string> {
  const { temp, handle } = await openTemp(fs, path, options);
  try {
    try {
      await handle.write(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await place(temp);
  } catch (e) {
    // best effort: the failure to report is the one that brought us here
    await fs.rm(temp).catch(() => undefined);
    throw e;
  }
  return temp;
}

async function openTemp(fs: FileSystem, path: string, options: AtomicWriteOptions): Promise<{ temp: string; handle: FileHandle }> {
  const nextId = options.tempId ?? nextTempId;
  for (let attempt = 1; ; attempt++) {
    const suffix = nextId();
    if (!SUFFIX.test(suffix)) throw new FsError("EINVAL", "open", path, `EINVAL: temp id '${suffix}' is not [A-Za-z0-9_-]+`);
    const temp = join(dirname(path), atomicTempName(basename(path), suffix));
    try {
      return { temp, handle: await fs.open(temp, "wx", options.mode) };
    } catch (e) {
      if (!hasCode(e, "EEXIST") || attempt >= TEMP_ATTEMPTS) throw e;
    }
  }
}

/**
 * Removes the atomic-write temp files (regular files only) directly in `dir` and returns their
 * names. A temp of a write still in progress would be removed too: call it under the folder's lock.
 */
export async function cleanStrayTemps(fs: FileSystem, dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await fs.readdir(dir)) {
    if (entry.kind !== "file" || !isAtomicTempName(entry.name)) continue;
    try {
      await fs.unlink(join(dir, entry.name));
      removed.push(entry.name);
    } catch (e) {
      if (!hasCode(e, "ENOENT")) throw e;
    }
  }
  return removed;
}
