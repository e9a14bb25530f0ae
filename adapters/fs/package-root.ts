// The installed pi-recipes package: the folder holding its package.json, found by walking up from
// this module (its source under adapters/fs/, or its compiled copy under dist/adapters/fs/). It
// is where this code is installed, so it is read from the real disk, once per process, not
// through a port a host hands down: a test's in-memory file system does not hold the package.
// That is why this lookup lives among the adapters, the one layer allowed to build a node port
// for itself.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeNodeScanPort } from "./scan.js";

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** the folder holding the package's package.json */
  readonly root: string;
}

let cached: InstalledPackage | undefined;
const MANIFEST_LIMIT = 1024 * 1024;

/** The nearest package.json above this module whose name is "pi-recipes"; throws when none is. */
export function installedPackage(): InstalledPackage {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  const scan = makeNodeScanPort();
  for (;;) {
    const manifest = scan.readBounded(join(dir, "package.json"), MANIFEST_LIMIT);
    if (manifest.ok && manifest.value.bytes !== undefined) {
      const pkg = JSON.parse(new TextDecoder().decode(manifest.value.bytes)) as { name?: string; version?: string };
      if (pkg.name === "pi-recipes") {
        cached = { name: pkg.name, version: pkg.version ?? "0.0.0", root: dir };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("pi-recipes package.json not found above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
