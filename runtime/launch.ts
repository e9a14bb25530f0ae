// The one entrance to running a program: a recipe tool's call in the foreground, its async run
// (started here, run by the worker, runtime/runs/run-worker.ts) and an inline spawn all come
// through `launch`, and `launch` takes the proof that the launch was accounted
// (runtime/accounting.ts) as its first argument. Accounting comes first: the host's gate chose
// the tool, runtime/verbs/call.ts validated the values and asked the call context's launch check
// (the usage ledger: fence, source check, count), and only with its proof does a program run.
//
// What the source check compares: the tool carries `sourceSha256`, the digest of the very bytes
// discovery compiled it from. The ledger reads the file once more, under the fence, and refuses
// the launch (reload and retry) when the file no longer holds those bytes. So a file edited
// between discovery and launch is never run or counted under the wrong source, and no host reads
// the recipe file a second time just to learn what the tool was loaded from.
import { nodeProcessRunner } from "../adapters/process/node-runner.js";
import { confinedRunner, type PreparedSandbox } from "../adapters/process/bwrap.js";
import { formatUsageHint } from "../core/args/usage-hint.js";
import { failure, type CommandResult } from "../core/result.js";
import type { ContextCache } from "../core/template/context.js";
import type { Values } from "../core/template/substitute.js";
import type { ProgramNode } from "../core/tool/program.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import type { Accounted } from "./accounting.js";
import { capturesRootOf } from "./execute/captures.js";
import { executeTemplate, type Execution } from "./execute/execute.js";
import { reportNow } from "./execute/execution-report.js";
import type { ExecuteOptions } from "./execute/run-state.js";
import { defaultAsyncStarter } from "./runs/start.js";
import type { CallContext } from "./verbs/call-context.js";

/** Runs `program` with `runtime` values: the one place a program starts. `accounted` is the
 *  proof that the launch went through accounting; without it this cannot be called. */
export function launch(_accounted: Accounted, program: ProgramNode, runtime: Values, options: ExecuteOptions): Promise<Execution> {
  return executeTemplate(program, runtime, options);
}

/** The execution options of a call (built on every call: assignments, not spreads). */
export function executeOptions(ctx: Omit<CallContext, "launch">, contextCache?: ContextCache): ExecuteOptions {
  const options: { -readonly [K in keyof ExecuteOptions]: ExecuteOptions[K] } = {
    runner: ctx.runner ?? nodeProcessRunner,
    fs: ctx.fs,
    place: ctx.paths,
    capturesRoot: capturesRootOf(ctx.paths.tmpRoot),
  };
  if (ctx.env !== undefined) options.env = ctx.env;
  if (ctx.signal !== undefined) options.signal = ctx.signal;
  if (ctx.maxParallelBranches !== undefined) options.maxParallelBranches = ctx.maxParallelBranches;
  if (ctx.killGraceMs !== undefined) options.killGraceMs = ctx.killGraceMs;
  if (contextCache !== undefined) options.contextCache = contextCache;
  return options;
}

/** A call whose values could not be used: the message with the tool's usage hint. */
export const usageHint = (tool: ToolSpec, message: string): CommandResult =>
  failure(formatUsageHint(tool.name, tool.surface, message, { async: tool.async }), {
    tool: tool.name,
    path: tool.path,
    error: message,
    usageHint: true,
  });

/** A result given after the launch was counted (in the run, or an async run's start). */
const afterLaunch = (r: CommandResult): CommandResult => ({ ...r, details: { ...r.details, launched: true } });

/** A recipe tool's call, its values valid and assembled, ready to launch. */
export interface ToolLaunch {
  readonly tool: ToolSpec;
  /** the call's parameters as given */
  readonly params: Readonly<Record<string, unknown>>;
  /** the merged, normalized values (absent: not needed, a foreground call) */
  readonly plain: Readonly<Record<string, unknown>> | undefined;
  /** the same values with their origin kept */
  readonly runtime: Values;
  readonly program: ProgramNode;
  readonly contextCache?: ContextCache;
  /** the sandbox the call must run in (the recipe's policy, resolved for this call) */
  readonly sandbox: PreparedSandbox | undefined;
}

/** `ctx` with its runner wrapped in the sandbox, when there is one: every step then runs confined. */
export const confinedContext = <C extends Omit<CallContext, "launch">>(ctx: C, sandbox: PreparedSandbox | undefined): C =>
  sandbox === undefined ? ctx : { ...ctx, runner: confinedRunner(ctx.runner ?? nodeProcessRunner, sandbox) };

/** Launches an accounted recipe tool: an `async: true` one starts a detached run (which records
 *  how it was accounted), any other runs here and is reported. */
export async function launchTool(accounted: Accounted, call: ToolLaunch, ctx: Omit<CallContext, "launch">): Promise<CommandResult> {
  const { tool, sandbox } = call;
  let result: CommandResult;
  if (tool.async) {
    const start = ctx.startAsync ?? defaultAsyncStarter(ctx);
    result = await start({ tool, params: call.params, values: call.plain ?? {}, runtime: call.runtime, accounted, ...(sandbox === undefined ? {} : { sandbox }) });
    if (result.details["usageHint"] === true) result = afterLaunch(result);
  } else {
    const execution = await launch(accounted, call.program, call.runtime, executeOptions(confinedContext(ctx, sandbox), call.contextCache));
    // a value missing for a step the run reached: said as a usage error, but the launch was
    // counted and steps before it may have run (a host must not run the call again on its own)
    if (execution.kind === "error" && execution.argument) result = afterLaunch(usageHint(tool, execution.message));
    else {
      const reported = reportNow(execution, { tool: tool.name, template: tool.path, graph: tool.config.template, tmpRoot: ctx.paths.tmpRoot, fs: ctx.fs });
      result = reported instanceof Promise ? await reported : reported;
    }
  }
  return accounted.diagnostic === undefined ? result : { ...result, details: { ...result.details, usage_diagnostic: accounted.diagnostic } };
}

/** A refused launch (source changed, fence timeout): nothing ran; a failure naming the file. A
 *  stale tool in every host: reload and retry. */
export const rejectedLaunch = (tool: ToolSpec, rejected: string): CommandResult => failure(rejected, { tool: tool.name, path: tool.path, stale: true });
