// Where a command name leads, as a process launch would find it: the first executable file of
// that name on PATH. Used by the sandbox (to find bwrap) and by spawn (a typed command that names
// no program is not saved as a draft).
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether `path` is a file this process may execute (symlinks followed). */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH`, or undefined. */
export function findOnPath(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
