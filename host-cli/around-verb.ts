// What the command line says and prints around a verb, the same whether the front door
// (host-cli/front-door.ts) or the full command (host-cli/main.ts) answers it.
import { existsSync } from "node:fs";
import { isFsError, type FsError } from "../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../runtime/agent-paths.js";
import { packageInfo } from "../runtime/agent-paths.js";
import { writeJson } from "./print.js";
import { stderr, stdout } from "./std-out.js";

/** The verbs that read the registry. */
export const READS_REGISTRY: ReadonlySet<string> = new Set(["inspect", "schema", "list", "call", "spawn", "message", "register_tool"]);

/** A verb that reads the registry says where it looked when the agent dir does not exist, so an
 *  empty answer is not mistaken for an empty registry. */
export function noteMissingAgentDir(verb: string, paths: AgentPaths, env: NodeJS.ProcessEnv): void {
  if (!READS_REGISTRY.has(verb)) return;
  if (existsSync(paths.agentDir)) return;
  const from = env["PI_CODING_AGENT_DIR"] ? "PI_CODING_AGENT_DIR" : "the default, ~/.pi/agent";
  stderr.write(`pi-recipes: note: no agent directory at ${paths.agentDir} (from ${from}); recipes are read from ${paths.recipeRoot}\n`);
}

/** `pi-recipes --version` */
export function printVersion(json: boolean): void {
  const version = packageInfo().version;
  if (json) writeJson(true, `pi-recipes ${version}`, { version });
  else stdout.write(`pi-recipes ${version}\n`);
}

/** Help as asked: the text, or with `--json` the one JSON object `--json` promises, the text in
 *  `text` and the verb it is about (none for the general usage) in `details`. */
export function printHelp(text: string, about: string | undefined, json: boolean): void {
  if (json) writeJson(true, text.trimEnd(), about === undefined ? {} : { verb: about });
  else stdout.write(text);
}

const shortPath = (path: string): string => (path.length > 200 ? `${path.slice(0, 120)}…${path.slice(-60)}` : path);

/** `cannot mkdir /a/recipes/.locks: ELOOP (too many symbolic links)`, with any control character
 *  of the path escaped so that the line stays one line. */
function fsFailure(e: FsError): string {
  const path = JSON.stringify(shortPath(e.path)).slice(1, -1);
  const code = e.code === "UNKNOWN" ? (e.rawCode ?? e.code) : e.code;
  const why = FS_REASONS[code];
  return `cannot ${e.syscall} ${path}: ${code}${why === undefined ? "" : ` (${why})`}`;
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "file name too long",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "is a folder",
  ENOENT: "no such file or folder",
};

// (a recipe root that is no folder fails at its lock folder: runtime/root-lock.ts)
const LOCK_FAILURES: ReadonlySet<string> = new Set(["ELOCKACCESS", "ELOCKTIMEOUT", "ERECIPEROOT"]);
const lockFailure = (error: unknown): { readonly message: string; readonly code: string; readonly root?: string } | undefined => {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== "string" || !LOCK_FAILURES.has(code)) return undefined;
  const root = (error as { root?: unknown }).root;
  return { message: (error as Error).message, code, ...(typeof root === "string" ? { root } : {}) };
};

/** A command that failed with an exception: exit status 1, and one line on stderr (and the JSON
 *  object on stdout when `--json` was asked). A file the command could not use (a symlink loop, a
 *  name too long, a permission) is the environment's doing, not a bug: the line names the file,
 *  never a stack trace. */
export function reportFailure(error: unknown, json: boolean): void {
  process.exitCode = 1;
  if (isFsError(error)) {
    const text = fsFailure(error);
    stderr.write(`pi-recipes: ${text}\n`);
    if (json) writeJson(false, text, { fs_error: error.code, path: error.path });
    return;
  }
  // a lock folder this user may not write, a recipe root that is no folder, or a lock held past
  // the wait: the environment's doing,
  // said in the error's own words (they name the folder, and the holder); known by code, since the
  // error may come from another bundle's copy of the class (adapters/lock/Lock.ts)
  const lock = lockFailure(error);
  if (lock !== undefined) {
    stderr.write(`pi-recipes: ${lock.message}\n`);
    if (json) writeJson(false, lock.message, { lock_error: lock.code, ...(lock.root === undefined ? {} : { recipe_root: lock.root }) });
    return;
  }
  stderr.write(`pi-recipes: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  if (json) writeJson(false, `internal error: ${error instanceof Error ? error.message : String(error)}`, { internal_error: true });
}
