// The CLI built from the current sources, once per test run (vitest's globalSetup, see
// vitest.config.ts), laid out exactly like the package's dist/: the per-file modules plus the
// bundled entries of scripts/bundle.mjs and the supervisor copied by scripts/copy-assets.mjs.
// Tests that spawn `pi-recipes` run this build with plain node instead of the sources through tsx,
// which spends most of a short command loading the TypeScript loader and compiling modules.
// It is never the dist/ of `npm run build`, which may be older than the sources under test.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { nodeProcessProbe } from "../../adapters/lock/owner.js";

/** The source folders the package ships (tsconfig.build.json, without the bench). */
const SOURCE_DIRS = ["core", "adapters", "runtime", "host-cli", "host-mcp", "host-pi"];
const TEST_DIRS = ["test", "props"];

/** Where test builds go: inside the repository, so the build finds the package's package.json
 *  (and its packaged recipes) by walking up from itself, as dist/ does. `.cache/` is ignored by git. */
export const testBuildsDir = (repoRoot: string): string => join(repoRoot, ".cache", "test-build");

/** whether a process of this id may run (one of another user's counts, and so does a doubt) */
export const alive = (pid: number): boolean => nodeProcessProbe.signalZero(pid) !== "gone";

/** Removes the builds of test runs that are gone (one folder per run, named by its process id). */
export function removeStaleBuilds(repoRoot: string): void {
  const dir = testBuildsDir(repoRoot);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** The TypeScript files under `dir` (relative to `root`), without declaration files and without
 *  descending into node_modules (test/pi-cli/ holds an installed Pi command line). */
function typescriptIn(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") found.push(...typescriptIn(root, rel));
    else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push(rel);
  }
  return found;
}

/** Builds the package from `repoRoot`'s sources into `outdir`; with `metafile`, the bundle step
 *  writes esbuild's account of which source modules each output file holds there. */
export async function buildForTests(repoRoot: string, outdir: string, metafile?: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  // what `tsc -p tsconfig.build.json` emits, one module per source file: the run worker and the
  // supervisor start from it, and the bundles point into it for their module-relative paths.
  // Beside it, the helpers of test/ and props/ (not the test files), so that a worker a test
  // starts as a process of its own (test/adapters/lock/worker.ts) runs the same built modules.
  const entryPoints = [
    ...SOURCE_DIRS.flatMap((dir) => typescriptIn(repoRoot, dir)),
    ...TEST_DIRS.flatMap((dir) => typescriptIn(repoRoot, dir).filter((f) => !f.endsWith(".test.ts"))),
  ];
  await build({
    absWorkingDir: repoRoot,
    entryPoints,
    outdir,
    outbase: ".",
    bundle: false,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  const node = (script: string, ...more: string[]): void => {
    execFileSync(process.execPath, [join(repoRoot, "scripts", script), outdir, ...more], { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] });
  };
  node("copy-assets.mjs");
  node("bundle.mjs", ...(metafile === undefined ? [] : [metafile]));
  for (const entry of ["main.js", "pi-recipes.cjs"]) {
    const file = join(outdir, "host-cli", entry);
    if (!existsSync(file)) throw new Error(`test build: ${file} was not written`);
  }
}
