// The registry as the hosts use it: paths from the environment, a scan of the roots, discovery.
import { discover } from "../core/discovery/discover.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { SnapshotFile } from "../core/model.js";
import { makeNodeScanPort, type ScanPort } from "../adapters/fs/scan.js";
import { agentPaths, packageInfo, type AgentPaths } from "./agent-paths.js";
import { readSnapshot } from "./recipe-snapshot.js";
import { beginCompileCache, type CompileCacheOptions } from "./compile-cache.js";
import { sha256Bytes } from "./crypto-sha256.js";

export interface RegistryOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly home?: string;
  /** the agent-dir paths, computed once by the session; when given, env, cwd and home are not read */
  readonly paths?: AgentPaths;
  readonly scan?: ScanPort;
  /** override the packaged component root (tests); `null` disables it */
  readonly packagedRoot?: string | null;
  /** the verified compile cache in `<recipe root>/.cache` (runtime/compile-cache.ts); default on */
  readonly compileCache?: boolean | CompileCacheOptions;
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

export function openRegistry(options: RegistryOptions = {}): Registry {
  const paths = options.paths ?? agentPaths(options.env ?? process.env, options.cwd ?? process.cwd(), options.home);
  const scan = options.scan ?? makeNodeScanPort();
  const packagedRoot = options.packagedRoot === null ? undefined : options.packagedRoot ?? packageInfo().packagedRecipeRoot;
  return {
    paths,
    packagedRoot,
    scan,
    discover: () => {
      const request = { paths, ...(packagedRoot === undefined ? {} : { packagedRoot }) };
      const cache = options.compileCache === false ? undefined
        : beginCompileCache(scan, { ...paths, ...request }, options.compileCache === true ? {} : options.compileCache);
      if (cache === undefined) return discover(readSnapshot(scan, request), { digest: sha256Of });
      try {
        return discover(readSnapshot(scan, request, cache), { digest: sha256Of, compiled: cache.hook });
      } finally {
        cache.finish();
      }
    },
  };
}
