import { configDefaults, defineConfig } from "vitest/config";

/** The settings every test run shares (vitest.mutate.config.ts builds on these too). */
export const common = {
  include: ["test/**/*.test.ts", "props/**/*.test.ts"],
  // limits that catch a hung test, not timing goals: many tests run real processes, and on a
  // loaded 2-core machine one CLI run can take seconds
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // three test files at a time, also on 2 cores (vitest's default there is one): most files spend
  // their time waiting on the processes they start, and with two the cores were still idle a
  // third of the time (docs/testing.md has the measurements)
  maxWorkers: 3,
  // memfs asks the process's ids at every file node: asked once per test process instead
  setupFiles: ["test/support/memo-ids.ts"],
  // builds the CLI from the current sources once; tests spawn it with plain node (test/support/cli.ts)
  globalSetup: ["test/support/global-setup.ts"],
};

// The tests of the pure core (test/core: no files, no processes, no timers, no environment), and
// the other files listed below that touch none of those either, share their worker's module graph: a test file there then costs its tests, not a fresh import
// of vitest and of the modules under test (docs/testing.md has the measurements). Every other
// file gets a fresh graph of its own, vitest's default: they start processes, fake timers or
// change the environment, which must not reach the next file.
const SHARED_GRAPH = [
  "test/core/**/*.test.ts",
  // the properties of pure functions (no processes, timers or environment; the crash properties
  // and those on real folders keep a graph of their own)
  ...["args", "discovery", "fields", "imports", "incremental-discovery", "recipe", "review-value-free", "split", "survey", "template"].map((f) => `props/${f}.test.ts`),
  // and the other files of pure functions or in-memory volumes
  "test/host-cli/argv.test.ts",
  "test/host-cli/print-json.test.ts",
  "test/host-mcp/gate.test.ts",
  "test/host-mcp/http-body.test.ts",
  "test/support/views-discovery.test.ts",
  "test/adapters/lock/Lock.test.ts",
  "test/runtime/review/boundary.test.ts",
];

// (a project that extends the root adds its lists to the root's, so the lists live in the projects)
const { include, globalSetup, ...limits } = common;

export default defineConfig({
  test: {
    ...limits,
    projects: [
      { extends: true, test: { name: "shared", include: SHARED_GRAPH, isolate: false } },
      { extends: true, test: { name: "isolated", include, exclude: [...configDefaults.exclude, ...SHARED_GRAPH], globalSetup } },
    ],
  },
});
