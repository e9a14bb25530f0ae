// Several local users of one folder. A folder shared by a group (mode 2775, say) is written by
// each of its users with their own umask, and a umask of 022 would make every folder and file one
// of them creates inside it writable by that user alone: the next user could not add a launch to
// the ledger or write a draft there. So what the runtime creates inside such a folder takes its
// permissions from the folder, not from the creator's umask:
//   - a new folder gets the permission bits of the folder it is made in (setgid too, so the group
//     a setgid folder hands down stays the same all the way down), but never the sticky bit and
//     never write permission for others: the ledgers, journals and drafts in it are the group's
//     to change, and a draft may become a tool;
//   - a new file may be read and written by the group that may read and write the folder it is
//     made in, and read by others who may read it, as far as the mode its creator asked for
//     allows (a private file stays private); others never get write permission on a file.
// A sticky folder (mode 1777 like /tmp, or 3775) says each user's files are their own: nobody
// else may remove or replace them. A file made directly in one (a recipe in a sticky recipe
// folder) therefore gets no group write either; the folders made in it (.usage, drafts, .cache)
// are shared as above, so every member can still count launches and save drafts there.
// A chmod that fails (the folder or file is another user's, made by a concurrent creator) leaves
// the mode as it is: who made it applied the same rule.
//
// The lock folder has a rule of its own (lockFolderModeIn): it takes its folder's bits, sticky
// included, so in a 1777 folder every user may take a lock and nobody may remove another's.
import * as nodeFs from "node:fs";
import { dirname, sep } from "node:path";
import { hasCode, type FileHandle, type FileSystem, type OpenFlag, type WriteOptions } from "./FileSystem.js";

const STICKY = 0o1000;

/** Whether a folder of mode `mode` keeps each user's files their own (the sticky bit). */
const keepsOwn = (mode: number): boolean => (mode & STICKY) !== 0;

/** The mode of a folder the runtime makes inside a folder of mode `parent`. */
export const folderModeIn = (parent: number): number => parent & 0o2775;

/** The mode of the lock folder made inside a folder of mode `parent`: its bits, sticky included. */
export const lockFolderModeIn = (parent: number): number => parent & 0o7777;

/** The mode of a file made inside a folder of mode `folder`, its creator having asked for
 *  `requested`: the owner keeps what was asked, the group gets the read and write bits the folder
 *  gives it (only read in a sticky folder), others its read bit, never more than was asked. */
export const fileModeIn = (folder: number, requested = 0o666): number =>
  requested & (0o600 | (folder & (keepsOwn(folder) ? 0o044 : 0o064)));

/** The folders `dir` and its parents that do not exist, the deepest first, and the mode of the
 *  nearest one that does. */
async function missingUpTo(fs: FileSystem, dir: string): Promise<{ readonly missing: string[]; readonly parentMode: number | undefined }> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      return { missing, parentMode: (await fs.stat(d)).mode };
    } catch (e) {
      if (!hasCode(e, "ENOENT") || dirname(d) === d) return { missing, parentMode: undefined };
      missing.push(d);
    }
  }
}

/** `mkdir` (with `recursive`, `mkdir -p`) where every folder it makes gets the mode `modeIn` gives
 *  for the folder it is made in (folderModeIn unless told), whatever the umask. Fails as
 *  `fs.mkdir` does. */
export async function mkdirLikeParent(
  fs: FileSystem, dir: string, options: { readonly recursive?: boolean } = {}, modeIn: (parent: number) => number = folderModeIn,
): Promise<void> {
  if (fs.chmod === undefined) return fs.mkdir(dir, options);
  const { missing, parentMode } = options.recursive === true ? await missingUpTo(fs, dir) : { missing: [dir], parentMode: undefined };
  await fs.mkdir(dir, options);
  if (missing.length === 0) return;
  const mode = modeIn(parentMode ?? (await fs.stat(dirname(dir))).mode);
  // from the top down: each folder the same bits as the one it was made in
  for (const d of missing.reverse()) await fs.chmod(d, mode).catch(() => undefined);
}

/** The synchronous `mkdir -p` of the same rule, over node's file system. */
export function mkdirLikeParentSync(dir: string, fs: typeof nodeFs = nodeFs): void {
  const missing: string[] = [];
  let d = dir;
  for (; !fs.existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  fs.mkdirSync(dir, { recursive: true });
  if (missing.length === 0) return;
  let mode: number;
  try {
    mode = folderModeIn(fs.statSync(d).mode);
  } catch {
    return;
  }
  for (const m of missing.reverse()) {
    try {
      fs.chmodSync(m, mode);
    } catch {
      // another user's folder, made by them under the same rule
    }
  }
}

const inside = (root: string) => {
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return (path: string): boolean => path.startsWith(prefix);
};

/**
 * `fs` where every folder and file created under `root` (not `root` itself) follows the rule
 * above; everything else passes through. A file system without `chmod` is returned as it is.
 */
export function folderModesUnder(root: string, fs: FileSystem): FileSystem {
  const chmod = fs.chmod?.bind(fs);
  // one layer per root: ports handed on and wrapped again are not wrapped twice
  if (chmod === undefined || wrapped.get(fs) === root) return fs;
  const inRoot = inside(root);
  // The rule only changes anything in a folder others may write: in a root that gives its group
  // and others no write permission and is neither setgid nor sticky, what the umask makes is what
  // the rule would make, so the lookups and the chmod are left out. A call creates its launch log
  // and folder each time, four file system round trips more on every launch otherwise. The root's
  // mode is looked at again after a minute, so a long-lived server sees a folder that became
  // shared.
  let sharedRoot: { readonly at: number; readonly shared: Promise<boolean> } | undefined;
  const rootShared = (): Promise<boolean> => {
    const now = Date.now();
    if (sharedRoot === undefined || now - sharedRoot.at > 60_000) {
      // a root that cannot be looked at now: apply the rule (it costs time, never permissions)
      sharedRoot = { at: now, shared: fs.stat(root).then((st) => (st.mode & 0o3022) !== 0, () => true) };
    }
    return sharedRoot.shared;
  };
  const under = async (path: string): Promise<boolean> => inRoot(path) && (await rootShared());
  /** whether `path` is about to be created by a write with `flag` */
  const creates = async (path: string, flag: OpenFlag | undefined): Promise<boolean> => {
    if (flag === "r") return false;
    if (flag === "wx") return true;
    try {
      await fs.lstat(path);
      return false;
    } catch (e) {
      return hasCode(e, "ENOENT");
    }
  };
  const settle = async (path: string, requested: number | undefined): Promise<void> => {
    try {
      await chmod(path, fileModeIn((await fs.stat(dirname(path))).mode, requested));
    } catch {
      // another user's file, or gone already: as it is
    }
  };
  const modes: FileSystem = {
    ...fs,
    name: fs.name,
    capabilities: fs.capabilities,
    mkdir: async (path, options) => ((await under(path)) ? mkdirLikeParent(fs, path, options) : fs.mkdir(path, options)),
    async writeFile(path: string, data: Uint8Array | string, options?: WriteOptions): Promise<void> {
      const made = (await under(path)) && (await creates(path, options?.flag ?? "w"));
      await fs.writeFile(path, data, options);
      if (made) await settle(path, options?.mode);
    },
    async open(path: string, flag: OpenFlag, mode?: number): Promise<FileHandle> {
      const made = (await under(path)) && (await creates(path, flag));
      const handle = await fs.open(path, flag, mode);
      if (made) await settle(path, mode);
      return handle;
    },
  };
  wrapped.set(modes, root);
  return modes;
}

const wrapped = new WeakMap<FileSystem, string>();
