// The `delay` control's wait: a delay longer than one timer can hold is waited in pieces (Node turns
// a longer timer into 1 ms), and an abort ends it wherever it is.
import { describe, expect, it } from "vitest";
import { delay } from "../../../runtime/execute/delay.js";

const MAX = 2 ** 31 - 1;

/** timers that run when `tick` is called, recording what each was asked to wait */
function manualTimers() {
  const asked: number[] = [];
  let due: (() => void) | undefined;
  return {
    asked,
    timers: {
      setTimeout: ((fn: () => void, ms: number) => {
        asked.push(ms);
        due = fn;
        return asked.length as unknown as ReturnType<typeof setTimeout>;
      }) as unknown as typeof setTimeout,
      clearTimeout: (() => {
        due = undefined;
      }) as unknown as typeof clearTimeout,
    },
    tick(): void {
      const fn = due;
      due = undefined;
      fn?.();
    },
  };
}

describe("delay", () => {
  it("waits a delay beyond one timer's reach in pieces, all of it", async () => {
    const m = manualTimers();
    let done: boolean | undefined;
    const waited = delay(3 * MAX + 5, undefined, m.timers).then((r) => (done = r));
    for (let i = 0; i < 4; i++) {
      await Promise.resolve();
      expect(done).toBeUndefined();
      m.tick();
    }
    await waited;
    expect(done).toBe(true);
    expect(m.asked).toEqual([MAX, MAX, MAX, 5]);
  });

  it("an abort ends a long wait between its pieces", async () => {
    const m = manualTimers();
    const abort = new AbortController();
    const waited = delay(1e308, abort.signal, m.timers);
    m.tick();
    m.tick();
    abort.abort();
    expect(await waited).toBe(false);
    expect(m.asked.every((ms) => ms === MAX)).toBe(true);
  });

  it("a short wait is one timer, as before", async () => {
    const m = manualTimers();
    const waited = delay(20, undefined, m.timers);
    m.tick();
    expect(await waited).toBe(true);
    expect(m.asked).toEqual([20]);
  });
});
