// What the lock tests share: a fresh folder per test with a lock root and a recipe path in it,
// the lock file of that path, lock files planted by hand, and owners that are provably dead.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FsError, type FileSystem, type FsErrorCode } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { canonicalLockPath } from "../../../adapters/lock/canonical-path.js";
import { lockFilePath } from "../../../adapters/lock/file-lock.js";
import { encodeOwner, makeOwnerRecord } from "../../../adapters/lock/owner.js";

export interface LockDir {
  /** the test's own folder */
  readonly dir: string;
  /** the lock root inside it (not created) */
  readonly root: string;
  /** a recipe path inside it, the key the tests lock */
  readonly path: string;
  /** the lock file of `path` */
  readonly lockFile: string;
}

/** A fresh folder for each test of the calling file, removed after it. */
export function useLockDir(prefix: string): LockDir {
  const at: { -readonly [K in keyof LockDir]: LockDir[K] } = { dir: "", root: "", path: "", lockFile: "" };
  beforeEach(async () => {
    at.dir = await mkdtemp(join(tmpdir(), prefix));
    at.root = join(at.dir, "locks");
    at.path = join(at.dir, "recipe.json");
    at.lockFile = lockFilePath(at.root, await canonicalLockPath(makeNodeFileSystem(), at.path));
  });
  afterEach(() => rm(at.dir, { recursive: true, force: true }));
  return at;
}

/** Writes `text` as the lock file of `at.path`, with its mtime `ageMs` in the past. */
export async function plantLock(at: LockDir, text: string, ageMs = 0): Promise<void> {
  await mkdir(at.root, { recursive: true });
  await writeFile(at.lockFile, text);
  const seconds = (Date.now() - ageMs) / 1000;
  await utimes(at.lockFile, seconds, seconds);
}

/** The pid of a process that has exited. */
export const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid!;

/** An owner record of a process that has exited. */
export const deadOwner = (): string => encodeOwner({ ...makeOwnerRecord("dead", 0), pid: deadPid() });

/** `base` whose hard links fail with `code`, as they do where links are unsupported */
export const withoutLinks = (code: FsErrorCode, base: FileSystem = makeNodeFileSystem()): FileSystem => ({
  ...base,
  link: (existing, newPath) => Promise.reject(new FsError(code, "link", existing, `${code}: link '${existing}' -> '${newPath}'`, { dest: newPath })),
});
