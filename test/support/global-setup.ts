// vitest's globalSetup (vitest.config.ts): builds the CLI from the current sources once per run
// and hands its entry to the tests (`inject("testBuild")`, read by test/support/cli.ts).
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { buildForTests, removeStaleBuilds, testBuildsDir } from "./test-build.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** the folder of the build (`<build>/host-cli/main.js` is the CLI), or "" to run the sources
     *  through tsx */
    testBuild: string;
  }
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export default async function setup(project: TestProject): Promise<() => void> {
  removeStaleBuilds(repoRoot);
  const outdir = join(testBuildsDir(repoRoot), String(process.pid));
  await buildForTests(repoRoot, outdir);
  project.provide("testBuild", outdir);
  return () => rmSync(outdir, { recursive: true, force: true });
}
