// The test set `npm run mutate` draws from: the whole suite but the tests that exercise the
// shipped package, an installed Pi command line or a freshly bundled CLI (slow; they run built
// code in child processes, where Stryker's active mutant does not reach, so they cannot kill one).
// Properties run fewer generated cases here (props/support/mutate-runs.ts): each one runs once per
// mutant it covers.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

const PROP_RUNS = "25";

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ["**/node_modules/**", "test/package/**", "test/host-pi/pi-cli.test.ts", "test/scripts/bundle.test.ts"],
      env: { PI_RECIPES_PROP_RUNS: PROP_RUNS },
      setupFiles: ["props/support/mutate-runs.ts"],
    },
  }),
);
