// A plan confined to a folder (Plan.root) writes only the folder's own files: the text of its
// paths is checked when the plan is built (core/journal/plan.ts), and what is on disk here, right
// before the plan is first applied and again before a recovery replays it. A folder below the
// root swapped for a symlink (`drafts/`, `.usage/`, a revision ring) would otherwise send a
// rename or a write outside it, also when the swap happened between a crash and the recovery.
import { dirname } from "node:path";
import { hasCode, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { pathsOf, plainBelow, type Plan } from "../../core/journal/plan.js";

async function kindAt(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return (await fs.lstat(path)).kind;
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined;
    throw e;
  }
}

/**
 * The first symlink between `root` (excluded) and one of `paths` (included), or undefined. A
 * path that is not a plain path below the root (outside it, or with `..`, `.` or empty parts) is
 * reported as well.
 */
export async function symlinkBelowRoot(fs: FileSystem, root: string, paths: readonly string[]): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const path of paths) {
    if (!plainBelow(root, path)) return path;
    for (let at = path; at !== root; at = dirname(at)) {
      if (seen.has(at)) break;
      seen.add(at);
      if ((await kindAt(fs, at)) === "symlink") return at;
    }
  }
  return undefined;
}

/** Why the plan may not touch the disk now: a path of a confined plan has a symlink on its way
 *  (or lies outside its root); undefined when it may, or when the plan is not confined. */
export async function confinementBroken(fs: FileSystem, plan: Plan): Promise<string | undefined> {
  if (plan.root === undefined) return undefined;
  const at = await symlinkBelowRoot(fs, plan.root, pathsOf(plan));
  if (at === undefined) return undefined;
  return plainBelow(plan.root, at)
    ? `${at} is a symlink below ${plan.root}, the folder the plan is confined to`
    : `${at} is not a plain path below ${plan.root}, the folder the plan is confined to`;
}
