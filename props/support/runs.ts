// A property's case count: `n` under `npm test`; under `npm run mutate` (which sets
// PI_RECIPES_PROP_RUNS through vitest.mutate.config.ts) at most that many, because Stryker runs the
// covering properties once per mutant.
export function numRuns(n: number): number {
  const cap = process.env.PI_RECIPES_PROP_RUNS;
  return cap === undefined ? n : Math.min(n, Number(cap));
}
