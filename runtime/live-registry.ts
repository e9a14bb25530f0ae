// A registry that stays current: it keeps the tool set, refreshes it from the files that changed
// (watcher events, or a writer that says what it wrote) and tells its listeners what changed.
// A generation number fences calls: a call resolved against a definition that has changed since
// is refused, so that it is never run against a file it did not see.
import * as E from "fp-ts/lib/Either.js";
import { createDiscoveryMemo, discoverWith } from "../core/discovery/discover-with.js";
import { diffDiscoveries, sameExecutable } from "../core/discovery/tool-set-change.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { chokidarWatcher } from "../adapters/watch/chokidar-watcher.js";
import type { RecipeRootWatch, Watcher, WatchEvent, WatchMode } from "../adapters/watch/Watcher.js";
import { agentPlace, type AgentPaths } from "./agent-paths.js";
import { type EntryKindOf, openLiveFiles } from "./live-files.js";
import type { RegistryOptions } from "./registry.js";
import { sha256Of } from "./crypto-sha256.js";
import { compileStep } from "./compile-step.js";

export interface ToolSetChange {
  readonly generation: number;
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly diagnosticsChanged: boolean;
  readonly draftsChanged: boolean;
  /** files read by this refresh */
  readonly reread: number;
}

export interface LiveRegistryOptions extends RegistryOptions {
  /** default: chokidar */
  readonly watcher?: Watcher;
  /** the watcher's coalescing window in ms */
  readonly debounceMs?: number;
  /** watcher failures and listener exceptions */
  readonly onError?: (error: Error) => void;
  readonly entryKind?: EntryKindOf;
}

export interface LiveRegistry {
  readonly paths: AgentPaths;
  current(): { readonly discovery: Discovery; readonly generation: number };
  /** called after every refresh that changed the tools, the diagnostics or the drafts */
  subscribe(listener: (change: ToolSetChange) => void): () => void;
  /** reads `paths` again (every file when absent) and publishes the result; synchronous */
  refresh(paths?: readonly string[]): ToolSetChange;
  /** arms the watcher; resolves once it is live and the tool set has been brought up to date */
  start(): Promise<void>;
  close(): Promise<void>;
  /** refreshes when a file outside the watched roots that the tools were built from (an
   *  import, a delegation target) changed: a host calls it before it lists tools or runs one */
  recheck(): ToolSetChange | undefined;
  /** the tool to run for a call that resolved `toolName` at `generationSeen`, or the reload-and-retry error */
  fence(toolName: string, generationSeen: number): E.Either<string, ToolSpec>;
  watchMode(): WatchMode | "idle";
}


export const staleToolMessage = (name: string, seen: number, now: number): string =>
  `Recipe tool "${name}" changed since it was loaded (generation ${seen} → ${now}). Reload recipe tools and retry.`;

function findTool(tools: readonly ToolSpec[], name: string): ToolSpec | undefined {
  let lo = 0;
  let hi = tools.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tools[mid]!;
    if (t.name === name) return t;
    if (t.name < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

const asError = (u: unknown): Error => (u instanceof Error ? u : new Error(String(u)));

export function openLiveRegistry(options: LiveRegistryOptions): LiveRegistry {
  const { paths, packagedRoot } = agentPlace(options);
  const files = openLiveFiles({
    scan: options.scan,
    paths,
    ...(packagedRoot === undefined ? {} : { packagedRoot }),
    ...(options.entryKind === undefined ? {} : { entryKind: options.entryKind }),
  });
  const memo = createDiscoveryMemo();
  const run = (): Discovery => discoverWith(compileStep, files.snapshot(), { digest: sha256Of, memo });

  let discovery = run();
  let generation = 0;
  /** generation at which each tool's executable definition last changed */
  const since = new Map<string, number>(discovery.tools.map((t) => [t.name, 0]));
  // tools gone from the set, as they were and since when: one that comes back executing the same
  // keeps that date. An in-place save truncates the file and then writes it, and the watcher may
  // read it in between: the tool goes (the file does not load) and comes back unchanged, which
  // must not make a call resolved before it stale.
  const departed = new Map<string, { readonly tool: ToolSpec; readonly since: number }>();
  const listeners = new Set<(change: ToolSetChange) => void>();
  let watch: RecipeRootWatch | undefined;
  let closed = false;

  const report = (u: unknown): void => {
    try {
      options.onError?.(asError(u));
    } catch {
      // the error sink itself failed; nobody is left to tell
    }
  };

  function refresh(changed?: readonly string[]): ToolSetChange {
    const readsBefore = files.reads();
    if (changed === undefined) files.rescan();
    else files.update(changed);
    const before = discovery;
    const next = run();
    const diff = diffDiscoveries(before, next);
    discovery = next;
    const toolsChanged = diff.added.length + diff.changed.length + diff.removed.length > 0;
    if (toolsChanged) generation++;
    for (const name of diff.removed) {
      const tool = findTool(before.tools, name);
      const at = since.get(name);
      if (tool !== undefined && at !== undefined) departed.set(name, { tool, since: at });
      since.delete(name);
    }
    for (const name of diff.added) {
      const was = departed.get(name);
      departed.delete(name);
      const tool = findTool(next.tools, name);
      since.set(name, was !== undefined && tool !== undefined && sameExecutable(was.tool, tool) ? was.since : generation);
    }
    for (const name of diff.executableChanged) since.set(name, generation);
    const change: ToolSetChange = {
      generation,
      added: diff.added,
      changed: diff.changed,
      removed: diff.removed,
      diagnosticsChanged: diff.diagnosticsChanged,
      draftsChanged: diff.draftsChanged,
      reread: files.reads() - readsBefore,
    };
    if (toolsChanged || diff.diagnosticsChanged || diff.draftsChanged) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch (e) {
          report(e);
        }
      }
    }
    return change;
  }

  const onBatch = (events: readonly WatchEvent[]): void => {
    if (closed) return;
    const whole = events.some((e) => e.kind === "root-added" || e.kind === "root-removed");
    refresh(whole ? undefined : events.map((e) => e.path));
  };

  let starting: Promise<void> | undefined;
  return {
    paths,
    current: () => ({ discovery, generation }),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    refresh,
    start() {
      starting ??= (async () => {
        if (closed) return;
        const w = (options.watcher ?? chokidarWatcher).watchRecipeRoot(paths.recipeRoot, onBatch, {
          ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
          onError: report,
        });
        watch = w;
        await w.ready;
        // whatever changed between the first scan and the watch going live was not reported
        if (!closed) refresh();
      })();
      return starting;
    },
    async close() {
      closed = true;
      listeners.clear();
      await watch?.close();
    },
    recheck() {
      if (closed || !files.outsideChanged()) return undefined;
      return refresh([]);
    },
    fence(toolName, generationSeen) {
      const spec = findTool(discovery.tools, toolName);
      const changedAt = since.get(toolName);
      if (spec === undefined || changedAt === undefined || changedAt > generationSeen) {
        return E.left(staleToolMessage(toolName, generationSeen, generation));
      }
      return E.right(spec);
    },
    watchMode: () => (watch === undefined ? "idle" : watch.mode()),
  };
}
