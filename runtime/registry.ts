// The registry as the hosts use it: paths from the environment, a scan of the roots, discovery.
import { discoverWith } from "../core/discovery/discover-with.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { RegistrySnapshot, SourceListing } from "../core/model.js";
import { toolListOf, type ToolList } from "../core/views/list-view.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { configFacts } from "../core/discovery/discovery-result.js";
import { toolOf } from "../core/compile/tool.js";
import { agentPlace, registryContext, type AgentPaths } from "./agent-paths.js";
import { readSnapshot, type PassInputs } from "./recipe-snapshot.js";
import { beginCompileCache, cachedCompileOf, codeVersion, type CompileCacheOptions } from "./compile-cache.js";
import { indexedName, listIndexText, listPlace, listWithoutDiscovery, writeListIndex } from "./list-index.js";
import { makeNodeReplaceFileSync, type ReplaceFileSync } from "../adapters/fs/replace-file-sync.js";
import { sha256Of } from "./crypto-sha256.js";
import { compileStep } from "./compile-step.js";
import { installedPackagedCompiles, packagedCompileHook, withPackagedCompiles } from "./packaged-compiles.js";

export interface RegistryOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly home?: string;
  /** the agent-dir paths, computed once by the session; when given, env, cwd and home are not read */
  readonly paths?: AgentPaths;
  /** how the roots are read: the host's scan port, built in its entry file and handed down (a
   *  test builds its own) */
  readonly scan: ScanPort;
  /** override the packaged component root (tests); `null` disables it */
  readonly packagedRoot?: string | null;
  /** the verified compile cache in `<recipe root>/.cache` (runtime/compile-cache.ts); default on */
  readonly compileCache?: boolean | CompileCacheOptions;
  /** the packaged component's compiles prepared by the build (runtime/packaged-compiles.ts): the
   *  file, default this install's; `null` compiles every packaged recipe */
  readonly packagedCompiles?: string | null;
}

export interface Registry {
  readonly paths: AgentPaths;
  readonly packagedRoot: string | undefined;
  readonly scan: ScanPort;
  /** a fresh discovery of the roots as they are now */
  discover(): Discovery;
  /** what `list` shows of the roots as they are now: from the list index when it is current
   *  (runtime/list-index.ts), else from a full discovery (given too), which writes the index */
  toolList(): { readonly list: ToolList; readonly discovery?: Discovery };
}

/** What `toolNamed` finds: the tool itself; no recipe of that name anywhere, with the names of
 *  the tools there are; or the discovery that has to say (the tool, or why there is none). */
export type NamedTool = { readonly tool: ToolSpec } | { readonly unknown: readonly string[] } | { readonly discovery: Discovery };

/** The registry openRegistry makes: it can also say how a discovery was answered. */
export interface OpenedRegistry extends Registry {
  /** `discover()`, saying whether the whole-root snapshot answered it (runtime/root-snapshot.ts:
   *  no cache entry checked, nothing resolved) or a discovery ran */
  discoverFrom(): { readonly discovery: Discovery; readonly from: "snapshot" | "discovery" };
  /** `discover()` with what the pass relied on, for a cache of what is derived from the discovery
   *  (runtime/view-cache.ts): the sources it listed and the paths it looked at (`seen` is
   *  undefined without the compile cache), and the code version and context such a cache is for */
  discoverSeen(): DiscoverySeen;
  /** The tool `name` as a discovery of the roots now would make it, for a command that needs
   *  that one tool (`call`): when the list index is current and names it (runtime/list-index.ts),
   *  made from the one compile cache entry of its recipe file (runtime/compile-cache.ts
   *  cachedCompileOf), with no other entry read; when the current index shows no recipe of that
   *  name at all, the tools there are; else a full discovery, which writes the list index as
   *  `toolList` does so that the next such command finds it. */
  toolNamed(name: string): NamedTool;
}

export interface DiscoverySeen {
  readonly discovery: Discovery;
  readonly seen?: { readonly sources: readonly SourceListing[]; readonly inputs: PassInputs };
  readonly version: string;
  readonly context: string;
}

export function openRegistry(options: RegistryOptions): OpenedRegistry {
  const { paths, packagedRoot } = agentPlace(options);
  const scan = options.scan;
  const request = { paths, ...(packagedRoot === undefined ? {} : { packagedRoot }) };
  const cacheOptions = options.compileCache === false ? undefined : options.compileCache === true ? {} : options.compileCache ?? {};
  const version = (): string => cacheOptions?.version ?? codeVersion(scan);
  const writer = (): ReplaceFileSync => cacheOptions?.writer ?? makeNodeReplaceFileSync();
  // the paths resolution depends on: the list index belongs to them (and to the working directory
  // when a recipe read another file)
  const context = registryContext(paths, packagedRoot);
  // the packaged component's compiles prepared by the build, unless none are to be used
  const preparedFile = options.packagedCompiles === undefined ? installedPackagedCompiles() : options.packagedCompiles;

  /** One discovery pass; `seen` gets the sources it read and what it relied on (list-index.ts). */
  type Seen = (sources: readonly SourceListing[], inputs: PassInputs) => void;
  const discover = (seen?: Seen): { discovery: Discovery; from: "snapshot" | "discovery" } => {
    if (cacheOptions === undefined) return { discovery: discoverWith(compileStep, readSnapshot(scan, request), { digest: sha256Of }), from: "discovery" };
    const cache = beginCompileCache(scan, { ...paths, ...request }, cacheOptions);
    // the packaged component as the build compiled it, when no cache entry serves it
    const prepared = packagedRoot === undefined || preparedFile === null ? undefined
      : packagedCompileHook(scan, preparedFile, packagedRoot, version);
    const hook = prepared === undefined ? cache?.hook : withPackagedCompiles(cache?.hook, prepared);
    const using = hook === undefined ? {} : { compiled: hook };
    if (cache === undefined) return { discovery: discoverWith(compileStep, readSnapshot(scan, request), { digest: sha256Of, ...using }), from: "discovery" };
    let done: { discovery: Discovery; snapshot: RegistrySnapshot } | undefined;
    try {
      // the whole roots unchanged since a pass that could vouch for them: its result as it was
      const revived = cache.revive();
      if (revived !== undefined) {
        seen?.(revived.sources(), revived.inputs);
        return { discovery: revived.discovery, from: "snapshot" };
      }
      const snapshot = readSnapshot(scan, request, cache);
      const discovery = discoverWith(compileStep, snapshot, { digest: sha256Of, ...using });
      seen?.(snapshot.sources, cache.inputs());
      done = { discovery, snapshot };
      return { discovery, from: "discovery" };
    } finally {
      cache.finish(done);
    }
  };

  /** A discovery pass, with the sources it listed and what it relied on (undefined without the
   *  compile cache) */
  const discoverRecorded = (): { readonly discovery: Discovery; readonly seen: DiscoverySeen["seen"] } => {
    let seen: DiscoverySeen["seen"];
    const { discovery } = discover((sources, inputs) => (seen = { sources, inputs }));
    return { discovery, seen };
  };

  return {
    paths,
    packagedRoot,
    scan,
    discover: () => discover().discovery,
    discoverFrom: () => discover(),
    discoverSeen: () => {
      const { discovery, seen } = discoverRecorded();
      return { discovery, ...(seen === undefined ? {} : { seen }), version: version(), context };
    },
    toolList: () => {
      // without the compile cache nothing is kept between processes: no index either
      const indexed = cacheOptions === undefined ? undefined : listWithoutDiscovery(scan, listPlace(paths, packagedRoot, version(), preparedFile));
      if (indexed !== undefined) return { list: indexed };
      return listByDiscovery();
    },
    toolNamed: (name) => (cacheOptions === undefined ? undefined : namedFromIndex(name, cacheOptions)) ?? { discovery: listByDiscovery().discovery },
  };

  /** `toolNamed` without a discovery: the tool from its one compile cache entry, or an unknown
   *  name, as the current list index shows them; undefined when a discovery has to answer */
  function namedFromIndex(name: string, options: CompileCacheOptions): NamedTool | undefined {
    const indexed = indexedName(scan, listPlace(paths, packagedRoot, version(), preparedFile), name);
    if (indexed === undefined || "unknown" in indexed) return indexed;
    const compiled = cachedCompileOf(scan, { ...paths, ...request }, options, indexed.file.path, indexed.file.id);
    // a tool is a loadable, enabled recipe (as discovery builds it: core/discovery/compile-pass.ts)
    const tool = compiled?.kind === "recipe" && !compiled.disabled ? toolOf(compiled, configFacts(compiled.config)) : undefined;
    return tool !== undefined && tool._tag === "Right" ? { tool: tool.right } : undefined;
  }

  /** what `list` shows, from a full discovery (given too), which writes the list index */
  function listByDiscovery(): { readonly list: ToolList; readonly discovery: Discovery } {
    const { discovery, seen: read } = discoverRecorded();
    const list = toolListOf(discovery);
    const text = read === undefined ? undefined : listIndexText(version(), context, paths.cwd, read.sources, read.inputs, list, discovery.tools.map((t) => t.path));
    if (text !== undefined) writeListIndex(writer(), paths.recipeRoot, text);
    return { list, discovery };
  }
}
