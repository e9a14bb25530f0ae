// Everything the extension holds for one Pi session, opened at session_start and closed at
// session_shutdown (Pi re-imports the extension for every new, resumed, forked or reloaded
// session, so nothing outlives it).
import * as nodeFs from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeScanPort } from "../adapters/fs/scan.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import type { Watcher } from "../adapters/watch/Watcher.js";
import { agentPaths, lockRootOf, packageInfo, type AgentPaths } from "../runtime/agent-paths.js";
import { foldPending, openLedger, seedLineages, type LedgerContext } from "../runtime/ledger/index.js";
import { openLiveRegistry, type LiveRegistry, type ToolSetChange } from "../runtime/live-registry.js";
import type { Registry } from "../runtime/registry.js";
import { cleanStrayRecipeTemps } from "../runtime/startup.js";
import { automaticReviewPolicy, type RuntimeContext } from "../runtime/verbs/status.js";
import { IdleBoundary, runSteps, BEFORE_DISCOVERY_EVENT, type BoundaryContext, type BoundaryHooks } from "./boundaries.js";
import { NextRun } from "./next-run.js";
import { recipeTool, type RecipeRuntime } from "./recipe-tools.js";
import { ToolSync, type SyncOutcome } from "./tool-sync.js";

export const TOOLS_CHANGED_EVENT = "pi-recipes:tools-changed";
export const WATCHER_FAILED =
  "Recipe live reload watcher failed; restart the session or use register_tool again to refresh recipe tools.";

export interface HostOptions {
  /** the module Pi loaded, shown by `inspect target=tool:pi-actors` */
  readonly entrypoint: string;
  readonly boundaries?: BoundaryHooks;
  readonly env?: NodeJS.ProcessEnv;
  /** `null`: no packaged component root */
  readonly packagedRoot?: string | null;
  readonly watcher?: Watcher;
  readonly debounceMs?: number;
}

export interface HostSession {
  readonly paths: AgentPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly automaticReview: boolean;
  readonly live: LiveRegistry;
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly ledger: LedgerContext;
  readonly packagedRoot: string | undefined;
  readonly recipes: RecipeRuntime;
  readonly sync: ToolSync;
  readonly nextRun: NextRun;
  readonly idle: IdleBoundary;
  readonly runtime: RuntimeContext;
  /** the spawn verb's view of the registry: the live tool set */
  registryView(): Registry;
  close(): Promise<void>;
}

const notify = (ctx: ExtensionContext, text: string, level: "info" | "warning" | "error"): void => {
  if (!ctx.hasUI) return;
  try {
    ctx.ui.notify(text, level);
  } catch {
    // a notification is a courtesy; a host that cannot show one loses nothing
  }
};

export async function openHostSession(pi: ExtensionAPI, ctx: ExtensionContext, options: HostOptions): Promise<HostSession> {
  const env = options.env ?? process.env;
  const paths = agentPaths(env, ctx.cwd);
  const automaticReview = automaticReviewPolicy(env);
  const hooks = options.boundaries ?? {};
  const boundaryOf = (c: ExtensionContext): BoundaryContext => ({ paths, automaticReview, pi, ctx: c });
  const report = (errors: readonly string[]): void => {
    for (const e of errors) notify(ctx, `pi-recipes boundary step failed: ${e}`, "error");
  };

  // the safe boundary before discovery: whatever runs here may still move recipe files
  pi.events.emit(BEFORE_DISCOVERY_EVENT, { automaticReview });
  report(await runSteps(hooks.beforeDiscovery ?? [], boundaryOf(ctx)));

  const fs = makeNodeFileSystem();
  const lock = makeFileLock({ fs, lockRoot: lockRootOf(paths.recipeRoot) });
  await cleanStrayRecipeTemps({ paths, fs, lock }).catch(() => []);
  const packagedRoot = options.packagedRoot === null ? undefined : options.packagedRoot ?? packageInfo().packagedRecipeRoot;
  let watcherFailed = false;
  const live = openLiveRegistry({
    env,
    cwd: ctx.cwd,
    packagedRoot: packagedRoot ?? null,
    ...(options.watcher === undefined ? {} : { watcher: options.watcher }),
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    onError: () => {
      if (!watcherFailed) notify(ctx, WATCHER_FAILED, "warning");
      watcherFailed = true;
    },
  });
  const ledger = openLedger({ fs, lock, recipeRoot: paths.recipeRoot, usageRoot: paths.usageRoot });
  const recipes: RecipeRuntime = {
    live,
    paths,
    fs,
    ledger,
    injected: (c) => {
      const model = c?.model;
      return {
        current_model: model === undefined ? undefined : `${model.provider}/${model.id}`,
        current_thinking: pi.getThinkingLevel(),
      };
    },
  };
  const sync = new ToolSync(pi, (spec) => recipeTool(spec, recipes));
  sync.sync(live.current().discovery);
  const publish = (change: ToolSetChange): void => {
    watcherFailed = false;
    const outcome: SyncOutcome = sync.sync(live.current().discovery);
    pi.events.emit(TOOLS_CHANGED_EVENT, { ...change, ...outcome });
  };
  live.subscribe(publish);
  await live.start();
  await seedLineages(ledger, live.current().discovery);

  const nextRun = new NextRun(pi);
  const idle = new IdleBoundary(hooks, boundaryOf, report);
  const scan = makeScanPort(nodeFs);
  return {
    paths,
    env,
    automaticReview,
    live,
    fs,
    lock,
    ledger,
    packagedRoot,
    recipes,
    sync,
    nextRun,
    idle,
    runtime: { paths, env, entrypoint: options.entrypoint, host: "pi", packagedRoot: packagedRoot ?? null },
    registryView: () => ({ paths, packagedRoot, scan, discover: () => live.current().discovery }),
    async close() {
      nextRun.close();
      idle.close();
      await live.close();
      // launches counted in this session's log reach the ledgers now rather than at the next fold
      await foldPending(ledger).catch(() => undefined);
      await ledger.log.close().catch(() => undefined);
    },
  };
}
