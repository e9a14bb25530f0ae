// Small file helpers of the review runtime: JSON read that treats a missing or unreadable file as
// absent, atomic JSON write, a file's bytes digest and a probe of what sits at a path.
import { dirname } from "node:path";
import { hasCode, readJson, readJsonOrUndefined, writeFileAtomic, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { sha256Bytes } from "../ledger/index.js";
import { ensureDir } from "../journal/apply.js";

export { ensureDir };

export { readJsonOrUndefined };

/** A review's state file that is there but does not read as one: never taken for "no review",
 *  which would forget the review it holds (an approved plan included) and start another. */
export class ReviewStateUnreadable extends Error {
  constructor(readonly path: string, readonly why: string) {
    super(`the review state ${path} is unreadable (${why}); nothing was done. ${stateAdvice(path)}`);
    this.name = "ReviewStateUnreadable";
  }
}

const stateAdvice = (path: string): string =>
  `Look at it, then move it aside or delete it to start over (the review it records is then forgotten; its files stay under ${dirname(path)})`;

/** What the views say of a state file that does not read. */
export const unreadableStateLine = (e: ReviewStateUnreadable): string =>
  `Review state ${e.path} is unreadable (${e.why}): the review it records is not carried on, and no other starts while it is there. ${stateAdvice(e.path)}`;

/** The state at `path` decoded, undefined when no file is there; ReviewStateUnreadable when one is
 *  there that is not JSON or not of the state's shape. */
export async function readStateFile<S>(fs: FileSystem, path: string, decode: (raw: unknown) => S | undefined): Promise<S | undefined> {
  let raw: unknown;
  try {
    raw = await readJson(fs, path);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
    if (hasCode(e, "EINVAL", "EILSEQ")) throw new ReviewStateUnreadable(path, "not JSON");
    throw e;
  }
  const state = decode(raw);
  if (state === undefined) throw new ReviewStateUnreadable(path, "not a review state");
  return state;
}

export async function writeJson(fs: FileSystem, path: string, value: unknown): Promise<void> {
  // a new folder must survive a crash as surely as the file in it
  await ensureDir(fs, dirname(path));
  await writeFileAtomic(fs, path, `${JSON.stringify(value, null, 2)}\n`);
}

/** sha256 of a regular file's bytes; undefined when nothing (or not a regular file) is there. */
export async function fileSha(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    if ((await fs.lstat(path)).kind !== "file") return undefined;
    return sha256Bytes(await fs.readFile(path));
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
    throw e;
  }
}

export async function exists(fs: FileSystem, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return false;
    throw e;
  }
}

/** Makes `dir` and every folder above it up to `top` durable, whoever created them: a folder
 *  another component made with a plain mkdir could otherwise vanish in a crash with everything
 *  the review later wrote inside it. */
export async function durableChain(fs: FileSystem, dir: string, top: string): Promise<void> {
  await ensureDir(fs, dir);
  // strictly below `top`: the walk stops at `top` itself (which no `${top}/...` names) and never
  // starts for a folder outside it
  for (let d = dir; d.startsWith(`${top}/`); d = dirname(d)) await fs.fsyncDir(dirname(d));
}
