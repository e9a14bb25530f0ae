// Launch accounting as a proof: `Accounted` is what a launch must hold before anything runs, and
// only this module makes one. Its brand is a symbol no other module can name, so code that tries
// to run a program without first asking the ledger (or saying, by name, why nothing is counted)
// does not compile: runtime/launch.ts, the one entrance to running a program, takes it as its
// first argument.
//
// Three ways to hold one:
// - `accountLaunch`: the usage ledger counted the launch, or left it uncounted because the recipe
//   lies outside the recipe root; a file changed since it was loaded is refused instead (reload
//   and retry), and nothing runs;
// - `unaccounted(why)`: a launch with nothing to count (no usage ledger: an inline template, a
//   test of execution alone); the reason is kept with the proof;
// - `accountedEarlier(record)`: the async worker, whose launch the starting process accounted and
//   wrote down in the run's record (run.json `accounting`); a record without it is refused.
import * as E from "fp-ts/lib/Either.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { carriedUsage } from "../core/ledger/carried-usage.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { recordLaunch, type LedgerContext } from "./ledger/index.js";

declare const proof: unique symbol;

/** The proof that a launch went through accounting. */
export interface Accounted {
  readonly [proof]: true;
  /** how the launch was accounted, in words: what an async run writes into its record */
  readonly record: string;
  /** the launch may run, but its count could not be written (an I/O failure): for the caller */
  readonly diagnostic?: string;
}

const accounted = (record: string, diagnostic?: string): Accounted =>
  (diagnostic === undefined ? { record } : { record, diagnostic }) as unknown as Accounted;

/** What a call context asks before it launches: the proof, or why the launch must not run. */
export type LaunchCheck = E.Either<string, Accounted>;

/** Counts one launch of `tool` in `ledger`, or says why it must not run (the file changed since
 *  the tool was loaded, or the recipe root stayed fenced too long). */
export async function accountLaunch(ledger: LedgerContext, tool: ToolSpec): Promise<LaunchCheck> {
  const outcome = await recordLaunch(ledger, {
    path: tool.path,
    name: tool.name,
    fingerprint: executableFingerprint(tool.config),
    // a tool built without a digest cannot vouch for its source: under the recipe root the check
    // then fails like a changed file (reload and retry); elsewhere nothing is accounted anyway
    sourceSha256: tool.sourceSha256 ?? "",
    // a recipe still holding pi-actors' own launch count starts its lineage from it
    ...carriedOf(tool),
  });
  if (!outcome.ok) return E.left(outcome.rejected);
  const record = outcome.recorded ? `counted in the usage ledger of ${ledger.paths.recipeRoot}` : `not counted: ${tool.path} is outside the recipe root or its count failed`;
  return E.right(accounted(record, outcome.diagnostic));
}

function carriedOf(tool: ToolSpec): { carried?: NonNullable<ReturnType<typeof carriedUsage>> } {
  const carried = carriedUsage(tool.config.usage);
  return carried === undefined ? {} : { carried };
}

/** A launch with nothing to count; `why` says so (kept as the proof's record). */
export const unaccounted = (why: string): Accounted => accounted(`not counted: ${why}`);

// without a ledger every launch may run: nothing to ask, nothing refused
const MAY_RUN: LaunchCheck = E.right(unaccounted("no usage ledger"));
/** The launch check of a context that accounts nothing (no usage ledger: a recipe outside any
 *  recipe root, a test of execution alone). Every launch may run. */
export const unaccountedLaunch = (): Promise<LaunchCheck> => Promise.resolve(MAY_RUN);

/** What to do when the ledger refuses a launch (a live registry re-reads the tool's file, so the
 *  next listing shows what is there now). */
export type OnRejected = (tool: ToolSpec) => void;

/** The launch check of a session: accounted in `ledger`; `onRejected` hears of every refusal. */
export const ledgerLaunchCheck =
  (ledger: LedgerContext, onRejected?: OnRejected) =>
  async (tool: ToolSpec): Promise<LaunchCheck> => {
    const check = await accountLaunch(ledger, tool);
    if (E.isLeft(check)) onRejected?.(tool);
    return check;
  };

/** The proof of a launch accounted by the process that started an async run, read back from the
 *  run's record; anything but a non-empty text there means the run did not come through the
 *  launch path. */
export function accountedEarlier(record: unknown): E.Either<string, Accounted> {
  return typeof record === "string" && record.trim() !== "" ? E.right(accounted(record)) : E.left("holds no accounting record (the run was not started through the launch path)");
}
