// A CLI verb: how it reads its command line and what it runs. Verbs are thin: they translate the
// command line onto runtime functions, which every host shares.
import type { CommandResult } from "../../core/result.js";
import type { HostPorts, RuntimeSession } from "../../runtime/session.js";
import type { ParsedCommandLine } from "../argv.js";

/** What the command gives its verb: its ports and place, built once by host-cli/main.ts, and the
 *  runtime session over them, which every verb that reads the registry opens (and closes). */
export interface CliHost {
  readonly ports: HostPorts;
  openSession(): Promise<RuntimeSession>;
}

export type VerbOutcome =
  /** `code`: the exit code when not the result's own (a run a signal interrupted) */
  | { readonly kind: "result"; readonly result: CommandResult; readonly code?: number }
  /** a malformed command line; `unknownVerb` when the verb itself is not one (its help is the general one) */
  | { readonly kind: "usage"; readonly error: string; readonly unknownVerb?: true }
  /** the verb wrote its own output (e.g. a stream) and ends with this exit code */
  | { readonly kind: "exit"; readonly code: number };

/** A verb's code; its usage lines and examples are in help-texts.ts, which only help loads. */
export interface CliVerb {
  readonly name: string;
  run(cmd: ParsedCommandLine, host: CliHost): VerbOutcome | Promise<VerbOutcome>;
}

export const result = (r: CommandResult): VerbOutcome => ({ kind: "result", result: r });
export const usageError = (error: string): VerbOutcome => ({ kind: "usage", error });

/** Positional arguments a verb does not take are a malformed command line. */
export function expectPositional(cmd: ParsedCommandLine, count: number, what: string): VerbOutcome | undefined {
  if (cmd.positional.length === count) return undefined;
  return count === 0
    ? usageError(`${cmd.verb} takes key=value arguments only, got "${cmd.positional[0] ?? ""}"`)
    : usageError(`${cmd.verb} takes ${what}`);
}
