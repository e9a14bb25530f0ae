// A real recipe root for compile-cache tests: discovery (and `list` through the list index)
// through the cache, and without it as what the cache must reproduce; a count of recipe files
// read; and a way to wait for the file-system clock.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { toolListOf, type ToolList } from "../../core/views/list-view.js";
import { makeScanPort, type ScanPort } from "../../adapters/fs/scan.js";
import { openRegistry } from "../../runtime/registry.js";
import type { CompileCacheOptions } from "../../runtime/compile-cache.js";
import type { CommandResult } from "../../core/result.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { hostPorts, openSession, overPorts } from "../../runtime/session.js";
import { viewKey } from "../../runtime/view-key.js";
import { answerKept } from "../../host-cli/inspect-kept.js";
import { writeJson, writeText } from "../../host-cli/print.js";
import { inspectWithUsage } from "../../runtime/usage-view.js";
import { closeLedger, foldPending, openLedger, seedLineages } from "../../runtime/ledger/index.js";
import { accountLaunch } from "../../runtime/accounting.js";

export interface CacheBox {
  readonly dir: string;
  readonly root: string;
  write(name: string, body: unknown): string;
  /** discovery through the cache; `reads` is how many files it opened to read (drafts and imports
   *  included); `snapshot` when the whole-root snapshot answered (runtime/root-snapshot.ts).
   *  `blindCtime` reports every recipe file's ctime as 0, as if each write landed in the same tick
   *  as the one before; `times` reports the given paths' mtime and ctime as the time given. */
  cached(options?: CompileCacheOptions, blindCtime?: boolean, cwd?: string, times?: ReadonlyMap<string, bigint>): Promise<{ discovery: Discovery; reads: number; snapshot: boolean }>;
  /** what `list` shows, through the list index (runtime/list-index.ts) and the cache, the same
   *  scan as `cached`; `indexed` when the index answered (no discovery ran) */
  listed(options?: CompileCacheOptions, blindCtime?: boolean, cwd?: string): { list: ToolList; indexed: boolean; reads: number };
  /** the tool `name` as `call` finds it (runtime/registry.ts toolNamed), the same scan as
   *  `cached`: `tool` when it was made from its compile cache entry under a current list index,
   *  `unknown` (the tool names) when that index shows no recipe of that name, else the
   *  `discovery` that ran */
  named(name: string, options?: CompileCacheOptions, cwd?: string, blindCtime?: boolean): { tool?: ToolSpec; unknown?: readonly string[]; discovery?: Discovery; reads: number };
  /** `inspect` with `params` as the command line runs it through the view cache
   *  (runtime/view-cache.ts), printed as `--json` or as text; `from` says whether the kept answer
   *  was printed ("kept"), or a computed one ("computed": kept for next time; "result": not kept).
   *  The same scan as `cached`. */
  inspected(params: Readonly<Record<string, string>>, json: boolean, blindCtime?: boolean, extraEnv?: Readonly<Record<string, string>>): Promise<{ output: string; from: "kept" | "computed" | "result" }>;
  /** the same `inspect` computed without any cache, printed the same way */
  plainInspected(params: Readonly<Record<string, string>>, json: boolean, extraEnv?: Readonly<Record<string, string>>): Promise<string>;
  /** counts one launch of tool `name` in the usage ledger, as a call does (nothing runs); false
   *  when there is no such tool. `fold`: the launch logs are folded into the ledgers at once */
  launch(name: string, fold: boolean): Promise<boolean>;
  /** the usage lineages brought to follow the recipes as they are now (as a usage view does
   *  before it reads), without folding pending launches; returns the one-time notes that seeding
   *  said (a lineage name held by another file, a lineage not followed) */
  settle(): Promise<readonly string[]>;
  /** discovery without the cache: what the cache must reproduce */
  plain(cwd?: string): Discovery;
  /** what `list` shows of a discovery without the cache */
  plainList(cwd?: string): ToolList;
  cleanup(): void;
}

export function cacheBox(): CacheBox {
  const dir = mkdtempSync(join(tmpdir(), "pi-compile-cache-"));
  const agent = join(dir, "agent");
  const root = join(agent, "recipes");
  mkdirSync(root, { recursive: true });
  const env = { PI_CODING_AGENT_DIR: agent };
  const base = makeScanPort(nodeFs);
  return {
    dir,
    root,
    write(name, body) {
      const path = join(root, name);
      writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body));
      return path;
    },
    async cached(options = {}, blindCtime = false, cwd = dir, times) {
      const { scan, reads } = counting(blindCtime, times);
      const { discovery, from } = openRegistry({ env, cwd, home: dir, packagedRoot: null, scan, compileCache: options }).discoverFrom();
      return { discovery, reads: reads(), snapshot: from === "snapshot" };
    },
    listed(options = {}, blindCtime = false, cwd = dir) {
      const { scan, reads } = counting(blindCtime);
      const found = openRegistry({ env, cwd, home: dir, packagedRoot: null, scan, compileCache: options }).toolList();
      return { list: found.list, indexed: found.discovery === undefined, reads: reads() };
    },
    named(name, options = {}, cwd = dir, blindCtime = false) {
      const { scan, reads } = counting(blindCtime);
      const found = openRegistry({ env, cwd, home: dir, packagedRoot: null, scan, compileCache: options }).toolNamed(name);
      return { ...found, reads: reads() };
    },
    async inspected(params, json, blindCtime = false, extraEnv = {}) {
      const { scan } = counting(blindCtime);
      const ports = hostPorts({ env: { ...env, ...extraEnv }, cwd: dir, home: dir, packagedRoot: null, fs: makeNodeFileSystem(), scan });
      const host = { ports, openSession: () => Promise.resolve(openSession(overPorts(ports))) };
      const out = collector();
      const key = viewKey(params, ports.env, json ? "json" : "text");
      if (key === undefined) throw new Error(`inspect ${JSON.stringify(params)} has no view-cache key`);
      const { outcome, from } = await answerKept({ params }, host, key, out);
      if (outcome.kind === "result") print(outcome.result, json, out);
      return { output: out.text(), from };
    },
    async plainInspected(params, json, extraEnv = {}) {
      const fs = makeNodeFileSystem();
      const ports = hostPorts({ env: { ...env, ...extraEnv }, cwd: dir, home: dir, packagedRoot: null, fs, scan: base });
      const discovery = openRegistry({ env, cwd: dir, home: dir, packagedRoot: null, compileCache: false, scan: base }).discover();
      const ledger = openLedger({ fs, lock: ports.lock, recipeRoot: ports.paths.recipeRoot, usageRoot: ports.paths.usageRoot });
      const r = await inspectWithUsage(discovery, params, { paths: ports.paths, fs, ledger, env: ports.env });
      await closeLedger(ledger);
      const out = collector();
      print(r, json, out);
      return out.text();
    },
    async launch(name, fold) {
      const ports = hostPorts({ env, cwd: dir, home: dir, packagedRoot: null, fs: makeNodeFileSystem(), scan: base });
      const session = openSession(overPorts(ports));
      try {
        const tool = session.discovery().tools.find((t) => t.name === name);
        if (tool === undefined) return false;
        const check = await accountLaunch(session.ledger, tool);
        if (check._tag === "Left") throw new Error(check.left);
        if (fold) await foldPending(session.ledger);
        return true;
      } finally {
        await session.close();
      }
    },
    async settle() {
      const fs = makeNodeFileSystem();
      const ports = hostPorts({ env, cwd: dir, home: dir, packagedRoot: null, fs, scan: base });
      const discovery = openRegistry({ env, cwd: dir, home: dir, packagedRoot: null, compileCache: false, scan: base }).discover();
      const ledger = openLedger({ fs, lock: ports.lock, recipeRoot: ports.paths.recipeRoot, usageRoot: ports.paths.usageRoot });
      try {
        return (await seedLineages(ledger, discovery)).diagnostics;
      } finally {
        await closeLedger(ledger);
      }
    },
    plain: (cwd = dir) => openRegistry({ env, cwd, home: dir, packagedRoot: null, compileCache: false, scan: base }).discover(),
    plainList: (cwd = dir) => toolListOf(openRegistry({ env, cwd, home: dir, packagedRoot: null, compileCache: false, scan: base }).discover()),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };

  /** `times`: paths whose mtime and ctime the scan reports as the time given (a file written in the
   *  tick of that time) */
  function counting(blindCtime: boolean, times?: ReadonlyMap<string, bigint>): { scan: ScanPort; reads: () => number } {
    let reads = 0;
    const scan: ScanPort = {
      listDir: (p) => base.listDir(p),
      statPath: (p) => base.statPath(p),
      identity: (p) => {
        const r = base.identity!(p);
        const at = times?.get(p);
        if (r.ok && at !== undefined) return { ok: true, value: { ...r.value, mtimeNs: at, ctimeNs: at } };
        // recipe files only: the cache's clock (the ctimes of the root, the cache folder and the
        // cache file) stays real, as a file system's own clock is
        return r.ok && blindCtime && r.value.isFile && !p.startsWith(join(root, ".cache")) ? { ok: true, value: { ...r.value, ctimeNs: 0n } } : r;
      },
      readBounded: (p, limit, o) => {
        // recipe files only: the cache file itself is read through the same port
        if (!p.startsWith(join(root, ".cache"))) reads++;
        return base.readBounded(p, limit, o);
      },
    };
    return { scan, reads: () => reads };
  }
}

function collector(): { write(chunk: string | Uint8Array): boolean; readonly writableLength: number; text(): string } {
  const parts: Buffer[] = [];
  return {
    // a copy: the writer may reuse a chunk's memory for the next one
    write: (chunk) => (parts.push(Buffer.from(chunk)), true),
    writableLength: 0,
    text: () => Buffer.concat(parts).toString("utf8"),
  };
}

/** as the command line prints a result it was handed */
function print(r: CommandResult, json: boolean, out: { write(chunk: string): unknown }): void {
  if (json) writeJson(r.ok, r.text, r.details, out);
  else writeText(out, r.text);
}

/** Waits until the file-system clock has moved past every time of `paths` and of everything
 *  under them (a folder's own times do not change when a file in it is rewritten): a file written
 *  after this has strictly newer times than any of them. */
export async function nextTick(dir: string, paths: readonly string[] = []): Promise<void> {
  const probe = join(dir, ".tick");
  const newest = (p: string): bigint => {
    const st = lstatSync(p, { bigint: true });
    let t = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
    if (st.isDirectory())
      for (const name of readdirSync(p)) {
        const u = newest(join(p, name));
        if (u > t) t = u;
      }
    return t;
  };
  const floor = paths.reduce((t, p) => {
    const u = newest(p);
    return u > t ? u : t;
  }, 0n);
  for (;;) {
    writeFileSync(probe, "");
    if (statSync(probe, { bigint: true }).mtimeNs > floor) return;
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Two working directories beside the box's root, `here` holding `parts/part.json` (a relative
 *  import resolves there only), and one recipe `alpha` that reads no other file: the set-up of the
 *  tests of a cache that belongs to its working directory once a resolution read a path. */
export function twoWorkingDirs(box: CacheBox): { readonly here: string; readonly there: string } {
  const here = join(box.dir, "here");
  const there = join(box.dir, "there");
  mkdirSync(join(here, "parts"), { recursive: true });
  mkdirSync(there);
  writeFileSync(join(here, "parts", "part.json"), JSON.stringify({ template: "echo part" }));
  box.write("alpha.json", { description: "a", template: "echo a" });
  return { here, there };
}
