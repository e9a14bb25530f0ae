// Recipe files read through the FileSystem port for the pure core, which reads synchronously:
// the core asks, the reader answers from what it has and notes what it lacked; the runtime
// fetches those files and asks again until nothing is missing (imports and references are found
// only by resolving, so the set of files a decision needs is learned while deciding).
import { RECIPE_SIZE_LIMIT, type SnapshotFile } from "../core/model.js";
import { hasCode, isFsError, type FileSystem } from "../adapters/fs/FileSystem.js";
import { aFolder, notRegularFile, nulInPath, unreadable } from "./recipe-snapshot.js";

export interface CachingReader {
  /** the file as last fetched; undefined when it does not exist or was not fetched yet */
  readonly readFile: (path: string) => SnapshotFile | undefined;
  /** fetches every path asked for but not fetched yet; false when there was none */
  fetchMissing(): Promise<boolean>;
  fetch(paths: readonly string[]): Promise<void>;
}

const errnoOf = (e: unknown): string => (isFsError(e) ? e.code : "UNKNOWN");

/** One file as discovery would see it: absent (undefined), unreadable (`readError`), too large
 * (no bytes) or read. Symlinks are followed. */
export async function readRecipeFile(fs: FileSystem, path: string): Promise<SnapshotFile | undefined> {
  const none = { path, size: 0, mtimeMs: 0, birthtimeMs: 0 };
  if (path.includes("\0")) return unreadable(none, "EINVAL", nulInPath(path));
  let stat;
  try {
    stat = await fs.stat(path);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR", "ELOOP")) return undefined;
    return unreadable(none, errnoOf(e), e instanceof Error ? e.message : String(e));
  }
  const head = { path, size: stat.size, mtimeMs: stat.mtimeMs, birthtimeMs: stat.birthtimeMs };
  if (stat.kind === "dir") return unreadable(head, "EISDIR", aFolder(path));
  if (stat.kind !== "file") return unreadable(head, "EINVAL", notRegularFile(path));
  if (stat.size > RECIPE_SIZE_LIMIT) return head;
  try {
    return { ...head, bytes: await fs.readFile(path) };
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
    return unreadable(head, errnoOf(e), e instanceof Error ? e.message : String(e));
  }
}

export function makeCachingReader(fs: FileSystem): CachingReader {
  const files = new Map<string, SnapshotFile | undefined>();
  const missing = new Set<string>();
  const fetch = async (paths: readonly string[]): Promise<void> => {
    const todo = paths.filter((p) => !files.has(p));
    const read = await Promise.all(todo.map((p) => readRecipeFile(fs, p)));
    todo.forEach((p, i) => {
      files.set(p, read[i]);
      missing.delete(p);
    });
  };
  return {
    readFile: (path) => {
      if (!files.has(path)) missing.add(path);
      return files.get(path);
    },
    fetch,
    async fetchMissing() {
      if (missing.size === 0) return false;
      await fetch([...missing]);
      return true;
    },
  };
}

/** Runs the pure `decide` until it needed no file it had not seen (at most `rounds` times). */
export async function settle<A>(reader: CachingReader, decide: () => A, rounds = 100): Promise<A> {
  for (let round = 1; ; round++) {
    const result = decide();
    if (round >= rounds || !(await reader.fetchMissing())) return result;
  }
}
