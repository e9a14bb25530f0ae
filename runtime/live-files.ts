// The files of a live registry: the user recipe root and its drafts, kept between refreshes so
// that a refresh reads only the paths it is told about. A file read again with the same content
// and stat stays the same SnapshotFile object, which is what lets discovery's memo reuse its work.
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../core/model.js";
import { basename, dirname, misnamedRecipe, recipeFileName } from "../core/discovery/paths.js";
import { nodeEntryKind, type EntryKind, type ScanPort } from "../adapters/fs/scan.js";
import type { AgentPaths } from "./agent-paths.js";
import { extraReader, isRecipeLink, isStrayEntry, listRecipeDir, readFailedWith, readFileEntry } from "./recipe-snapshot.js";
import { compareText } from "../core/text-order.js";
import { sameSnapshotFile } from "../core/discovery/same-file.js";

/** The kind of what is at a path without following a final symlink; undefined when nothing is. */
export type EntryKindOf = (path: string) => EntryKind | undefined;

interface Dir {
  present: boolean;
  error?: string;
  rootMode?: number;
  files: Map<string, SnapshotFile>;
  /** symlinks named like recipes (SourceListing.links) */
  links: Set<string>;
  /** entries meant as recipes by their names but never loaded (SourceListing.strays) */
  strays: Set<string>;
}

/** the earlier object when nothing discovery could see has changed */
const adopt = (old: SnapshotFile | undefined, fresh: SnapshotFile): SnapshotFile => (sameSnapshotFile(old, fresh) ? old! : fresh);

const missing = (f: SnapshotFile): boolean => readFailedWith(f, "ENOENT", "ENOTDIR");

export interface LiveFiles {
  /** lists and reads both folders again (the root appeared, vanished or is unknown) */
  rescan(): void;
  /** reads these paths again; paths outside the root and drafts are ignored */
  update(paths: readonly string[]): void;
  snapshot(): RegistrySnapshot;
  /** whether a file outside the listings that the last snapshot's pass read (an import, a
   *  delegation target, a probe that found nothing) reads differently now: no watcher sees them */
  outsideChanged(): boolean;
  /** files read so far (recipe files, drafts, and files outside the roots that imports named) */
  reads(): number;
}

export interface LiveFilesOptions {
  readonly scan: ScanPort;
  readonly paths: AgentPaths;
  readonly packagedRoot?: string;
  readonly entryKind?: EntryKindOf;
}

export function openLiveFiles(options: LiveFilesOptions): LiveFiles {
  const { paths } = options;
  const entryKind = options.entryKind ?? nodeEntryKind;
  let reads = 0;
  const scan: ScanPort = {
    listDir: (p) => options.scan.listDir(p),
    statPath: (p) => options.scan.statPath(p),
    readBounded: (p, limit, o) => {
      reads++;
      return options.scan.readBounded(p, limit, o);
    },
  };
  const root: Dir = { present: false, files: new Map(), links: new Set(), strays: new Set() };
  const drafts: Dir = { present: false, files: new Map(), links: new Set(), strays: new Set() };

  // drafts carry creation and modification times, so they are read with a stat
  const list = (dir: Dir, path: string, stat: boolean): void => {
    const listed = listRecipeDir(scan, path, stat);
    const files = new Map<string, SnapshotFile>();
    for (const f of listed.files) files.set(f.path, adopt(dir.files.get(f.path), f));
    dir.files = files;
    dir.links = new Set(listed.links);
    dir.strays = new Set(listed.strays);
    dir.present = listed.present;
    if (listed.error === undefined) delete dir.error;
    else dir.error = listed.error;
  };

  const rescan = (): void => {
    list(root, paths.recipeRoot, false);
    const st = root.present ? scan.statPath(paths.recipeRoot) : undefined;
    if (st?.ok === true) root.rootMode = st.value.mode;
    else delete root.rootMode;
    list(drafts, paths.draftRoot, true);
  };

  const readOne = (dir: Dir, path: string, stat: boolean): void => {
    const kind = entryKind(path);
    const name = basename(path);
    if (kind !== undefined && isRecipeLink({ name, kind })) dir.links.add(path);
    else dir.links.delete(path);
    if (kind !== undefined && isStrayEntry({ name, kind })) dir.strays.add(path);
    else dir.strays.delete(path);
    if (recipeFileName(name) === undefined) return;
    // a FIFO, socket or device named like a recipe is read as a listing reads it: an invalid
    // recipe (not a regular file), which shadows what it names (isRecipeEntry)
    const fresh = kind === "file" || kind === "other" ? readFileEntry(scan, path, stat) : undefined;
    if (fresh === undefined || missing(fresh)) dir.files.delete(path);
    else dir.files.set(path, adopt(dir.files.get(path), fresh));
  };

  const packaged: SourceListing | undefined = (() => {
    const dir = options.packagedRoot;
    if (dir === undefined) return undefined;
    const { present, files, links, strays, error } = listRecipeDir(options.scan, dir);
    return {
      kind: "root", root: dir, present, tool: false, mutableUsage: false, files,
      ...(error === undefined ? {} : { error }), ...(links.length === 0 ? {} : { links }), ...(strays.length === 0 ? {} : { strays }),
    };
  })();

  // a bare-name probe usually finds nothing: a stat answers that without an open
  const present = (path: string): boolean => entryKind(path) !== undefined;
  /** the files outside the listings the last snapshot read, as read */
  let outside = new Map<string, SnapshotFile | undefined>();

  rescan();

  return {
    rescan,
    update(changed) {
      for (const path of changed) {
        if (path === paths.recipeRoot || !root.present) return rescan();
        const dir = dirname(path);
        if (path === paths.draftRoot) list(drafts, paths.draftRoot, true);
        else if (dir === paths.recipeRoot && misnamedRecipe(basename(path))) readOne(root, path, false);
        else if (recipeFileName(basename(path)) === undefined) continue;
        else if (dir === paths.recipeRoot) readOne(root, path, false);
        else if (dir === paths.draftRoot) readOne(drafts, path, true);
      }
    },
    snapshot() {
      const sources: SourceListing[] = [
        {
          kind: "root",
          root: paths.recipeRoot,
          present: root.present,
          tool: true,
          mutableUsage: true,
          files: [...root.files.values()],
          ...(root.rootMode === undefined ? {} : { rootMode: root.rootMode }),
          ...(root.error === undefined ? {} : { error: root.error }),
          ...(root.links.size === 0 ? {} : { links: [...root.links].sort(compareText) }),
          ...(root.strays.size === 0 ? {} : { strays: [...root.strays].sort(compareText) }),
        },
      ];
      if (packaged !== undefined) sources.push(packaged);
      // files outside the roots are not watched: read when a recipe being loaded names them
      const readExtra = extraReader(scan, present, (path, file) => outside.set(path, file));
      outside = new Map();
      return {
        agentDir: paths.agentDir,
        recipeRoot: paths.recipeRoot,
        home: paths.home,
        cwd: paths.cwd,
        sources,
        drafts: [...drafts.files.values()],
        ...(drafts.error === undefined ? {} : { draftsUnlisted: { dir: paths.draftRoot, error: drafts.error } }),
        readExtra,
        ...(options.packagedRoot === undefined ? {} : { packagedRoot: options.packagedRoot }),
      };
    },
    outsideChanged() {
      if (outside.size === 0) return false;
      const fresh = extraReader(scan, present);
      for (const [path, file] of outside) if (!sameSnapshotFile(fresh(path), file)) return true;
      return false;
    },
    reads: () => reads,
  };
}
