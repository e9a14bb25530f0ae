// Where the registry lives: the agent dir is $PI_CODING_AGENT_DIR (absolute), else ~/.pi/agent.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { installedPackage } from "../adapters/fs/package-root.js";

export interface AgentPaths {
  readonly agentDir: string;
  readonly recipeRoot: string;
  readonly draftRoot: string;
  readonly usageRoot: string;
  readonly tmpRoot: string;
  readonly home: string;
  readonly cwd: string;
}

export function agentPaths(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd(), home: string = homedir()): AgentPaths {
  const configured = env["PI_CODING_AGENT_DIR"];
  const agentDir = configured !== undefined && configured.trim() !== "" ? resolve(cwd, configured) : join(home, ".pi", "agent");
  const recipeRoot = join(agentDir, "recipes");
  return {
    agentDir,
    recipeRoot,
    draftRoot: join(recipeRoot, "drafts"),
    usageRoot: join(recipeRoot, ".usage"),
    tmpRoot: join(agentDir, "tmp", "pi-recipes"),
    home,
    cwd,
  };
}

/** What a place is given: the environment, working folder and home the paths derive from (or the
 *  paths themselves, already derived), and the packaged component root (`null`: none, for tests). */
export interface PlaceOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly home?: string;
  readonly paths?: AgentPaths;
  readonly packagedRoot?: string | null;
}

/** Where a host's registry lives: its agent-dir paths and its packaged component root. */
export interface AgentPlace {
  readonly paths: AgentPaths;
  readonly packagedRoot: string | undefined;
}

/** The one derivation of a host's place: given paths win, else $PI_CODING_AGENT_DIR or the
 *  default under `home`; the packaged root defaults to the installed package's `recipes/`. Every
 *  host and the sessions, registries and views it opens take their place from here
 *  (test/architecture/place-once.test.ts). */
export function agentPlace(options: PlaceOptions = {}): AgentPlace {
  const paths = options.paths ?? agentPaths(options.env ?? process.env, options.cwd ?? process.cwd(), options.home);
  const packagedRoot = options.packagedRoot === null ? undefined : options.packagedRoot ?? packageInfo().packagedRecipeRoot;
  return { paths, packagedRoot };
}

/**
 * The lock files of a recipe root. They live inside it, beside the data they guard, rather than
 * in the OS temp folder (which differs between processes under systemd PrivateTmp or a sandbox)
 * or in the agent dir (a recipe root symlinked from two agent dirs is still one folder, so its
 * `.locks` is one folder too). Discovery and the watcher ignore dot-folders.
 */
export const lockRootOf = (recipeRoot: string): string => join(recipeRoot, ".locks");

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  readonly root: string;
  /** the package's standard library of components (lower priority, never tools) */
  readonly packagedRecipeRoot: string;
}

/** The installed pi-recipes package (adapters/fs/package-root.ts reads its manifest from the real
 *  disk, once per process) and its packaged component root, the `recipes/` folder beside its
 *  package.json. */
let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (cached !== undefined) return cached;
  const pkg = installedPackage();
  cached = { ...pkg, packagedRecipeRoot: join(pkg.root, "recipes") };
  return cached;
}

/** What a cache kept between processes is for besides the code version: the paths resolution
 *  depends on (and the working directory, when a recipe read another file). */
export const registryContext = (paths: AgentPaths, packagedRoot: string | undefined): string =>
  JSON.stringify([paths.agentDir, paths.recipeRoot, paths.home, packagedRoot ?? null]);
