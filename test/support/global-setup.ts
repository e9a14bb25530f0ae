// vitest's globalSetup (vitest.config.ts): builds the CLI from the current sources once per run
// and hands its entry to the tests (`inject("testBuild")`, read by test/support/cli.ts).
// Every project that runs tests spawning the CLI names this file; they share one build (the
// first project's setup makes it, the others wait for the same promise), removed once the last
// of them is torn down.
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { buildForTests, removeStaleBuilds, testBuildsDir } from "./test-build.js";
import { setExtraCaAside } from "./extra-ca.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** the folder of the build (`<build>/host-cli/main.js` is the CLI), or "" to run the sources
     *  through tsx */
    testBuild: string;
  }
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** the run's one build and how many projects still use it (kept on globalThis: vitest may load
 *  this file once per project) */
interface Shared {
  build: Promise<string>;
  users: number;
}
const KEY = Symbol.for("pi-recipes.test-build");
const holder = globalThis as { [KEY]?: Shared };

export default async function setup(project: TestProject): Promise<() => void> {
  // before any worker or command starts: none of them needs the extra certificates (./extra-ca.ts)
  setExtraCaAside();
  let shared = holder[KEY];
  if (shared === undefined) {
    removeStaleBuilds(repoRoot);
    const outdir = join(testBuildsDir(repoRoot), String(process.pid));
    shared = { build: buildForTests(repoRoot, outdir).then(() => outdir), users: 0 };
    holder[KEY] = shared;
  }
  shared.users++;
  const outdir = await shared.build;
  project.provide("testBuild", outdir);
  return () => {
    if (--shared.users > 0) return;
    rmSync(outdir, { recursive: true, force: true });
    // a later run in the same process (watch mode) builds again
    if (holder[KEY] === shared) delete holder[KEY];
  };
}
