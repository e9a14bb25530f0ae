// The registry as the hosts use it: paths from the environment, a scan of the roots, discovery.
import { discoverWith } from "../core/discovery/discover-with.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { SnapshotFile } from "../core/model.js";
import type { ScanPort } from "../adapters/fs/scan.js";
import { agentPlace, type AgentPaths } from "./agent-paths.js";
import { readSnapshot } from "./recipe-snapshot.js";
import { beginCompileCache, codeVersion, type CompileCacheOptions } from "./compile-cache.js";
import { sha256Bytes } from "./crypto-sha256.js";
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
}

export const sha256Of = (file: SnapshotFile): string | undefined =>
  file.bytes === undefined ? undefined : sha256Bytes(file.bytes);

export function openRegistry(options: RegistryOptions): Registry {
  const { paths, packagedRoot } = agentPlace(options);
  const scan = options.scan;
  return {
    paths,
    packagedRoot,
    scan,
    discover: () => {
      const request = { paths, ...(packagedRoot === undefined ? {} : { packagedRoot }) };
      if (options.compileCache === false) return discoverWith(compileStep, readSnapshot(scan, request), { digest: sha256Of });
      const cacheOptions = options.compileCache === true ? {} : options.compileCache ?? {};
      const cache = beginCompileCache(scan, { ...paths, ...request }, cacheOptions);
      // the packaged component as the build compiled it, when no cache entry serves it
      const preparedFile = options.packagedCompiles === undefined ? installedPackagedCompiles() : options.packagedCompiles;
      const prepared = packagedRoot === undefined || preparedFile === null ? undefined
        : packagedCompileHook(scan, preparedFile, packagedRoot, () => cacheOptions.version ?? codeVersion(scan));
      const hook = prepared === undefined ? cache?.hook : withPackagedCompiles(cache?.hook, prepared);
      const using = hook === undefined ? {} : { compiled: hook };
      if (cache === undefined) return discoverWith(compileStep, readSnapshot(scan, request), { digest: sha256Of, ...using });
      try {
        return discoverWith(compileStep, readSnapshot(scan, request, cache), { digest: sha256Of, ...using });
      } finally {
        cache.finish();
      }
    },
  };
}
