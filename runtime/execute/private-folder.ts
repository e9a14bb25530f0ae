// The folders under `<agent>/tmp/pi-recipes` that hold what commands printed (saved outputs,
// spilled streams, a review's input) are this user's alone: folders 0700, files 0600, whatever
// the umask. A folder an earlier version left wider is narrowed, being the runtime's own; but a
// symbolic link in its place points at a folder someone chose (a shared one, say), whose
// permissions are not the runtime's to change, so a link (or anything else that is no folder)
// is left as it is. What is written through it is still private: each file is 0600.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** chmod `dir` to PRIVATE_FOLDER when it is a folder itself, never through a symbolic link. */
export async function narrowOwnFolder(fs: Pick<FileSystem, "lstat" | "chmod">, dir: string): Promise<void> {
  if (fs.chmod === undefined) return;
  if ((await fs.lstat(dir)).kind !== "dir") return;
  await fs.chmod(dir, PRIVATE_FOLDER);
}
