// Small timing helpers: medians of repeated runs, printed as ratios against a floor.
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The sample at quantile `q` (0..1) of `xs`: the nearest rank, never interpolated. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

export function timeRuns(runs: number, fn: () => void): number {
  const samples: number[] = [];
  fn(); // warm-up
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

export const fmt = (ms: number): string => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
