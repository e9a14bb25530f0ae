// Running a whole template graph: the root node with no stdin, and the evidence of the run.
import type { ProgramNode } from "../../core/tool/program.js";
import { createContextCache, rootContext } from "../../core/template/context.js";
import type { Values } from "../../core/template/substitute.js";
import { execNode } from "./run-node.js";
import { commandsFor, hasCallRepeat } from "../../core/tool/program-count.js";
import { COMMAND_LIMIT, tooManyCommandsText } from "../../core/template/repeat.js";
import type { CommandTally, ExecuteOptions, NodeResult, Run, Trace } from "./run-state.js";
import { TemplateError } from "./run-state.js";

export const DEFAULT_MAX_PARALLEL_BRANCHES = 64;

export type Execution =
  | { readonly kind: "done"; readonly result: NodeResult; readonly trace: Trace }
  /** the template could not run (a value, a control, a structure): nothing after it ran */
  | {
    readonly kind: "error";
    readonly message: string;
    readonly step?: string;
    /** the call's values could fix it: a placeholder they leave unresolved */
    readonly argument: boolean;
    readonly trace: Trace;
  };

const positiveInteger = (text: string | undefined): number | undefined => {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
};

/** The fanout limit: the option, else $PI_RECIPES_MAX_PARALLEL_BRANCHES or the older name
 * $PI_ACTORS_MAX_PARALLEL_BRANCHES (still set by existing setups) when a positive integer, else 64. */
export function fanoutLimit(options: ExecuteOptions, env: NodeJS.ProcessEnv = process.env): number {
  return (
    options.maxParallelBranches ??
    positiveInteger(env["PI_RECIPES_MAX_PARALLEL_BRANCHES"]) ??
    positiveInteger(env["PI_ACTORS_MAX_PARALLEL_BRANCHES"]) ??
    DEFAULT_MAX_PARALLEL_BRANCHES
  );
}

// The fanout limit is read (from the environment, which is slow to ask) only by a run that fans
// out, and then once.
class RunState implements Run {
  private limit: number | undefined;
  readonly continued: Trace["continued"];
  readonly commands: CommandTally = { started: 0 };
  constructor(readonly options: ExecuteOptions, readonly runtime: Values, readonly trace: Trace) {
    this.continued = trace.continued;
  }
  get fanoutLimit(): number {
    return (this.limit ??= fanoutLimit(this.options));
  }
}

export const emptyTrace = (): Trace => ({ branches: [], nonCritical: [], continued: [], softQuorum: undefined, labelled: new Map(), failedLabelled: new Map() });

/** Executes `program` (a template's, core/tool/program.ts) with `runtime` values (the call's,
 * already normalized). Never rejects for a template problem: that comes back as an `error`
 * execution naming the step. */
export async function executeTemplate(program: ProgramNode, runtime: Values, options: ExecuteOptions): Promise<Execution> {
  const trace = emptyTrace();
  const run = new RunState(options, runtime, trace);
  const root = rootContext(options.contextCache ?? createContextCache());
  try {
    // refused before anything runs when the call's values make it stand for too many commands
    // (a value the count cannot read fails it as it would fail the run)
    if (hasCallRepeat(program) && commandsFor(program, runtime, root, COMMAND_LIMIT) > COMMAND_LIMIT) throw new TemplateError(tooManyCommandsText(COMMAND_LIMIT));
    const result = await execNode(program, root, undefined, run, true);
    return { kind: "done", result, trace };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    const argument = e.kind === "missing-value";
    return e.step === undefined ? { kind: "error", message: e.message, argument, trace } : { kind: "error", message: e.message, step: e.step, argument, trace };
  }
}
