// A runtime session: what a host opens once and closes once (a CLI command, a Pi session, an MCP
// connection). It owns the ports, the paths, the usage ledger and the discovery of the tool set,
// and it runs the start-up and shut-down housekeeping every host needs in the same order.
//
// One-shot (`openSession`, the CLI): one discovery when first asked, the ledger opened for
// launches, its launch log closed at the end, and the pending launch logs folded when enough of
// them wait and the store lock is free at that instant (runtime/ledger/exit-fold.ts): no waiting,
// so a command stays cheap, and a script of many calls leaves few files.
// Live (`openLiveSession`, Pi and MCP): at open, ledger recovery, stray-temp cleanup, the live
// registry with its watcher, lineage seeding; at close, the watcher stopped and the launch logs
// folded into the ledgers, so a session leaves folded, exact ledgers behind.
import type { Discovery } from "../core/discovery/discovery-result.js";
import { join } from "node:path";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { sandboxModeOf } from "../core/sandbox/policy.js";
import { toolListOf, type ToolList } from "../core/views/list-view.js";
import type { CommandResult } from "../core/result.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { folderModesUnder } from "../adapters/fs/folder-modes.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import type { Watcher } from "../adapters/watch/Watcher.js";
import { agentPlace, lockRootOf, type AgentPaths } from "./agent-paths.js";
import { recipeRootLock } from "./root-lock.js";
import type { LaunchCheck, OnRejected } from "./accounting.js";
// only the ledger's context (paths, the launch log's handle) is opened with a session; the store's
// code (folds, accounting, recovery, the journal engine and io-ts under them) is loaded when a
// launch, a close with launches to fold, a usage view or a live session needs it, so a `list` of a
// one-shot session never loads it (docs/performance.md, "start-up")
import { openLedger, type LedgerContext } from "./ledger/ledger-context.js";
import type { LiveRegistry } from "./live-registry.js";
import type { RegisterParams } from "./register.js";
import { openRegistry, type DiscoverySeen, type NamedTool, type Registry } from "./registry.js";
import type { CallContext } from "./verbs/call.js";

/** What a host gives a session. The file system and the scan port are the host's (its entry file
 *  builds them once: node adapters, or memfs in tests); the rest has defaults. */
export interface SessionOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly home?: string;
  /** the agent-dir paths, already computed (hostPorts); when given, env, cwd and home are not read for them */
  readonly paths?: AgentPaths;
  /** the packaged component root; `null`: none (tests) */
  readonly packagedRoot?: string | null;
  /** files of the host's that no sandboxed command may read (the HTTP server's token file) */
  readonly hiddenPaths?: readonly string[];
  readonly fs: FileSystem;
  readonly scan: ScanPort;
  readonly lock?: Lock;
}

export interface LiveSessionOptions extends SessionOptions {
  readonly watcher?: Watcher;
  readonly debounceMs?: number;
  /** watcher failures and listener exceptions */
  readonly onWatchError?: (error: Error) => void;
  /** start-up and shut-down diagnostics (recovery, cleanup, seeding, folding): for the operator */
  readonly log?: (line: string) => void;
}

export interface RuntimeSession {
  readonly paths: AgentPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly packagedRoot: string | undefined;
  readonly fs: FileSystem;
  readonly scan: ScanPort;
  readonly lock: Lock;
  readonly ledger: LedgerContext;
  /** the tool set: the live registry's current one, or (one-shot) one discovery */
  discovery(): Discovery;
  /** what `list` shows of the tool set: one-shot, from the list index when it is current
   *  (runtime/list-index.ts), without a discovery */
  toolList(): ToolList;
  /** one-shot only: `discovery()` with what it relied on, for a cache of a view derived from it
   *  (runtime/view-cache.ts); a session that already discovered discovers again */
  discoverySeen?(): DiscoverySeen;
  /** the tool `name`; or, for a name no recipe has, the tool names; or the discovery that says
   *  why there is none. One-shot, the first two come from the list index and the tool's one
   *  compile cache entry when the index is current (runtime/registry.ts toolNamed) */
  toolNamed(name: string, fresh?: boolean): NamedTool;
  /** the registry view `spawn` reads (its `discover` answers `discovery()`) */
  registry(): Registry;
  /** the one launch path: validate (runtime/verbs/call.ts), account in this session's ledger
   *  (runtime/accounting.ts), then run (runtime/launch.ts), through this session's file system */
  launch(tool: ToolSpec, params: Readonly<Record<string, unknown>>, ctx: Omit<CallContext, "launch" | "fs">): Promise<CommandResult>;
  /** the call context of this session's launches: accounted in its ledger, on its file system */
  callContext(extra?: Omit<CallContext, "launch" | "paths" | "fs">): CallContext;
  /** register_tool with this session's ports; `refresh` runs after a write, still under the locks */
  register(params: RegisterParams, refresh?: () => void): Promise<CommandResult>;
  close(): Promise<void>;
}

export interface LiveSession extends RuntimeSession {
  readonly live: LiveRegistry;
}

/** A host's ports and place: what a session is opened over, and what a host's steps before the
 *  session (an activation at start-up, settling a pending plan) use, so that nothing is built or
 *  computed twice. */
export interface HostPorts {
  readonly paths: AgentPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly packagedRoot: string | undefined;
  readonly fs: FileSystem;
  readonly scan: ScanPort;
  readonly lock: Lock;
}

/** The agent-dir paths, the packaged root and the lock of a host, computed once from its options. */
export function hostPorts(options: SessionOptions): HostPorts {
  const env = options.env ?? process.env;
  const { paths, packagedRoot } = agentPlace({ ...options, env });
  // what the runtime makes in the recipe folder (ledgers, journals, drafts, recipes) may be
  // written by every user who may write the folder, whatever the umask of the one who made it
  const fs = folderModesUnder(paths.recipeRoot, options.fs);
  return {
    paths,
    env,
    packagedRoot,
    fs,
    scan: options.scan,
    lock: options.lock ?? recipeRootLock(fs, paths.recipeRoot, makeFileLock({ fs, lockRoot: lockRootOf(paths.recipeRoot) })),
  };
}

/** The options that open a session over ports already built. */
export const overPorts = (ports: HostPorts): SessionOptions => ({
  env: ports.env,
  paths: ports.paths,
  packagedRoot: ports.packagedRoot ?? null,
  fs: ports.fs,
  scan: ports.scan,
  lock: ports.lock,
});

/** Pi's files of credentials in the agent dir (its getAuthPath and getModelsPath) */
const PI_SECRETS = ["auth.json", "models.json"];

interface Base extends HostPorts {
  readonly ledger: LedgerContext;
  readonly hiddenPaths: readonly string[];
}

function base(options: SessionOptions): Base {
  const ports = hostPorts(options);
  return { ...ports, hiddenPaths: options.hiddenPaths ?? [], ledger: openLedger({ fs: ports.fs, lock: ports.lock, recipeRoot: ports.paths.recipeRoot, usageRoot: ports.paths.usageRoot }) };
}

function withLaunch(
  b: Base, discovery: () => Discovery, close: () => Promise<void>, onRejected?: OnRejected, toolList = (): ToolList => toolListOf(discovery()),
  toolNamed = (_name: string): NamedTool => ({ discovery: discovery() }),
): RuntimeSession {
  const check = async (tool: ToolSpec): Promise<LaunchCheck> => (await import("./accounting.js")).ledgerLaunchCheck(b.ledger, onRejected)(tool);
  // read-only inside every sandbox of this session's launches (runtime/call-sandbox.ts)
  const registryFolders = [b.paths.agentDir, ...(b.packagedRoot === undefined ? [] : [b.packagedRoot])];
  // hidden inside them: the host's own secrets. The agent dir is Pi's too, and Pi keeps its
  // credentials there (auth.json; models.json may hold a provider's API key); a confined command
  // reads everything read_deny does not hide, and with the network could send them anywhere
  const hiddenPaths = [...b.hiddenPaths, ...PI_SECRETS.map((name) => join(b.paths.agentDir, name))];
  // the operator's PI_RECIPES_SANDBOX as this host's environment says it: register_tool judges by it,
  // and so must every call (not by the process's own environment, which a host may not pass on)
  const sandboxMode = sandboxModeOf(b.env);
  return {
    ...b,
    discovery,
    toolList,
    toolNamed,
    registry: () => ({ paths: b.paths, packagedRoot: b.packagedRoot, scan: b.scan, discover: discovery, toolList: () => ({ list: toolList() }) }),
    // the call path (argument checks, execution) is loaded by a launch only: a session that only
    // lists or inspects never loads it (docs/performance.md)
    launch: async (tool, params, ctx) => (await import("./verbs/call.js")).runChecked(tool, params, { registryFolders, hiddenPaths, sandboxMode, ...ctx, fs: b.fs }, check),
    callContext: (extra = {}) => ({ paths: b.paths, fs: b.fs, registryFolders, hiddenPaths, sandboxMode, ...extra, launch: check }),
    // the register step (and the compile code it needs) is loaded by a register only, so a one-shot
    // session that only lists compiles nothing it does not need (docs/performance.md)
    register: async (params, refresh) =>
      (await import("./register.js")).registerTool(params, {
        paths: b.paths,
        fs: b.fs,
        lock: b.lock,
        env: b.env,
        ...(b.packagedRoot === undefined ? {} : { packagedRoot: b.packagedRoot }),
        ...(refresh === undefined ? {} : { refresh }),
      }),
    close,
  };
}

/** A session for one command: nothing is read until `discovery()` is first called. */
export function openSession(options: SessionOptions): RuntimeSession {
  const b = base(options);
  const registry = openRegistry({
    paths: b.paths,
    scan: b.scan,
    packagedRoot: b.packagedRoot ?? null,
  });
  let discovered: Discovery | undefined;
  const toolList = (): ToolList => {
    if (discovered !== undefined) return toolListOf(discovered);
    const found = registry.toolList();
    discovered = found.discovery;
    return found.list;
  };
  // a session that launched nothing has no launch log to fold: the fold's code is not loaded for it
  const close = async (): Promise<void> =>
    b.ledger.log.id === undefined ? void (await b.ledger.log.close().catch(() => undefined)) : void (await (await import("./ledger/exit-fold.js")).closeAndFoldIfFree(b.ledger));
  const discoverySeen = (): DiscoverySeen => {
    const seen = registry.discoverSeen();
    discovered = seen.discovery;
    return seen;
  };
  // `fresh`: found again from the files as they are now (a launch refused as stale)
  const toolNamed = (name: string, fresh = false): NamedTool => {
    if (fresh) discovered = undefined;
    if (discovered !== undefined) return { discovery: discovered };
    const found = registry.toolNamed(name);
    if ("discovery" in found) discovered = found.discovery;
    return found;
  };
  return { ...withLaunch(b, () => (discovered ??= registry.discover()), close, undefined, toolList, toolNamed), discoverySeen };
}

/** A session that keeps its tool set current until it is closed. */
export async function openLiveSession(options: LiveSessionOptions): Promise<LiveSession> {
  const b = base(options);
  const { recoverLedger, seedLineages, foldPending, closeLedger } = await import("./ledger/index.js");
  const log = options.log ?? ((): void => undefined);
  const report = (what: string) => (e: unknown): void => log(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  const tell = (lines: readonly string[]): void => {
    for (const line of lines) log(line);
  };

  // recovery before anything reads the store or the recipe folders
  tell(await recoverLedger(b.ledger).catch((e: unknown) => [`usage ledger recovery failed: ${String(e)}`]));
  const { cleanStrayRecipeTemps } = await import("./startup.js");
  await cleanStrayRecipeTemps({ paths: b.paths, fs: b.fs, lock: b.lock, report: log }).catch(report("start-up cleanup"));
  // loaded by a live session only: a one-shot session (every CLI verb) has no live registry and no
  // watcher (docs/performance.md)
  const { openLiveRegistry } = await import("./live-registry.js");
  const live = openLiveRegistry({
    paths: b.paths,
    scan: b.scan,
    packagedRoot: b.packagedRoot ?? null,
    ...(options.watcher === undefined ? {} : { watcher: options.watcher }),
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    ...(options.onWatchError === undefined ? {} : { onError: options.onWatchError }),
  });
  await live.start();
  tell((await seedLineages(b.ledger, live.current().discovery)).diagnostics);
  // the lineages follow the tool set as it changes, not only at the next launch: a tool renamed
  // or edited by hand shows its own usage at once (one seeding at a time, in the order of the
  // changes; each seeds the tool set as it is when it runs)
  let seeding: Promise<void> = Promise.resolve();
  const unseed = live.subscribe((change) => {
    if (change.added.length + change.changed.length + change.removed.length === 0) return;
    seeding = seeding.then(async () => tell((await seedLineages(b.ledger, live.current().discovery)).diagnostics)).catch(report("lineage seeding"));
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      unseed();
      await live.close();
      await seeding;
      // launches counted in this session's log reach the ledgers now rather than at the next fold
      tell(await foldPending(b.ledger).catch((e: unknown) => [`usage ledger fold failed: ${String(e)}`]));
      await closeLedger(b.ledger).catch(report("launch log close"));
    })());
  // a refused launch means the file changed under the tool: re-read it so the tool set shows it
  const onRejected: OnRejected = (tool) => void live.refresh([tool.path]);
  return { ...withLaunch(b, () => live.current().discovery, close, onRejected), live };
}
