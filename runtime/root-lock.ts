// The locks of a recipe root live in it (`<root>/.locks`, runtime/agent-paths.ts), so a root that
// is there but is no folder (a file left where the folder should be) makes every lock fail on the
// way to its folder, with ENOTDIR for a `.locks` the user never made. Every verb that writes takes
// a lock first (register_tool, review, activate, rollback, the ledger's folds), so the lock says
// what is wrong instead: the root, and that it is not a folder (RecipeRootError).
import { hasCode, type FileSystem } from "../adapters/fs/FileSystem.js";
import type { HeldLock, Lock, LockOptions } from "../adapters/lock/Lock.js";
import { rootNotAFolder } from "../core/discovery/diagnostic-texts.js";

/** The recipe root is there and is no folder. Known by its code (hosts may hold another bundle's
 *  copy of the class). */
export class RecipeRootError extends Error {
  override readonly name = "RecipeRootError";
  readonly code = "ERECIPEROOT";
  readonly root: string;

  constructor(root: string, kind: "file" | "other") {
    super(rootNotAFolder(root, kind));
    this.root = root;
  }
}

/** What stands at `path` when it is there and is no folder (a symlink counts as what it points
 *  to); undefined when it is a folder, is not there, or cannot be looked at. */
export async function notAFolderAt(fs: FileSystem, path: string): Promise<"file" | "other" | undefined> {
  try {
    const { kind } = await fs.stat(path);
    return kind === "dir" ? undefined : kind === "file" ? "file" : "other";
  } catch {
    return undefined;
  }
}

/** `lock`, whose failures to reach its folder under `root` say so when the root is no folder. */
export function recipeRootLock(fs: FileSystem, root: string, lock: Lock): Lock {
  const why = async (e: unknown): Promise<unknown> => {
    if (!hasCode(e, "ENOTDIR", "EEXIST")) return e;
    const kind = await notAFolderAt(fs, root);
    return kind === undefined ? e : new RecipeRootError(root, kind);
  };
  return {
    async acquire(path: string, options?: LockOptions): Promise<HeldLock> {
      try {
        return await lock.acquire(path, options);
      } catch (e) {
        throw await why(e);
      }
    },
    async withLock<A>(path: string, fn: () => A | Promise<A>, options?: LockOptions): Promise<A> {
      // a failure of `fn` itself is its own: only a lock that was never taken is explained
      let entered = false;
      try {
        return await lock.withLock(path, () => ((entered = true), fn()), options);
      } catch (e) {
        throw entered ? e : await why(e);
      }
    },
  };
}
