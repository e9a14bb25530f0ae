// Mutation testing (`npm run mutate`, not part of `npm test`): Stryker changes the code where a
// silent bug costs most, one small change (mutant) at a time, and runs the tests that import the
// changed file. A mutant no test notices is a gap: kill it with a test of user-visible behaviour,
// or list it in docs/equivalent-mutants.md when no behaviour can tell it apart.
// Some files only (comma-separated globs): `npx stryker run --mutate "core/args/**/*.ts,host-mcp/gate.ts"`;
// run them together rather than one by one (the checker groups mutants of different files).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  vitest: {
    configFile: "vitest.mutate.config.ts",
    // only the test files that import the mutated file run for it
    related: true,
  },
  // The checker drops mutants that do not compile (they would count as killed otherwise). It
  // type-checks the sources only (tsconfig.stryker.json leaves out the tests), and checks the
  // mutants of different files together.
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.stryker.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: [
    // argument types and normalization
    "core/args/**/*.ts",
    // template splitting and substitution
    "core/template/split.ts",
    "core/template/substitute.ts",
    // discovery and shadowing
    "core/discovery/**/*.ts",
    // register planning and update merge
    "core/register/plan.ts",
    "core/register/build.ts",
    // the ledger and its fold
    "core/ledger/**/*.ts",
    "runtime/ledger/fold.ts",
    // locks and atomic writes
    "adapters/lock/**/*.ts",
    "adapters/fs/FileSystem.ts",
    // the MCP stale-call gate
    "host-mcp/gate.ts",
    // the journal engine
    "core/journal/**/*.ts",
    "runtime/journal/**/*.ts",
  ],
  ignorePatterns: ["dist", "test/pi-cli/node_modules", "test/pi-cli/.cache", ".bench-tmp"],
  concurrency: 2,
  incremental: true,
  incrementalFile: ".stryker-tmp/incremental.json",
  reporters: ["clear-text", "progress", "html"],
  htmlReporter: { fileName: ".stryker-tmp/mutation-report.html" },
  thresholds: { high: 90, low: 85, break: null },
  // a mutant's tests may take 1.5x their unmutated time plus this; longer counts as a timeout
  // (an endless loop). Kept short: each timed-out mutant costs this much.
  timeoutMS: 10_000,
  // the first run (every related test once, to learn which test covers which mutant) takes
  // several minutes on a busy 2-core machine; Stryker's default gives up after 5
  dryRunTimeoutMinutes: 40,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
