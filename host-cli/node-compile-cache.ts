// Node's on-disk cache of compiled code (node:module enableCompileCache, Node 22.1 and later):
// the verb's chunks are then compiled once per installed version instead of once per process.
// Older Node versions have no such function, and start without it.
import * as nodeModule from "node:module";

export function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable !== "function") return;
  try {
    enable();
  } catch {
    // a cache folder that cannot be created only costs speed
  }
}
