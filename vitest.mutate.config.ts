// The test set `npm run mutate` draws from: the whole suite but the tests that exercise the
// shipped package, an installed Pi command line or a freshly bundled CLI (slow; they run built
// code in child processes, where Stryker's active mutant does not reach, so they cannot kill one).
// Properties run fewer generated cases here (props/support/mutate-runs.ts): each one runs once per
// mutant it covers.
import { relative } from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { common } from "./vitest.config.js";

const PROP_RUNS = "25";

/**
 * Stryker runs the tests that cover a mutant and stops at the first failure, so a mutant costs
 * what runs before some test notices it. Vitest's own order runs the longest file first; this one
 * runs first a file that failed in its last run (it just noticed a mutant, probably of the same
 * code), then the quickest, by the longest time each file has taken.
 */
class QuickestFirst extends BaseSequencer {
  /** the longest time each file took in a run seen by this process: a run of the whole file,
   *  once it has run whole (a mutant's run may stop early or run a few of its tests only) */
  private readonly longest = new Map<string, number>();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (f: TestSpecification): string => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    for (const f of files) {
      const k = key(f);
      const seen = cache.getFileTestResults(k)?.duration ?? 0;
      if (seen > (this.longest.get(k) ?? 0)) this.longest.set(k, seen);
    }
    const failed = (f: TestSpecification): number => (cache.getFileTestResults(key(f))?.failed === true ? 0 : 1);
    const duration = (f: TestSpecification): number => this.longest.get(key(f)) ?? 0;
    return [...files].sort((a, b) => failed(a) - failed(b) || duration(a) - duration(b));
  }
}

export default mergeConfig(
  // two files at a time, as the mutation runs were measured with (npm test runs three)
  defineConfig({ test: { ...common, maxWorkers: 2 } }),
  defineConfig({
    test: {
      exclude: ["**/node_modules/**", "test/package/**", "test/host-pi/pi-cli.test.ts", "test/scripts/bundle.test.ts"],
      env: { PI_RECIPES_PROP_RUNS: PROP_RUNS },
      setupFiles: ["props/support/mutate-runs.ts"],
      sequence: { sequencer: QuickestFirst },
    },
  }),
);
