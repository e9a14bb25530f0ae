// The package as `npm pack` makes it (its `prepare` script runs the shipped build into dist/, unless
// dist/ is already a finished build of the current files),
// made once per test run and shared by the test files that need it (test/package/pack.test.ts
// installs it, test/scripts/bundle.test.ts runs its bundled entry points). The build it runs
// (`tsc`, then the asset copy and the bundler) is the most expensive fixture of the suite; two
// files each paying for their own build doubled it.
//
// Test files run in parallel workers, so the first one that needs the tarball makes it and the
// others wait for its result: the maker holds a lock folder (`mkdir` fails when it exists) with
// its process id inside, and writes `result.json` (the tarball, or the error that stopped the
// build) when it is done. A waiter whose maker is gone without a result fails with that reason
// instead of waiting for ever.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { repoRoot } from "./cli.js";
import { alive } from "./test-build.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Where this run's tarball goes: inside the run's test build (removed with it,
 *  test/support/global-setup.ts), or, without the test build, a folder of this process alone. */
function packDir(): string {
  const build = inject("testBuild");
  if (typeof build === "string" && build !== "") return join(build, ".packed");
  return join(tmpdir(), `pi-recipes-packed-${process.pid}`);
}


type Result = { readonly tarball: string } | { readonly error: string };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The path of this run's `npm pack` tarball, made by the first caller of the run. */
export async function packedTarball(): Promise<string> {
  const dir = packDir();
  const lock = `${dir}.lock`;
  const resultFile = join(dir, "result.json");
  const read = (): Result => JSON.parse(readFileSync(resultFile, "utf8")) as Result;
  const unwrap = (r: Result): string => {
    if ("error" in r) throw new Error(`npm pack (made once per run for every test file that needs the package) failed: ${r.error}`);
    return r.tarball;
  };
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  if (mine) {
    writeFileSync(join(lock, "pid"), String(process.pid));
    mkdirSync(dir, { recursive: true });
    if (typeof inject("testBuild") !== "string" || inject("testBuild") === "") process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    let result: Result;
    try {
      // `npm pack` builds first (the `prepare` script); when dist/ is a finished build of exactly the
      // files there are now (scripts/build-stamp.mjs: `npm ci` has just built it on a clean clone),
      // that build is packed as it is instead of being made a second time
      const current = spawnSync(process.execPath, [join(repoRoot, "scripts", "build-stamp.mjs"), "check"], { stdio: "ignore" }).status === 0;
      const packed = JSON.parse(
        execFileSync(npm, ["pack", "--json", "--pack-destination", dir, ...(current ? ["--ignore-scripts"] : [])], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
      ) as { filename: string }[];
      result = { tarball: join(dir, packed[0]!.filename) };
    } catch (e) {
      const err = e as Error & { stderr?: string };
      result = { error: `${err.message}${err.stderr === undefined ? "" : `\n${err.stderr}`}` };
    }
    // written whole, then put in place: a waiter never reads half of it
    writeFileSync(`${resultFile}.tmp`, JSON.stringify(result));
    renameSync(`${resultFile}.tmp`, resultFile);
    return unwrap(result);
  }
  for (;;) {
    if (existsSync(resultFile)) return unwrap(read());
    let pid = NaN;
    try {
      pid = Number(readFileSync(join(lock, "pid"), "utf8"));
    } catch {
      // the maker has made the lock folder and not yet written its id
    }
    if (Number.isInteger(pid) && pid > 0 && !alive(pid) && !existsSync(resultFile)) {
      throw new Error(`the test worker making the package with npm pack (process ${pid}) is gone without a result (${lock})`);
    }
    await sleep(200);
  }
}
