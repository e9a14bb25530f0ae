// Calling a recipe tool: the values are assembled and normalized by type (a value the first
// command would miss is refused then: no process starts, so nothing is counted), the sandbox resolved,
// the launch accounted (the call context's launch check), and with that proof the call is handed
// to runtime/launch.ts, which runs it (docs/templates.md, "How a template runs") or starts its
// async run. An argument error is answered with the tool's usage hint.
import { capturesRootOf, pruneCaptures } from "../execute/captures.js";
import * as E from "fp-ts/lib/Either.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { failure, type CommandResult } from "../../core/result.js";
import { assemble, prepareTool } from "./call-values.js";
import { unknownToolFailure, whyNotATool } from "./schema.js";
import type { NamedTool } from "../registry.js";
import type { PreparedSandbox } from "../../adapters/process/bwrap.js";
import { callSandbox, callSandboxMode, toolPolicy } from "../call-sandbox.js";
import { launchTool, rejectedLaunch, usageHint } from "../launch.js";
import { missingBeforeStart } from "../execute/preflight.js";
import type { CallContext } from "./call-context.js";

export type { AsyncLaunch, CallContext, LaunchCheck } from "./call-context.js";
export { unaccountedLaunch } from "../accounting.js";
export { executeOptions } from "../launch.js";
export { assembleValues, type Assembled } from "./call-values.js";

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
  accounting: CallContext["launch"],
): Promise<CommandResult> {
  const values = assemble(tool, params, ctx.injected, tool.async);
  if (E.isLeft(values)) return usageHint(tool, values.left);
  const prepared = prepareTool(tool);
  // a value missing for a command the run certainly reaches is refused here, before any command
  // starts and before the launch is counted
  const missing = missingBeforeStart(prepared.program, values.right.runtime, tool.surface.required, ctx.paths, prepared.contextCache);
  if (missing !== undefined) return usageHint(tool, missing);
  const pruning = pruneCaptures(ctx.fs, capturesRootOf(ctx.paths.tmpRoot));
  if (pruning !== undefined) await pruning;
  // a sandboxed recipe runs confined or not at all (docs/sandbox.md)
  let sandbox: PreparedSandbox | undefined;
  const policy = toolPolicy(tool, callSandboxMode(ctx));
  if (policy !== undefined) {
    const confinement = callSandbox(tool, policy, values.right.runtime, ctx.paths, ctx.env ?? process.env, ctx);
    if (confinement.kind === "refused") {
      return confinement.argument ? usageHint(tool, confinement.message) : failure(confinement.message, { tool: tool.name, path: tool.path, sandbox: "refused" });
    }
    if (confinement.kind === "confined") sandbox = confinement.sandbox;
  }
  const check = await accounting(tool);
  if (E.isLeft(check)) return rejectedLaunch(tool, check.left);
  return launchTool(
    check.right,
    { tool, params, plain: values.right.plain, runtime: values.right.runtime, program: prepared.program, contextCache: prepared.contextCache, sandbox },
    ctx,
  );
}

/** `call <tool>` with what the session found for the name (runtime/registry.ts toolNamed). */
export function callNamed(found: NamedTool, name: string, params: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  if ("tool" in found) return runTool(found.tool, params, ctx);
  if ("unknown" in found) return Promise.resolve(unknownToolFailure(name, found.unknown));
  return callTool(found.discovery, name, params, ctx);
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
