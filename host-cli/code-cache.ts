// Runs the full command (the build's one CommonJS file, dist/host-cli/main.cjs) with V8's cache of
// compiled code, so that a process after the first does not compile the command's code again.
//
// Node 22.1 and later keep such a cache themselves for every file they load (node-compile-cache.ts
// turns it on); there the file is simply required. Older Node has no cache of its own, and a
// short command spends about a fifth of its time compiling (docs/performance.md, "The full
// command as one CommonJS file"). There this module compiles the file itself through `vm.Script`,
// handing V8 the code it kept from an earlier run, and keeps the code of this run when it had none
// that V8 accepted.
//
// The cache is a file: a first line naming the command file by its identity (device, inode, size,
// modification and change times, which any rewrite changes) and the Node version and
// architecture, then V8's bytes. V8 checks its own version and flags and refuses data that does
// not fit them (`cachedDataRejected`); it does not check that the data was made from this very
// source, which is what the first line is for. It is written at exit, to a temporary file renamed
// into place, so that concurrent processes never read half a file.
//
// Where: beside the command, `.main.cjs.v8`, when that folder can be written (a clone, a local
// installation); otherwise (an installation owned by another user, such as a global one made by
// root) in the user's cache folder, `$XDG_CACHE_HOME/pi-recipes` or `~/.cache/pi-recipes`, named by
// a hash of the command's path. Nothing is serialized before a file to hold it is open, so a place
// that cannot be written costs one failed open, not V8's work.
//
// Two caches, not one: V8 refuses code made under other flags, and a common flag such as
// `--max-old-space-size` in NODE_OPTIONS is one of them. A user whose shell sets NODE_OPTIONS and
// whose MCP client starts the server without it would otherwise see each kind of process refuse
// the other's cache and write its own, every time. A process started with node options (its
// `execArgv` or NODE_OPTIONS) keeps its code in `.main.cjs.flags.v8`; one without, in
// `.main.cjs.v8`. Two slots, not one per set of options, so that options that differ on every run
// (a debugger's port, a profile's folder) cannot fill the folder with files.
//
// V8's code is code: whoever can write the cache runs code as the user who runs the command. A
// cache is read only when no one else could have written it: beside the command, a file of this
// user or of the command's owner that no one else may write (a folder where others may add files
// must not let them plant one); in the user's cache folder, a folder and file that are the user's
// own and that no one else may write (as ssh treats its folder): `XDG_CACHE_HOME=/tmp` must not
// let another user plant a cache there.
import { isAscii } from "node:buffer";
import * as nodeModule from "node:module";
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as vm from "node:vm";

const FORMAT = "pi-recipes-code-cache/1";

/** The build's one CommonJS file of the full command, beside this module's own compiled file in
 *  dist/host-cli/ (the front door's and main.js's alike). */
export const builtFullCommand = (): string => fileURLToPath(new URL("./main.cjs", import.meta.url));

/** `.flags` for a process started with node options (see the top of this file), else nothing */
const slot = (): string => (process.execArgv.length > 0 || (process.env["NODE_OPTIONS"] ?? "").trim() !== "" ? ".flags" : "");

/** the cache file of `file` beside it */
const codeCacheFile = (file: string): string => join(dirname(file), `.${basename(file)}${slot()}.v8`);

/** the cache file of `file` in the user's cache folder (FNV-1a of the path: a name, not a check) */
function userCodeCacheFile(file: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) h = Math.imul(h ^ file.charCodeAt(i), 0x01000193) >>> 0;
  const xdg = process.env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  return join(base, "pi-recipes", `${basename(file)}-${h.toString(16).padStart(8, "0")}${slot()}.v8`);
}

/** The first line of the cache of `file` as it is now (the file's identity and this Node), and
 *  the file's owner. */
function headerOf(file: string): { readonly header: string; readonly owner: number } {
  const s = statSync(file, { bigint: true });
  return { header: `${FORMAT} ${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs} ${process.version} ${process.arch}\n`, owner: Number(s.uid) };
}

/** V8's data from the cache `cacheFile`, when it names the command file as it is and this Node,
 *  and `trusted` says it may be read. */
function keptCode(cacheFile: string, header: string, trusted: (cacheFile: string) => boolean): Buffer | undefined {
  let bytes: Buffer;
  try {
    if (!trusted(cacheFile)) return undefined;
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const head = Buffer.from(header);
  return bytes.length > head.length && bytes.subarray(0, head.length).equals(head) ? bytes.subarray(head.length) : undefined;
}

/** Writes the header and V8's code of `script` to `cacheFile`; false when it cannot be written. */
function keepCodeIn(cacheFile: string, header: string, script: vm.Script): boolean {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, "wx", 0o644);
  } catch {
    return false;
  }
  try {
    try {
      writeSync(fd, header);
      writeSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(temp, cacheFile);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}

/** `path` is no link, belongs to one of `owners` and no one else may write it; true where there
 *  are no user ids to compare (Windows). */
function ownedBy(path: string, owners: readonly number[]): boolean {
  if (process.getuid === undefined) return true;
  const s = lstatSync(path);
  return !s.isSymbolicLink() && owners.includes(s.uid) && (s.mode & 0o022) === 0;
}

/** `path` (a file or folder) and the folder it is in are this user's, and no one else may write
 *  them. */
const ownedByUser = (path: string): boolean => {
  const uid = process.getuid?.() ?? 0;
  return ownedBy(dirname(path), [uid]) && ownedBy(path, [uid]);
};

/** Keeps V8's code of `script` beside the command, or else in the user's cache folder; a place
 *  that cannot be written (or, for the user's folder, is not the user's own) only costs the speed. */
function keepCode(places: readonly [string, string], header: string, script: vm.Script): void {
  if (keepCodeIn(places[0], header, script)) return;
  const folder = dirname(places[1]);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!ownedByUser(folder)) return;
  } catch {
    return;
  }
  keepCodeIn(places[1], header, script);
}

/**
 * How a file built to be compiled as it is begins (after a `#!` line): scripts/bundle.mjs writes
 * main.cjs so. Joining the file's text to node's module wrapper here made V8 copy the whole text
 * once more before compiling it (1 MB: some 250 page faults and 3 ms a process,
 * docs/performance.md, "Page faults"), so the build writes the wrapper into the file. The line is
 * an expression that works both ways:
 * required by node (Node 22, or `node main.cjs`) it calls the function that follows with node's
 * module values; compiled here, with the marker set, it is that function, called below as before.
 */
export const SELF_WRAPPED =
  '(globalThis[Symbol.for("pi-recipes.self-wrapped")]||(f=>f.call(exports,exports,require,module,__filename,__dirname)))(function (exports, require, module, __filename, __dirname) {';
const SELF_WRAPPED_MARK = Symbol.for("pi-recipes.self-wrapped");

/** The text of the bytes `bytes` (UTF-8). The build writes main.cjs in ASCII only
 *  (scripts/bundle.mjs), whose text is its bytes one for one: made so without decoding, it takes
 *  1 ms instead of 12 to 18 for the 1.3 MB, and V8 holds it in one byte a character. */
const sourceText = (bytes: Buffer): string => (isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8"));

/** Node's own cache of compiled code is on (Node 22.1 and later, once enabled) */
const nodeKeepsCode = (): boolean => {
  const dir = (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir;
  return typeof dir === "function" && typeof dir() === "string";
};

/** Runs the CommonJS file `file` as `require` would, with V8's code kept from an earlier run. */
export function requireWithCodeCache(file: string): void {
  const require = nodeModule.createRequire(file);
  if (nodeKeepsCode()) {
    require(file);
    return;
  }
  const places = [codeCacheFile(file), userCodeCacheFile(file)] as const;
  const { header, owner } = headerOf(file);
  // beside the command: written by this user or by the command's owner, and by no one else (a
  // folder where others may add files)
  const owners = [process.getuid?.() ?? 0, owner];
  const kept = keptCode(places[0], header, (c) => ownedBy(c, owners)) ?? keptCode(places[1], header, ownedByUser);
  const source = sourceText(readFileSync(file));
  // the function `require` makes of a file (node's Module.wrap): written into the file by the build
  // (SELF_WRAPPED above), or joined here; V8 reads a `#!` line at the very start of a script, but
  // not inside the wrapper
  const hashbang = source.startsWith("#!");
  const selfWrapped = source.startsWith(SELF_WRAPPED, hashbang ? source.indexOf("\n") + 1 : 0);
  const wrapped = selfWrapped ? source : `(function (exports, require, module, __filename, __dirname) { ${hashbang ? `//${source.slice(2)}` : source}\n});`;
  // an `import()` in the file loads as it would in a file node loaded (the constant is newer than Node 20.0)
  const importModuleDynamically = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(wrapped, {
    filename: file,
    ...(kept === undefined ? {} : { cachedData: kept }),
    ...(importModuleDynamically === undefined ? {} : { importModuleDynamically }),
  });
  if (kept === undefined || script.cachedDataRejected === true) process.once("exit", () => keepCode(places, header, script));
  type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const marks = globalThis as { [SELF_WRAPPED_MARK]?: (f: ModuleFunction) => ModuleFunction };
  if (selfWrapped) marks[SELF_WRAPPED_MARK] = (f) => f;
  let run: ModuleFunction;
  try {
    run = script.runInThisContext() as ModuleFunction;
  } finally {
    delete marks[SELF_WRAPPED_MARK];
  }
  const mod = { exports: {} };
  run.call(mod.exports, mod.exports, require, mod, file, dirname(file));
}
