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
  // memfs asks the process's ids at every file node: asked once per test process instead; and
  // memfs's directory lookups without the access-time stamp and the resolve of a normal path
  setupFiles: ["test/support/memo-ids.ts", "test/support/memfs-lookups.ts"],
  // builds the CLI from the current sources once; tests spawn it with plain node (test/support/cli.ts)
  globalSetup: ["test/support/global-setup.ts"],
};

// Which files get a module graph of their own. vitest's default (`isolate`) gives every test file
// a fresh worker process that imports vitest, the file and the modules under test again: 0.5 s
// of CPU or more per file, most of what many files cost (docs/testing.md has the measurements).
// Files that leave nothing behind in their process share their worker's graph instead: they run
// the CLI, the MCP server or workers as processes of their own, or call the runtime on folders of
// their own, and set no environment variable, fake no timer or module, add no process listener.
// The files below do one of those, or are crash and concurrency properties (long, memory-heavy
// runs that ran past their limit after other files in the same worker), and keep their own graph.
// test/architecture/test-graphs.test.ts fails when a file that does one of those is not listed.
export const OWN_GRAPH: readonly string[] = [
  // they change process.env, fake timers or modules, or add process listeners
  "test/adapters/lock/file-lock.test.ts",
  "test/adapters/lock/owner.test.ts",
  "test/adapters/lock/queue.test.ts",
  "test/adapters/watch/Watcher.test.ts",
  "test/runtime/execute/controls.test.ts",
  "test/runtime/launch.test.ts",
  "test/runtime/review/reviewer.test.ts",
  "test/runtime/root-snapshot.test.ts",
  "test/runtime/verb-tools.test.ts",
  "test/package/pack.test.ts",
  "test/scripts/bundle.test.ts",
  // the Pi SDK in this process (it keeps state of its own), and the real pi command line
  ...["arguments-and-streaming", "boundaries", "drafts", "pi-cli", "sdk", "tool-review"].map((f) => `test/host-pi/${f}.test.ts`),
  // the properties on real folders and the crash and concurrency properties; only these
  // properties of pure functions share a graph
  ...["compile-cache", "crash-fs", "crash-harness-catches", "draft-review-crash", "draft-review-model", "exec-argv", "journal-engine", "ledger-crash", "ledger-processes-crash", "portfolio-crash", "register-crash", "run-store-crash", "settle-at-open", "view-cache"].map((f) => `props/${f}.test.ts`),
];

// (a project that extends the root adds its lists to the root's, so the lists live in the projects)
const { include, globalSetup, ...limits } = common;

export default defineConfig({
  test: {
    ...limits,
    projects: [
      { extends: true, test: { name: "shared", include, exclude: [...configDefaults.exclude, ...OWN_GRAPH], isolate: false, globalSetup } },
      { extends: true, test: { name: "isolated", include: [...OWN_GRAPH], globalSetup } },
    ],
  },
});
