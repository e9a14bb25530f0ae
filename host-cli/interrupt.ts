// Ctrl-C (SIGINT), SIGTERM or SIGHUP while a command runs a recipe: the command a `call` or
// `spawn` started runs in a process group of its own (so that a timeout can end all of it), which
// the terminal's Ctrl-C does not reach; left alone, it would go on after the CLI exited. So the
// CLI turns the signal into an abort of the run (the runner ends the whole group, as it does for
// a timeout), reports what happened, and exits with the signal's conventional code (128 + its
// number) when the signal cut the run short; a run that had succeeded by then answers its success
// with 0. A second signal while that is under way ends the CLI at once.
import { constants } from "node:os";
import type { CommandResult } from "../core/result.js";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type Interrupt = (typeof SIGNALS)[number];

export interface Interruptible<T> {
  readonly value: T;
  /** the signal that interrupted the run, if one did */
  readonly signal?: Interrupt;
}

/** 128 + the signal's number: what a shell reports for a process a signal ended */
export const interruptedExitCode = (signal: Interrupt): number => 128 + constants.signals[signal];

/** A result the signal cut short says so: its reason is `interrupted` (not a command that failed
 *  on its own), the signal is named, and its text ends with what happened (the exit line above it
 *  is the killed command's, whose code the signal gave it). A result the signal came too late
 *  for (the call had succeeded) is left as it is, and `interruptedExitCode` is not its exit code:
 *  see `exitCodeAfter`. */
export function interruptedResult(r: CommandResult, signal: Interrupt): CommandResult {
  if (r.ok) return r;
  return {
    ...r,
    text: `${r.text}\n\nInterrupted by ${signal}: the command was ended (exit ${interruptedExitCode(signal)}).`,
    details: { ...r.details, failureReason: "interrupted", interrupted: signal },
  };
}

/** The exit code of a command a signal reached: the signal's when it cut the work short, the
 *  result's own (0) when the work had succeeded all the same, so the exit code and an `ok: true`
 *  never disagree. */
export const exitCodeAfter = (r: CommandResult, signal: Interrupt): number | undefined => (r.ok ? undefined : interruptedExitCode(signal));

/** What a verb answers when a signal reached its run: the result (`interruptedResult`) and, when
 *  the signal cut it short, the signal's exit code. */
export function afterSignal(r: CommandResult, signal: Interrupt): { readonly kind: "result"; readonly result: CommandResult; readonly code?: number } {
  const code = exitCodeAfter(r, signal);
  return { kind: "result", result: interruptedResult(r, signal), ...(code === undefined ? {} : { code }) };
}

export async function interruptible<T>(run: (abort: AbortSignal) => Promise<T>): Promise<Interruptible<T>> {
  const controller = new AbortController();
  let received: Interrupt | undefined;
  const on = (signal: Interrupt): void => {
    if (received !== undefined) process.exit(interruptedExitCode(signal));
    received = signal;
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  const handlers = SIGNALS.map((s) => [s, () => on(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  try {
    const value = await run(controller.signal);
    return received === undefined ? { value } : { value, signal: received };
  } finally {
    for (const [s, h] of handlers) process.off(s, h);
  }
}
