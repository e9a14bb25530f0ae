// An abortable wait (the `delay` control).
import { setMaxListeners } from "node:events";

/** The longest single timer: setTimeout turns a longer one into 1 ms (with a warning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms` (in pieces a timer can hold, so a delay of weeks is a wait of weeks, not of one
 *  millisecond); false when the signal aborted the wait (or already had). */
export function delay(ms: number, signal?: AbortSignal, timer: Pick<typeof globalThis, "setTimeout" | "clearTimeout"> = globalThis): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    let left = ms;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      if (pending !== undefined) timer.clearTimeout(pending);
      resolve(false);
    };
    const next = (): void => {
      if (left <= 0) {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
        return;
      }
      const piece = Math.min(left, MAX_TIMER_MS);
      left -= piece;
      pending = timer.setTimeout(next, piece);
    };
    if (signal !== undefined) {
      // branches of a parallel node wait on one signal, past node's default of 10 listeners (a
      // warning on stderr otherwise); each goes when its wait ends
      setMaxListeners(0, signal);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    // the first piece at once, even for 0 (a wait of nothing still yields, as before)
    const piece = Math.min(left, MAX_TIMER_MS);
    left -= piece;
    pending = timer.setTimeout(next, piece);
  });
}
