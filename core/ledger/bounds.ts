// The limits every ledger list obeys and the two ways lists grow.
export const LEDGER_LIMITS = {
  formerNames: 64,
  formerPaths: 64,
  events: 128,
  revisions: 128,
  reviewEpochs: 128,
  reviewedFingerprints: 128,
} as const;

/** Set-like append: an equal value moves to the end, then only the last `max` are kept. */
export function appendBounded<A>(list: readonly A[], value: A, max: number): A[] {
  const out = list.filter((x) => x !== value);
  out.push(value);
  return out.length > max ? out.slice(out.length - max) : out;
}

/** History append: duplicates stay, the oldest entries fall off past `max`. */
export function appendCapped<A>(list: readonly A[], value: A, max: number): A[] {
  const out = [...list, value];
  return out.length > max ? out.slice(out.length - max) : out;
}
