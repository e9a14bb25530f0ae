// Discovery: from a snapshot of recipe files to entries, winners, tools and diagnostics
// Pure: the runtime reads the files, this decides.
//
// Stages, each reusable from an earlier pass when the caller keeps a memo: ordering the
// candidates (candidates.ts), compiling each file (compile-pass.ts, which calls
// core/compile/compile-recipe.ts), resolving each id's bucket (buckets.ts)
// and assembling the result (resolution.ts), which after an edit only patches the last one.
//
// The compile step is an argument (compile-pass.ts says why); ./discover.ts is discovery with the
// compile step linked in.
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../model.js";
import type { CompileHook } from "./compile-hook.js";
import { beginPass, createDiscoveryMemo, type CompileStep, type DiscoveryMemo } from "./compile-pass.js";
import { basename, recipeFileName } from "./paths.js";
import { patchResolution, resolveAll } from "./resolution.js";
import type { Discovery, UnlistedFolder } from "./discovery-result.js";
import { compareText } from "../text-order.js";
import { linkedRecipe, strayEntry, unlistedDrafts, unlistedRoot } from "./diagnostic-texts.js";

export { createDiscoveryMemo, type CompileStep, type DiscoveryMemo, type PassStats } from "./compile-pass.js";

/** The roots that are there but could not be listed, each once. */
function unlistedRoots(sources: readonly SourceListing[]): UnlistedFolder[] {
  const out: UnlistedFolder[] = [];
  for (const source of sources) {
    if (source.kind !== "root" || !source.present || source.error === undefined || out.some((u) => u.dir === source.root)) continue;
    out.push({ kind: "root", dir: source.root, error: source.error });
  }
  return out;
}

function rootDiagnostics(sources: readonly SourceListing[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (source.kind !== "root" || !source.present || seen.has(source.root)) continue;
    seen.add(source.root);
    if (source.error !== undefined) out.push(unlistedRoot(source.root, source.error));
    for (const link of source.links ?? []) out.push(linkedRecipe(link));
    for (const stray of source.strays ?? []) out.push(strayEntry(stray));
    if (source.rootMode === undefined) continue;
    if (source.rootMode & 0o002) out.push(`Recipe root is world-writable; review permissions: ${source.root}`);
    if (source.rootMode & 0o020) out.push(`Recipe root is group-writable; review ownership and permissions: ${source.root}`);
  }
  return out;
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

/** One discovery pass, compiling with `compile` what neither the memo nor the compile cache has. */
export function discoverWith(compile: CompileStep, snapshot: RegistrySnapshot, options: DiscoverOptions = {}): Discovery {
  const pass = beginPass(compile, options.memo ?? createDiscoveryMemo(), snapshot, options.digest, options.compiled);
  const prev = pass.resolution;
  const resolution =
    (prev === undefined ? undefined : patchResolution(prev, snapshot.sources, pass)) ??
    resolveAll(snapshot.sources, rootDiagnostics(snapshot.sources), pass);
  const drafts = [...snapshot.drafts]
    .filter((f) => recipeFileName(basename(f.path)) !== undefined)
    .sort((a, b) => compareText(a.path, b.path))
    .map((f) => pass.draft(f));
  pass.finish(resolution);
  const unlisted = unlistedRoots(snapshot.sources);
  const folder = snapshot.draftsUnlisted;
  if (folder === undefined) return { ...resolution.result, drafts, unlisted };
  // the drafts folder's diagnostic, after the recipes': added here, not in the resolution, which a
  // memo patches from the recipe roots' listings alone (they do not show the drafts folder)
  const diagnostics = [...resolution.result.diagnostics, unlistedDrafts(folder.dir, folder.error)];
  return { ...resolution.result, diagnostics, drafts, unlisted: [...unlisted, { kind: "drafts", dir: folder.dir, error: folder.error }] };
}
