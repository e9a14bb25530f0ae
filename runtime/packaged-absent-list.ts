// The build's side of the list of an agent dir without a recipe root (runtime/packaged-compiles.ts
// keeps it and says when it is used): a discovery of the packaged root alone, by the same code,
// with no compile cache and nothing prepared. scripts/bundle.mjs runs it when it prepares the
// packaged compiles.
import type { ScanPort } from "../adapters/fs/scan.js";
import type { AbsentRootList } from "./packaged-compiles.js";
import { openRegistry } from "./registry.js";

/** The list `list` shows for the agent dir `nowhere` (which must not exist) with the packaged root
 *  `packagedRoot`, and that root's group and world write bits; undefined when the root cannot be
 *  stat'ed. */
export function absentRootListOf(packagedRoot: string, scan: ScanPort, nowhere: string): AbsentRootList | undefined {
  if (scan.statPath(nowhere).ok) throw new Error(`${nowhere} exists: the list is for an agent dir that does not`);
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: nowhere }, cwd: nowhere, home: nowhere, packagedRoot, compileCache: false, packagedCompiles: null, scan });
  const { list } = registry.toolList();
  const root = scan.statPath(packagedRoot);
  return root.ok ? { list, writable: root.value.mode & 0o022 } : undefined;
}
