// The Clock and Ids ports: time and fresh names are effects, so code that needs them takes them
// as arguments and a test can pin them (a fixed clock, a counter for ids) instead of racing the
// real ones.
import { randomUUID } from "node:crypto";

export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export interface Ids {
  /** a fresh id, unique across processes and calls: [A-Za-z0-9-]+ */
  next(): string;
}

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: Ids = { next: () => randomUUID() };

/** A clock that stands still until moved: for tests. */
export function fixedClock(startMs: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let t = startMs;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

/** `<prefix>1`, `<prefix>2`, ...: for tests. */
export function counterIds(prefix = "id"): Ids {
  let n = 0;
  return { next: () => `${prefix}${++n}` };
}
