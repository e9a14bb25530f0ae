// Discovery through the FileSystem port (rather than the synchronous scan port): what
// register_tool lists, and what a crash test sees in a recovered memfs volume.
import { discover } from "../core/discovery/discover.js";
import type { CompileHook } from "../core/discovery/compile-hook.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../core/model.js";
import { hasCode, type FileSystem } from "../adapters/fs/FileSystem.js";
import type { AgentPaths } from "./agent-paths.js";
import { makeCachingReader, settle, type CachingReader } from "./fs-reader.js";
import { sha256Of } from "./crypto-sha256.js";
import { compareText } from "../core/text-order.js";
import { isRecipeEntry, isRecipeLink, isStrayEntry } from "./recipe-snapshot.js";

async function listDir(fs: FileSystem, dir: string): Promise<{ present: boolean; paths: string[]; links: string[]; strays: string[]; error?: string }> {
  try {
    const entries = await fs.readdir(dir);
    // a FIFO, socket or device named like a recipe is listed too: reading it gives its error; a
    // symlink so named is never followed, but said (SourceListing.links), as are the strays
    const names = entries.filter(isRecipeEntry).map((e) => e.name).sort();
    const pathsOf = (keep: (e: (typeof entries)[number]) => boolean): string[] => entries.filter(keep).map((e) => `${dir}/${e.name}`).sort(compareText);
    return { present: true, paths: names.map((n) => `${dir}/${n}`), links: pathsOf(isRecipeLink), strays: pathsOf(isStrayEntry) };
  } catch (e) {
    // only a folder that is not there is absent: one that is a file (ENOTDIR) cannot be listed,
    // an error as the scan port's listing says it (listRecipeEntries), so every path agrees
    if (hasCode(e, "ENOENT")) return { present: false, paths: [], links: [], strays: [] };
    return { present: true, paths: [], links: [], strays: [], error: e instanceof Error ? e.message : String(e) };
  }
}

async function rootSource(fs: FileSystem, reader: CachingReader, dir: string, tool: boolean): Promise<SourceListing> {
  const listed = await listDir(fs, dir);
  await reader.fetch(listed.paths);
  const files = listed.paths.map((p) => reader.readFile(p)).filter((f): f is SnapshotFile => f !== undefined);
  const mode = listed.present ? await fs.stat(dir).then((s) => s.mode, () => undefined) : undefined;
  return {
    kind: "root",
    root: dir,
    present: listed.present,
    tool,
    mutableUsage: tool,
    files,
    ...(mode === undefined ? {} : { rootMode: mode }),
    ...(listed.error === undefined ? {} : { error: listed.error }),
    ...(listed.links.length > 0 ? { links: listed.links } : {}),
    ...(listed.strays.length > 0 ? { strays: listed.strays } : {}),
  };
}

/** `digested`: every compiled recipe carries the sha256 of the bytes it was compiled from
 *  (`sourceSha256`) and every draft its `sha256`, so that a caller reading a file again can tell
 *  whether it still holds what discovery judged. */
export async function discoverThroughFs(
  fs: FileSystem, paths: AgentPaths, packagedRoot?: string, options: { readonly digested?: boolean; readonly reads?: Map<string, readonly string[]> } = {},
): Promise<Discovery> {
  const reader = makeCachingReader(fs);
  const sources = [await rootSource(fs, reader, paths.recipeRoot, true)];
  if (packagedRoot !== undefined) sources.push(await rootSource(fs, reader, packagedRoot, false));
  const drafts = await rootSource(fs, reader, paths.draftRoot, false);
  const snapshot: RegistrySnapshot = {
    agentDir: paths.agentDir,
    recipeRoot: paths.recipeRoot,
    home: paths.home,
    cwd: paths.cwd,
    sources,
    drafts: drafts.files,
    ...(drafts.error === undefined ? {} : { draftsUnlisted: { dir: paths.draftRoot, error: drafts.error } }),
    readExtra: reader.readFile,
    ...(packagedRoot === undefined ? {} : { packagedRoot }),
  };
  // `reads`: every path each compiled recipe's resolution read (the hook is offered no earlier
  // compile, so it sees every one)
  const reads = options.reads;
  const compiled: CompileHook | undefined = reads === undefined ? undefined : { lookup: () => undefined, store: (file, stored) => void reads.set(file.path, stored.readPaths) };
  return settle(reader, () => discover(snapshot, { ...(options.digested === true ? { digest: sha256Of } : {}), ...(compiled === undefined ? {} : { compiled }) }));
}
