// Mutation testing (`npm run mutate`, not part of `npm test`; scripts/mutation/run-mutation.ts runs it):
// Stryker changes the code where a silent bug costs most, one small change (mutant) at a time,
// and runs the tests that cover the changed code. A mutant no test notices is a gap: kill it with
// a test of user-visible behaviour, or list it in docs/equivalent-mutants.md when no behaviour can
// tell it apart. `npm run mutate -- ledger gate` runs some areas only; `npx stryker run` runs the
// whole scope in one Stryker run.

/** The scope, area by area (`npm run mutate -- <area> ...` runs some of them; the results of the
 *  others are kept). */
export const areas = [
  { name: "args", what: "argument types and normalization", files: ["core/args/**/*.ts"] },
  { name: "template", what: "template splitting and substitution", files: ["core/template/split.ts", "core/template/substitute.ts"] },
  { name: "discovery", what: "discovery and shadowing", files: ["core/discovery/**/*.ts", "core/text-order.ts"] },
  { name: "register", what: "register planning and update merge", files: ["core/register/plan-register.ts", "core/register/build.ts"] },
  { name: "ledger", what: "the ledger and its fold", files: ["core/ledger/**/*.ts", "runtime/ledger/fold-logs.ts"] },
  { name: "locks", what: "locks and atomic writes", files: ["adapters/lock/**/*.ts", "adapters/fs/FileSystem.ts"] },
  { name: "gate", what: "the MCP stale-call gate", files: ["host-mcp/gate.ts"] },
  { name: "journal", what: "the journal engine", files: ["core/journal/**/*.ts", "runtime/journal/**/*.ts"] },
  // the automatic reviews (decisions, projections, plans and their execution): long areas, run a
  // few files at a time (`npm run mutate -- core/review/decide.ts core/review/batch.ts`)
  { name: "review", what: "the automatic reviews' core", files: ["core/review/**/*.ts"] },
  { name: "reviewrt", what: "the automatic reviews' runtime", files: ["runtime/review/**/*.ts"] },
];

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
  mutate: areas.flatMap((a) => a.files),
  ignorePatterns: ["scripts/mutation/incremental.json", "dist", "test/pi-cli/node_modules", "test/pi-cli/.cache", ".bench-tmp"],
  concurrency: 2,
  incremental: true,
  // Kept in the repository (Stryker's advice for CI): a run over the whole scope takes hours on
  // 2 cores, and with the last results at hand a run re-tests only the mutants whose code or
  // covering tests changed. `npm run mutate -- --fresh` starts over.
  incrementalFile: "scripts/mutation/incremental.json",
  // live-survivors (scripts/mutation/live-reporter.mjs) lists each undetected mutant in
  // .stryker-tmp/survivors.log as soon as it is known
  appendPlugins: ["./scripts/mutation/live-reporter.mjs"],
  reporters: ["clear-text", "progress", "html", "live-survivors"],
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
