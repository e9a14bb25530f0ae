// Launch accounting for one-shot hosts (the CLI): the digest of each candidate recipe file is taken
// BEFORE discovery reads it, so if the file changes in between, the ledger sees a digest older than
// the loaded content and rejects the launch (reload and retry) rather than counting the wrong source.
import { join } from "node:path";
import type { ToolSpec } from "../core/discovery/types.js";
import { executableFingerprint } from "../core/ledger/fingerprint.js";
import { hasCode, type FileSystem } from "../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import { closeAndFoldIfFree, openLedger, recordLaunch, sha256Bytes, type LedgerContext } from "./ledger/index.js";
import type { AgentPaths } from "./agent-paths.js";

export interface LaunchGuard {
  /** counts one launch of `tool`; `rejected` says why it must not run; `diagnostic` reports an
   * accounting failure that did not stop the launch */
  launch(tool: ToolSpec): Promise<{ readonly ok: true; readonly diagnostic?: string } | { readonly ok: false; readonly rejected: string }>;
  close(): Promise<void>;
}

/** sha256 of a recipe file's bytes; undefined when it does not exist. */
export async function digestOf(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return sha256Bytes(await fs.readFile(path));
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR", "EISDIR")) return undefined;
    throw e;
  }
}

/** Digests the files that can hold tool `name` in the user root, then opens the ledger. */
export async function prepareLaunch(paths: AgentPaths, name: string, fs: FileSystem = makeNodeFileSystem()): Promise<LaunchGuard> {
  const digests = new Map<string, string | undefined>();
  if (!name.includes("/") && !name.includes("\0")) {
    for (const file of [join(paths.recipeRoot, `${name}.json`), join(paths.recipeRoot, `${name}.md`)]) {
      digests.set(file, await digestOf(fs, file).catch(() => undefined));
    }
  }
  let ledger: LedgerContext | undefined;
  return {
    async launch(tool) {
      const sourceSha256 = digests.has(tool.path) ? digests.get(tool.path) : await digestOf(fs, tool.path).catch(() => undefined);
      if (sourceSha256 === undefined) return { ok: true, diagnostic: `Usage not recorded: recipe source unreadable: ${tool.path}` };
      ledger ??= openLedger({ fs, lock: makeFileLock({ fs }), recipeRoot: paths.recipeRoot });
      const outcome = await recordLaunch(ledger, { path: tool.path, name: tool.name, fingerprint: executableFingerprint(tool.config), sourceSha256 });
      if (!outcome.ok) return { ok: false, rejected: outcome.rejected };
      return outcome.diagnostic === undefined ? { ok: true } : { ok: true, diagnostic: outcome.diagnostic };
    },
    async close() {
      // the process ends here: fold the books if enough logs wait and the lock is free
      if (ledger !== undefined) await closeAndFoldIfFree(ledger);
    },
  };
}
