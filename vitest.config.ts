import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "props/**/*.test.ts"],
    // limits that catch a hung test, not timing goals: many tests run real processes, and on a
    // loaded 2-core machine one CLI run can take seconds
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // two test files at a time, also on 2 cores (vitest's default there is one): most files spend
    // their time waiting on the processes they start (docs/testing.md has the measurements)
    maxWorkers: 2,
    // builds the CLI from the current sources once; tests spawn it with plain node (test/support/cli.ts)
    globalSetup: ["test/support/global-setup.ts"],
  },
});
