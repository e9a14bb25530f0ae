// Arrays a registry keeps for as long as it lives (a surface's names, its required names, a
// recipe's risk labels), copied at their exact size before they are kept (why: docs/performance.md).
const EMPTY: readonly never[] = Object.freeze([]);

/** `items` at its exact size (a shared frozen array when empty). */
export const compact = <T>(items: readonly T[]): readonly T[] => (items.length === 0 ? EMPTY : items.slice());
