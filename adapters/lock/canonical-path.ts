// The identity a lock is keyed by. Two spellings of one file (a real path and a symlink alias, or
// an alias of a folder above it) must give one key, and a file that does not exist yet must have
// a key too: so the nearest existing ancestor is resolved with realpath and the missing segments
// are appended again.
import { nodeCrypto } from "../node-crypto.js";
import { basename, dirname, join, resolve } from "node:path";
import { hasCode, type FileSystem } from "../fs/FileSystem.js";

/**
 * realpath of `path`, or of its nearest existing ancestor followed by the segments below it that
 * do not exist; lower-cased on Windows, whose paths are case-insensitive. A dangling symlink or a
 * symlink loop counts as missing (its folder is resolved, its name kept). Other failures
 * (EACCES) reject: a wrong key would silently split one lock in two.
 */
export async function canonicalLockPath(fs: FileSystem, path: string, platform: NodeJS.Platform = process.platform): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      const full = missing.length === 0 ? real : join(real, ...missing.reverse());
      return platform === "win32" ? full.toLowerCase() : full;
    } catch (e) {
      if (!hasCode(e, "ENOENT", "ENOTDIR", "ELOOP")) throw e;
      const parent = dirname(current);
      // the root itself always exists; this only guards against an adapter that says otherwise
      if (parent === current) return platform === "win32" ? absolute.toLowerCase() : absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** The file name stem of a canonical path's lock: sha256, hex. */
export const lockKey = (canonicalPath: string): string => nodeCrypto().createHash("sha256").update(canonicalPath, "utf8").digest("hex");
