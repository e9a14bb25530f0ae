// Calling a recipe tool in the foreground: values are assembled and normalized by type, the
// template graph runs (docs/templates.md, "How a template runs"), the result is reported, and an
// argument error is answered with the tool's usage hint.
import { capturesRootOf, pruneCaptures } from "../execute/captures.js";
import * as E from "fp-ts/lib/Either.js";
import { nodeProcessRunner } from "../../adapters/process/node-runner.js";
import { formatUsageHint } from "../../core/args/usage-hint.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import type { Json } from "../../core/model.js";
import { failure, type CommandResult } from "../../core/result.js";
import type { ContextCache } from "../../core/template/context.js";
import { assemble, prepareTool } from "./call-values.js";
import { executeTemplate } from "../execute/execute.js";
import { defaultAsyncStarter } from "../runs/start.js";
import { reportNow } from "../execute/execution-report.js";
import type { ExecuteOptions } from "../execute/run-state.js";
import { whyNotATool } from "./schema.js";
import { confinedRunner, type PreparedSandbox } from "../../adapters/process/bwrap.js";
import { callSandbox, toolPolicy } from "../call-sandbox.js";
import type { AsyncLaunch, CallContext, LaunchCheck } from "./call-context.js";


export type { AsyncLaunch, CallContext, LaunchCheck } from "./call-context.js";

// without a ledger every launch may run: nothing to ask, nothing refused
const MAY_RUN: LaunchCheck = Object.freeze({ ok: true });
/** The launch check of a context that accounts nothing (no usage ledger: a recipe outside any
 *  recipe root, a test of execution alone). Every launch may run. */
export const unaccountedLaunch = (): Promise<LaunchCheck> => Promise.resolve(MAY_RUN);

export { assembleValues, type Assembled } from "./call-values.js";

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

const usageHint = (tool: ToolSpec, message: string): CommandResult =>
  failure(formatUsageHint(tool.name, tool.surface, message, { async: tool.async }), {
    tool: tool.name,
    path: tool.path,
    error: message,
    usageHint: true,
  });

/** Runs one tool (found by discovery or built for a spawned recipe) with the call's params. */
export function runTool(tool: ToolSpec, params: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  return runChecked(tool, params, ctx, ctx.launch);
}

/** runTool with the launch check given apart from the context, so that a host's launch does not
 * copy its context on every call. */
export async function runChecked(
  tool: ToolSpec,
  params: Readonly<Record<string, unknown>>,
  ctx: Omit<CallContext, "launch">,
  check: CallContext["launch"],
): Promise<CommandResult> {
  const values = assemble(tool, params, ctx.injected, tool.async);
  if (E.isLeft(values)) return usageHint(tool, values.left);
  const pruning = pruneCaptures(ctx.fs, capturesRootOf(ctx.paths.tmpRoot));
  if (pruning !== undefined) await pruning;
  // a sandboxed recipe runs confined or not at all (docs/sandbox.md)
  let sandbox: PreparedSandbox | undefined;
  if (toolPolicy(tool) !== undefined) {
    const confinement = callSandbox(tool, values.right.runtime, ctx.paths, ctx.env ?? process.env);
    if (confinement.kind === "refused") {
      return confinement.argument ? usageHint(tool, confinement.message) : failure(confinement.message, { tool: tool.name, path: tool.path, sandbox: "refused" });
    }
    if (confinement.kind === "confined") sandbox = confinement.sandbox;
  }
  const launch = await check(tool);
  // a refused launch is a stale tool in every host: reload and retry
  if (!launch.ok) return failure(launch.rejected, { tool: tool.name, path: tool.path, stale: true });
  // one async frame for the whole call: run, then report (which needs no promise unless it saves)
  let result: CommandResult;
  if (tool.async) {
    const start = ctx.startAsync ?? defaultAsyncStarter(ctx);
    const launched: AsyncLaunch = { tool, params, values: values.right.plain ?? {}, runtime: values.right.runtime, ...(sandbox === undefined ? {} : { sandbox }) };
    result = await start(launched);
  } else {
    const template: Json = tool.config.template;
    const confined = sandbox === undefined ? ctx : { ...ctx, runner: confinedRunner(ctx.runner ?? nodeProcessRunner, sandbox) };
    const prepared = prepareTool(tool);
    const execution = await executeTemplate(prepared.program, values.right.runtime, executeOptions(confined, prepared.contextCache));
    if (execution.kind === "error" && execution.argument) result = usageHint(tool, execution.message);
    else {
      const reported = reportNow(execution, { tool: tool.name, template: tool.path, graph: template, tmpRoot: ctx.paths.tmpRoot, fs: ctx.fs });
      result = reported instanceof Promise ? await reported : reported;
    }
  }
  return launch.diagnostic === undefined ? result : { ...result, details: { ...result.details, usage_diagnostic: launch.diagnostic } };
}

/** `call <tool> [key=value ...]`: the tool by name; an unknown, invalid or disabled one is an
 * error naming its file. */
export function callTool(discovery: Discovery, name: string, params: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  const tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined) {
    const entry = discovery.active.get(name);
    return Promise.resolve(failure(whyNotATool(discovery, name), { tool: name, ...(entry === undefined ? {} : { path: entry.path }) }));
  }
  return runTool(tool, params, ctx);
}
