// Discovery: from a snapshot of recipe files to entries, winners, tools and diagnostics
// (registry-reference §1.2–§1.6). Pure: the runtime reads the files, this decides.
//
// Stages, each reusable from an earlier pass when the caller keeps a memo: ordering the
// candidates (candidates.ts), loading each file (memo.ts), resolving each id's bucket (buckets.ts)
// and assembling the result (resolution.ts), which after an edit only patches the last one.
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../model.js";
import type { ResolveContext } from "../recipe/imports.js";
import type { CompileHook } from "./compile-hook.js";
import { beginPass, createDiscoveryMemo, type DiscoveryMemo } from "./memo.js";
import { basename, recipeFileName } from "./paths.js";
import { patchResolution, resolveAll } from "./resolution.js";
import type { Discovery } from "./types.js";

export { createDiscoveryMemo, type DiscoveryMemo, type PassStats } from "./memo.js";

function rootDiagnostics(sources: readonly SourceListing[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (source.kind !== "root" || !source.present || seen.has(source.root)) continue;
    seen.add(source.root);
    if (source.error !== undefined) out.push(`Failed to inspect recipe root ${source.root}: ${source.error}`);
    if (source.rootMode === undefined) continue;
    if (source.rootMode & 0o002) out.push(`Recipe root is world-writable; review permissions: ${source.root}`);
    if (source.rootMode & 0o020) out.push(`Recipe root is group-writable; review ownership and permissions: ${source.root}`);
  }
  return out;
}

/** What the import resolver may read: the listed files first, then the runtime's reader. */
export function resolveContext(snapshot: RegistrySnapshot): ResolveContext {
  const listed = new Map<string, SnapshotFile>();
  for (const source of snapshot.sources) for (const f of source.files) listed.set(f.path, f);
  for (const f of snapshot.drafts) listed.set(f.path, f);
  const extra = snapshot.readExtra;
  return {
    readFile: (path) => listed.get(path) ?? extra?.(path),
    agentDir: snapshot.agentDir,
    home: snapshot.home,
    cwd: snapshot.cwd,
    userRoot: snapshot.recipeRoot,
    ...(snapshot.packagedRoot === undefined ? {} : { packagedRoot: snapshot.packagedRoot }),
  };
}

export interface DiscoverOptions {
  /** sha256 (or any fingerprint) of a file's bytes: draft fingerprints, and the source digest a
   *  tool carries for launch accounting */
  readonly digest?: (file: SnapshotFile) => string | undefined;
  /** Work remembered from earlier passes over the same registry: a file is loaded again only when
   *  its SnapshotFile object, or one its resolution read, is not the one seen before. */
  readonly memo?: DiscoveryMemo;
  /** earlier compiles the runtime has verified as current (a compile cache) */
  readonly compiled?: CompileHook;
}

export function discover(snapshot: RegistrySnapshot, options: DiscoverOptions = {}): Discovery {
  const pass = beginPass(options.memo ?? createDiscoveryMemo(), snapshot, options.digest, options.compiled);
  const prev = pass.resolution;
  const resolution =
    (prev === undefined ? undefined : patchResolution(prev, snapshot.sources, pass)) ??
    resolveAll(snapshot.sources, rootDiagnostics(snapshot.sources), pass);
  const drafts = [...snapshot.drafts]
    .filter((f) => recipeFileName(basename(f.path)) !== undefined)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => pass.draft(f, options.digest));
  pass.finish(resolution);
  return { ...resolution.result, drafts };
}
