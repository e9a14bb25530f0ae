// Everything the extension holds for one Pi session, opened at session_start and closed at
// session_shutdown (Pi re-imports the extension for every new, resumed, forked or reloaded
// session, so nothing outlives it).
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeNodeScanPort, type ScanPort } from "../adapters/fs/scan.js";
import type { Watcher } from "../adapters/watch/Watcher.js";
import type { AgentPaths } from "../runtime/agent-paths.js";
import type { LiveRegistry, ToolSetChange } from "../runtime/live-registry.js";
import type { Registry } from "../runtime/registry.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import { hostPorts, openLiveSession, overPorts, type LiveSession } from "../runtime/session.js";
import { automaticReviewPolicy, type RuntimeContext } from "../runtime/verbs/status.js";
import { activateReviews, piReviewPolicy, recoverReviews, reviewWhenIdle } from "./reviews.js";
import type { ReviewPolicy } from "../runtime/review/host.js";
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
  /** the ports the runtime session reads and writes through (tests count reads with them) */
  readonly fs?: FileSystem;
  readonly scan?: ScanPort;
}

export interface HostSession {
  /** the runtime session every host opens: registry, ledger, launch path */
  readonly session: LiveSession;
  readonly paths: AgentPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly automaticReview: boolean;
  readonly live: LiveRegistry;
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

/** The tools of `removed` that are gone because their recipe broke or was disabled, each with
 *  the notice that says so (a recipe deleted or renamed is no news to tell). */
export function brokenRemovals(removed: readonly string[], discovery: Discovery): { readonly text: string; readonly level: "info" | "warning" }[] {
  const out: { text: string; level: "info" | "warning" }[] = [];
  for (const name of removed) {
    const entry = discovery.active.get(name);
    if (entry === undefined || (!entry.invalid && !entry.disabled)) continue;
    const why = entry.disabled ? `${entry.path} is disabled` : (entry.diagnostics[0] ?? `${entry.path} is invalid`);
    out.push({ text: `pi-recipes: tool "${name}" was removed: ${why}`, level: entry.disabled ? "info" : "warning" });
  }
  return out;
}

export async function openHostSession(pi: ExtensionAPI, ctx: ExtensionContext, options: HostOptions): Promise<HostSession> {
  const env = options.env ?? process.env;
  // the host's adapters, paths, packaged root and lock, built once here and handed to the boundary
  // steps and the runtime session
  const ports = hostPorts({
    env,
    cwd: ctx.cwd,
    fs: options.fs ?? makeNodeFileSystem(),
    scan: options.scan ?? makeNodeScanPort(),
    ...(options.packagedRoot === undefined ? {} : { packagedRoot: options.packagedRoot }),
  });
  const { paths, fs, lock } = ports;
  const automaticReview = automaticReviewPolicy(env);
  const hooks = options.boundaries ?? {};
  const boundaryOf = (c: ExtensionContext): BoundaryContext => ({ paths, fs, lock, automaticReview, pi, ctx: c });
  const report = (errors: readonly string[]): void => {
    for (const e of errors) notify(ctx, `pi-recipes boundary step failed: ${e}`, "error");
  };

  // the safe boundary before discovery: whatever runs here may still move recipe files (an
  // interrupted draft review batch is finished first)
  const packaged = ports.packagedRoot;
  pi.events.emit(BEFORE_DISCOVERY_EVENT, { automaticReview });
  report(await runSteps([recoverReviews(packaged), activateReviews(packaged), ...(hooks.beforeDiscovery ?? [])], boundaryOf(ctx)));
  const modelOf = (): string | undefined => (ctx.model === undefined ? undefined : `${ctx.model.provider}/${ctx.model.id}`);
  const policy = (): ReviewPolicy => piReviewPolicy(env, paths, modelOf);

  let watcherFailed = false;
  // recovery, stray-temp cleanup, the live registry and its watcher, lineage seeding
  const session = await openLiveSession({
    ...overPorts(ports),
    ...(options.watcher === undefined ? {} : { watcher: options.watcher }),
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    onWatchError: () => {
      if (!watcherFailed) notify(ctx, WATCHER_FAILED, "warning");
      watcherFailed = true;
    },
  });
  const { live, packagedRoot } = session;
  const recipes: RecipeRuntime = {
    session,
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
    const discovery = live.current().discovery;
    // a tool gone because its recipe broke (or was disabled) is said where the user looks: the
    // model only learns it at its next call of the tool, or from the doctor view
    for (const n of brokenRemovals(change.removed, discovery)) notify(ctx, n.text, n.level);
    const outcome: SyncOutcome = sync.sync(discovery);
    pi.events.emit(TOOLS_CHANGED_EVENT, { ...change, ...outcome });
  };
  live.subscribe(publish);

  const nextRun = new NextRun(pi);
  const idle = new IdleBoundary({ ...hooks, onIdle: [...(hooks.onIdle ?? []), reviewWhenIdle(policy, packagedRoot)] }, boundaryOf, report);
  return {
    session,
    paths,
    env,
    automaticReview,
    live,
    packagedRoot,
    recipes,
    sync,
    nextRun,
    idle,
    runtime: { paths, env, entrypoint: options.entrypoint, host: "pi", packagedRoot: packagedRoot ?? null, reviewer: policy().describe },
    registryView: () => session.registry(),
    async close() {
      nextRun.close();
      idle.close();
      // the watcher stops, this session's launches are folded into the ledgers
      await session.close();
    },
  };
}
