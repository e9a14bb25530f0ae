// The packaged component compiled by the build. `npm run build` compiles every recipe of the
// packaged root (recipes/) and writes the results beside the bundle (scripts/bundle.mjs, into
// dist/packaged-compiles.json), so that a process whose recipe root cannot keep a compile cache
// (an agent dir without a recipe root yet, a read-only root) compiles nothing for them, and need
// not load the compile code at all. An entry is used only when it is provably what compiling the
// file now would give:
//
// - the file holds the very bytes the entry was compiled from (kept in the entry and compared
//   byte for byte: no digest, so an empty agent dir's `list` never loads node:crypto);
// - the code that would compile it is the code that did (the code version of the compile cache,
//   runtime/compile-cache.ts: the package version and the build's hash);
// - the compile read no other file (a recipe that imports another depends on the roots of the
//   machine it runs on, and is compiled there); nothing else outside the bytes goes into a
//   compile but the file's path, which only appears in texts;
// - the path: the build compiled each file where it found it, and an install may sit elsewhere.
//   The entry's texts name the build's root; they are moved to this install's root. A recipe whose
//   bytes contain the build's root is not prepared, so no text of its own can be changed by that.
//
// Beside the compiles, the build keeps what `list` shows for an agent dir without a recipe root
// (a fresh install, before the first recipe): then the only recipes discovery reads are the
// packaged ones, none of them a tool, so that list follows from the packaged root alone. It is
// used (preparedAbsentRootList) only when the packaged root lists exactly the recipe files
// prepared above, each with the bytes they were prepared from, and its group and world write bits
// are as they were (a writable root is a diagnostic of discovery). A packaged recipe that read
// another file leaves the root unprepared: then no such list is kept.
import { fileURLToPath } from "node:url";
import type { CompileContext, CompiledRecipe, RecipeSource } from "../core/compile/compile-recipe.js";
import type { CompileHook, StoredCompile } from "../core/discovery/compile-hook.js";
import { recipeFileName } from "../core/discovery/paths.js";
import type { SnapshotFile } from "../core/model.js";
import { toolNameProblem } from "../core/register/name.js";
import type { ToolList } from "../core/views/list-view.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import { isToolList } from "./compile-cache-file.js";
import { sha256Bytes } from "./crypto-sha256.js";
import { namesListedNow } from "./recipe-snapshot.js";

export const PACKAGED_COMPILES_FORMAT = "pi-recipes-packaged-compiles/3";

/** where the build writes the prepared compiles: beside the bundle's folders (dist/) */
export const packagedCompilesFile = (distDir: string): string => `${distDir}/packaged-compiles.json`;

/** the prepared compiles of this install: in the folder above this module's (dist/ when built) */
export const installedPackagedCompiles = (): string => packagedCompilesFile(fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, ""));

interface Prepared {
  readonly format: string;
  readonly version: string;
  /** the packaged root the build compiled in */
  readonly root: string;
  /** file name -> its bytes (base64) and the compile result */
  readonly entries: Readonly<Record<string, { readonly bytes: string; readonly compiled: CompiledRecipe }>>;
  /** what `list` shows when there is no recipe root, when every recipe file was prepared */
  readonly absentRoot?: AbsentRootList;
}

/** The list of an agent dir without a recipe root, as the build's discovery gave it, and the
 *  packaged root's group and world write bits then. */
export interface AbsentRootList {
  readonly list: ToolList;
  /** `mode & 0o022` of the packaged root */
  readonly writable: number;
}

/** The build's side: the prepared compiles of the packaged root `root`, as the file's text.
 *  `files` are its recipe files (name and bytes), `compile` the compile step of the code whose
 *  version is `version`. */
export function preparePackagedCompiles(
  root: string,
  files: readonly { readonly name: string; readonly bytes: Uint8Array }[],
  compile: (source: RecipeSource, ctx: CompileContext) => CompiledRecipe,
  version: string,
  absentRoot?: AbsentRootList,
): string {
  const entries: Record<string, { bytes: string; compiled: CompiledRecipe }> = {};
  const rootBytes = Buffer.from(root);
  for (const { name, bytes } of files) {
    const parsed = recipeFileName(name);
    if (parsed === undefined || toolNameProblem(parsed.id, parsed.format) !== undefined) continue;
    if (Buffer.from(bytes).includes(rootBytes)) continue;
    const path = `${root}/${name}`;
    const file: SnapshotFile = { path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes };
    let read = false;
    const ctx: CompileContext = {
      readFile: () => {
        read = true;
        return undefined;
      },
      // a compile that reads no file does not look at these: any value does
      agentDir: "/", home: "/", cwd: "/", userRoot: "/", packagedRoot: root,
      digest: (f) => (f.bytes === undefined ? undefined : sha256Bytes(f.bytes)),
    };
    const compiled = compile({ file, id: parsed.id, format: parsed.format }, ctx);
    if (!read) entries[name] = { bytes: Buffer.from(bytes).toString("base64"), compiled };
  }
  // the list stands for the root only when every recipe file of it is an entry
  const everyRecipe = files.every(({ name }) => recipeFileName(name) === undefined || entries[name] !== undefined);
  const prepared: Prepared = { format: PACKAGED_COMPILES_FORMAT, version, root, entries, ...(absentRoot !== undefined && everyRecipe ? { absentRoot } : {}) };
  return JSON.stringify(prepared);
}

/** The prepared compiles in `file` as a store of compiles for the packaged root `root`. The file is
 *  read on the first lookup of a recipe of that root, and used when it is whole and was made by
 *  code of `version` (`version()`, asked then); otherwise every packaged recipe is compiled. */
export function packagedCompileHook(scan: ScanPort, file: string, root: string, version: () => string): CompileHook {
  const prefix = `${root}/`;
  let prepared: Prepared | null | undefined;
  return {
    lookup(source) {
      const path = source.file.path;
      if (!path.startsWith(prefix)) return undefined;
      prepared ??= readPrepared(scan, file, root, version()) ?? null;
      const entry = prepared?.entries[path.slice(prefix.length)];
      const bytes = source.file.bytes;
      if (entry === undefined || bytes === undefined || source.file.readError !== undefined) return undefined;
      if (entry.compiled.id !== source.id || entry.compiled.format !== source.format || typeof entry.bytes !== "string") return undefined;
      if (!Buffer.from(entry.bytes, "base64").equals(bytes)) return undefined;
      const stored: StoredCompile = { compiled: entry.compiled, readPaths: [] };
      return stored;
    },
    store() {
      // the build prepared what it could; nothing is added at run time
    },
  };
}

function readPrepared(scan: ScanPort, file: string, root: string, version: string): Prepared | undefined {
  const r = scan.readBounded(file, 16 * 1024 * 1024);
  if (!r.ok || r.value.bytes === undefined) return undefined;
  try {
    const text = Buffer.from(r.value.bytes).toString("utf8");
    const head = JSON.parse(text) as Partial<Prepared> | null;
    if (head === null || typeof head !== "object" || head.format !== PACKAGED_COMPILES_FORMAT || head.version !== version || typeof head.root !== "string") return undefined;
    if (typeof head.entries !== "object" || head.entries === null) return undefined;
    // every text that names the build's root names this one instead (JSON spells both alike)
    const from = JSON.stringify(`${head.root}/`).slice(1, -1);
    const to = JSON.stringify(`${root}/`).slice(1, -1);
    return from === to ? (head as Prepared) : (JSON.parse(text.replaceAll(from, to)) as Prepared);
  } catch {
    return undefined;
  }
}

/** What `list` shows for an agent dir whose recipe root `recipeRoot` does not exist, from the
 *  prepared file: when the packaged root `root` still lists exactly the prepared recipe files,
 *  each holding the prepared bytes, and has the write bits it had (see above). Else undefined. */
export function preparedAbsentRootList(scan: ScanPort, file: string, root: string, version: string, recipeRoot: string): ToolList | undefined {
  if (namesListedNow(scan, recipeRoot, false) === undefined) return undefined;
  const prepared = readPrepared(scan, file, root, version);
  const kept = prepared?.absentRoot;
  if (prepared === undefined || kept === undefined || !isToolList(kept.list)) return undefined;
  const names = namesListedNow(scan, root, true);
  const entries = Object.entries(prepared.entries);
  if (names === undefined || names.size !== entries.length) return undefined;
  for (const [name, entry] of entries) {
    if (!names.has(name) || typeof entry.bytes !== "string") return undefined;
    const expected = Buffer.from(entry.bytes, "base64");
    const now = scan.readBounded(`${root}/${name}`, expected.length + 1);
    if (!now.ok || now.value.bytes === undefined || !expected.equals(now.value.bytes)) return undefined;
  }
  const st = scan.statPath(root);
  return st.ok && (st.value.mode & 0o022) === kept.writable ? kept.list : undefined;
}

/** `cache` first (a hit there reads no file), then `prepared`; a compile `prepared` serves is
 *  handed to `cache` as if just compiled, so the next process finds it there. */
export function withPackagedCompiles(cache: CompileHook | undefined, prepared: CompileHook): CompileHook {
  return {
    lookup(source) {
      const hit = cache?.lookup(source);
      if (hit !== undefined) return hit;
      const served = prepared.lookup(source);
      if (served !== undefined) cache?.store(source.file, served);
      return served;
    },
    store(file, stored) {
      cache?.store(file, stored);
    },
    draftRead(file, readPaths) {
      cache?.draftRead?.(file, readPaths);
    },
  };
}
