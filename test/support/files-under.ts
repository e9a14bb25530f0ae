// The files of a folder tree, for the checks that read the repository's own sources and tests.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The regular files under `dir` (every level; node_modules left out) whose name `keep` accepts,
 *  as paths joined to `dir`. */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.name === "node_modules" ? [] : d.isDirectory() ? filesUnder(join(dir, d.name), keep) : d.isFile() && keep(d.name) ? [join(dir, d.name)] : [],
  );
}
