// Loaded only by vitest.mutate.config.ts (`npm run mutate`): Stryker runs the covering properties
// once per mutant, so it runs each property with fewer generated cases than `npm test` does. A
// property with an explicit case count caps it with `numRuns` (props/support/runs.ts).
// fast-check itself, not @fast-check/vitest: the global settings live in fast-check (the vitest
// binding reads them from there), and importing the binding from a setup file costs about 1.5 s
// per test file, which Stryker pays again for every mutant.
import fc from "fast-check";

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: Number(process.env.PI_RECIPES_PROP_RUNS ?? "25") });
