// Real-disk fixtures for the ledger tests: an agent dir, a ledger context on it, and the launch
// input a resolved recipe file gives.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { executableFingerprint } from "../../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../../core/recipe/load.js";
import type { LedgerRecord } from "../../../core/ledger/codec.js";
import { ledgerFileName } from "../../../core/ledger/keys.js";
import { closeLedger, openLedger, sha256Bytes, type LedgerContext, type LedgerOptions } from "../../../runtime/ledger/ledger-context.js";
import type { LaunchInput } from "../../../runtime/ledger/account-launch.js";

export interface Agent {
  readonly dir: string;
  readonly root: string;
  readonly lockRoot: string;
  write(rel: string, content: unknown): string;
  ctx(options?: Partial<LedgerOptions>): LedgerContext;
  ledgerFile(id: string): LedgerRecord | undefined;
  indexFile(): { paths: Record<string, { ledger: string; fingerprint: string }>; applied: Record<string, number> } | undefined;
  ledgerIds(): string[];
  cleanup(): Promise<void>;
}

export function makeAgent(): Agent {
  const dir = mkdtempSync(join(tmpdir(), "pi-ledger-"));
  const root = join(dir, "recipes");
  const lockRoot = join(dir, "locks");
  mkdirSync(join(root, "drafts"), { recursive: true });
  const opened: LedgerContext[] = [];
  const readJsonFile = <A>(path: string): A | undefined => {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as A;
    } catch {
      return undefined;
    }
  };
  return {
    dir,
    root,
    lockRoot,
    write(rel, content) {
      const path = join(root, rel);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
      return path;
    },
    ctx: (options = {}) => {
      const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot }), recipeRoot: root, ...options });
      opened.push(ctx);
      return ctx;
    },
    ledgerFile: (id) => readJsonFile(join(root, ".usage", "recipes", ledgerFileName(id))),
    indexFile: () => readJsonFile(join(root, ".usage", "index.json")),
    ledgerIds: () => {
      try {
        return readdirSync(join(root, ".usage", "recipes")).map((n) => decodeURIComponent(n.slice(0, -5))).sort();
      } catch {
        return [];
      }
    },
    cleanup: async () => {
      for (const ctx of opened.splice(0)) await closeLedger(ctx);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What an executor resolving `path` now would pass to recordLaunch. */
export function resolved(path: string): LaunchInput {
  const bytes = new Uint8Array(readFileSync(path));
  const format = path.endsWith(".md") ? "md" : "json";
  const name = basename(path).replace(/\.(json|md)$/, "");
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, name, format);
  if (E.isLeft(config)) throw new Error(`fixture ${path} does not load: ${JSON.stringify(config.left)}`);
  return { path, name, fingerprint: executableFingerprint(config.right), sourceSha256: sha256Bytes(bytes) };
}

/** A settable clock: `at(iso)` moves it. */
export function clock(iso: string): { now: () => number; at: (iso: string) => void } {
  let t = Date.parse(iso);
  return { now: () => t, at: (next) => void (t = Date.parse(next)) };
}
