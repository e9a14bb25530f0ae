// Loaded only by vitest.mutate.config.ts (`npm run mutate`): Stryker runs the covering properties
// once per mutant, so it runs each property with fewer generated cases than `npm test` does. A
// property with an explicit case count caps it with `numRuns` (props/support/runs.ts).
import { fc } from "@fast-check/vitest";

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: Number(process.env.PI_RECIPES_PROP_RUNS ?? "25") });
