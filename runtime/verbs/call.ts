// Calling a recipe tool in the foreground: values are assembled and normalized by type, the
// template graph runs (docs/templates.md, "How a template runs"), the result is reported, and an
// argument error is answered with the tool's usage hint.
import { setOwn } from "../../core/recipe/own.js";
import { capturesRootOf, pruneCaptures } from "../execute/captures.js";
import * as E from "fp-ts/lib/Either.js";
import type { ProcessRunner } from "../../adapters/process/ProcessRunner.js";
import { nodeProcessRunner } from "../../adapters/process/node-runner.js";
import { normalizeArgs } from "../../core/args/normalize.js";
import { checkCallParams, readableNames } from "../../core/args/call-check.js";
import { formatUsageHint } from "../../core/args/usage-hint.js";
import type { Discovery, ToolSpec } from "../../core/discovery/types.js";
import type { Json } from "../../core/model.js";
import { failure, type CommandResult } from "../../core/result.js";
import { compileLeaf } from "../../core/template/compile.js";
import { leaves } from "../../core/template/graph.js";
import type { Values } from "../../core/template/substitute.js";
import { authored } from "../../core/template/substitute.js";
import { executeTemplate } from "../execute/execute.js";
import { defaultAsyncStarter } from "../runs/start.js";
import { reportExecution } from "../execute/report.js";
import type { ExecuteOptions } from "../execute/types.js";
import { whyNotATool } from "./schema.js";


export interface AsyncLaunch {
  readonly tool: ToolSpec;
  /** the call's parameters as given */
  readonly params: Readonly<Record<string, unknown>>;
  /** the merged, normalized values a run would start with */
  readonly values: Readonly<Record<string, unknown>>;
  /** the same values with their origin kept (recipe-authored ones may hold placeholders) */
  readonly runtime: Values;
}

export interface CallContext {
  /** where commands run and where truncated outputs are saved */
  readonly paths: { readonly cwd: string; readonly home: string; readonly tmpRoot: string };
  readonly runner?: ProcessRunner;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** values the session injects over the call's (`current_model`, `current_thinking`) */
  readonly injected?: Readonly<Record<string, unknown>>;
  /** starts an `async: true` recipe; absent: a detached run under `<tmpRoot>/runs` (runtime/runs) */
  readonly startAsync?: (launch: AsyncLaunch) => Promise<CommandResult>;
  readonly maxParallelBranches?: number;
  readonly killGraceMs?: number;
  /** launch accounting: called once the arguments are valid, before anything runs; a rejection
   * (the source changed since the tool was loaded) stops the call */
  readonly launch?: (tool: ToolSpec) => Promise<LaunchCheck>;
}

export type LaunchCheck = { readonly ok: true; readonly diagnostic?: string } | { readonly ok: false; readonly rejected: string };

/** What a tool revision needs on every call, computed once: the recipe-authored value layer. */
interface PreparedTool {
  /** recipe `values` < top-level `defaults`, plain */
  readonly authoredValues: Readonly<Record<string, unknown>>;
  /** every name a call may give */
  readonly known: ReadonlySet<string>;
}

// Keyed by the ToolSpec object, which discovery makes once per file revision.
const prepared = new WeakMap<ToolSpec, PreparedTool>();

function prepare(tool: ToolSpec): PreparedTool {
  let hit = prepared.get(tool);
  if (hit !== undefined) return hit;
  const authoredValues: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tool.config.values ?? {})) setOwn(authoredValues, k, v);
  for (const [k, v] of Object.entries(tool.surface.defaults)) setOwn(authoredValues, k, v);
  // parse every leaf now, so that calls only walk compiled words
  const texts = leaves(tool.config.template).map((leaf) => leaf.text);
  for (const text of texts) compileLeaf(text);
  const known = readableNames(texts, tool.surface, Object.keys(authoredValues));
  hit = { authoredValues, known };
  prepared.set(tool, hit);
  return hit;
}

export type Assembled = { readonly plain: Record<string, unknown>; readonly runtime: Values };

/** Recipe values < tool defaults < call params < injected values, normalized by type.
 * Recipe-authored values keep their origin (they may hold placeholders); call values are
 * verbatim. Left: the argument error. */
export function assembleValues(
  tool: ToolSpec,
  params: Readonly<Record<string, unknown>>,
  injected: Readonly<Record<string, unknown>> = {},
): E.Either<string, Assembled> {
  const { authoredValues, known } = prepare(tool);
  const refused = checkCallParams(params, tool.surface, known, { async: tool.async });
  if (refused !== undefined) return E.left(refused);
  const merged: Record<string, unknown> = { ...authoredValues };
  for (const [k, v] of Object.entries(params)) setOwn(merged, k, v);
  for (const [k, v] of Object.entries(injected)) setOwn(merged, k, v);
  const normalized = normalizeArgs(tool.surface, merged);
  if (E.isLeft(normalized)) return normalized;
  const runtime: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(normalized.right)) {
    const fromCaller = Object.hasOwn(params, k) || Object.hasOwn(injected, k);
    setOwn(runtime, k, fromCaller ? v : authored(v));
  }
  return E.right({ plain: normalized.right, runtime });
}

export const executeOptions = (ctx: CallContext): ExecuteOptions => ({
  runner: ctx.runner ?? nodeProcessRunner,
  place: { cwd: ctx.paths.cwd, home: ctx.paths.home },
  ...(ctx.env === undefined ? {} : { env: ctx.env }),
  ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  ...(ctx.maxParallelBranches === undefined ? {} : { maxParallelBranches: ctx.maxParallelBranches }),
  ...(ctx.killGraceMs === undefined ? {} : { killGraceMs: ctx.killGraceMs }),
  capturesRoot: capturesRootOf(ctx.paths.tmpRoot),
});

const usageHint = (tool: ToolSpec, message: string): CommandResult =>
  failure(formatUsageHint(tool.name, tool.surface, message, { async: tool.async }), {
    tool: tool.name,
    path: tool.path,
    error: message,
    usageHint: true,
  });

/** Runs one tool (found by discovery or built for a spawned recipe) with the call's params. */
export async function runTool(tool: ToolSpec, params: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  const values = assembleValues(tool, params, ctx.injected);
  if (E.isLeft(values)) return usageHint(tool, values.left);
  pruneCaptures(capturesRootOf(ctx.paths.tmpRoot));
  const launch = ctx.launch === undefined ? undefined : await ctx.launch(tool);
  // a refused launch is a stale tool in every host: reload and retry
  if (launch !== undefined && !launch.ok) return failure(launch.rejected, { tool: tool.name, path: tool.path, stale: true });
  const result = await runLaunched(tool, params, values.right, ctx);
  return launch?.diagnostic === undefined ? result : { ...result, details: { ...result.details, usage_diagnostic: launch.diagnostic } };
}

async function runLaunched(tool: ToolSpec, params: Readonly<Record<string, unknown>>, values: Assembled, ctx: CallContext): Promise<CommandResult> {
  if (tool.async) {
    const start = ctx.startAsync ?? defaultAsyncStarter(ctx);
    return start({ tool, params, values: values.plain, runtime: values.runtime });
  }
  const template: Json = tool.config.template;
  const execution = await executeTemplate(template, values.runtime, executeOptions(ctx));
  if (execution.kind === "error" && execution.argument) return usageHint(tool, execution.message);
  return reportExecution(execution, { tool: tool.name, template: tool.path, graph: template, tmpRoot: ctx.paths.tmpRoot });
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
