// `inspect target=... view=... [verbose=true]`: read-only views of the registry.
import { failure, success, type CommandResult } from "../../core/result.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import { inspectRecipes } from "../../core/views/summary.js";
import { sandboxMode, toolPolicy } from "../call-sandbox.js";
import { describePolicy } from "../../core/sandbox/policy.js";
import { isError, optionalBool, optionalString, unknownKeys, type Params } from "./verb-params.js";
import { unknownToolFailure, whyNotATool } from "./schema.js";
import type { NamedTool } from "../registry.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { isRuntimeActor } from "../../core/views/tool-status.js";
import { inspectRuntime, type RuntimeContext } from "./status.js";
import { agentPlace } from "../agent-paths.js";
import { inspectRun } from "../runs/control.js";
import { runFacts } from "../runs/facts.js";
import { runsRootOf } from "../runs/store.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { INSPECT_TARGETS } from "../view-key.js";

/** the keys `inspect` takes */
const KEYS = ["target", "view", "verbose", "lines"];

function inspectTool(discovery: Discovery, name: string, env: Readonly<Record<string, string | undefined>>): CommandResult {
  const tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined) return failure(whyNotATool(discovery, name), { tool: name });
  return inspectToolSpec(tool, env);
}

/** The name of the recipe tool `inspect` with `params` shows (`target=tool:<name>`, valid
 *  params), which needs that tool only; undefined for any other inspect (a runtime actor's view
 *  included), and for params `inspect` refuses. */
export function recipeToolTarget(params: Params): string | undefined {
  if (unknownKeys("inspect", params, KEYS) !== undefined) return undefined;
  const target = optionalString(params, "target");
  for (const v of [target, optionalString(params, "view"), optionalBool(params, "verbose")]) if (isError(v)) return undefined;
  if (typeof target !== "string" || !target.startsWith("tool:") || target.length <= 5) return undefined;
  // a view or lines is refused by inspect itself
  if (params["view"] !== undefined || params["lines"] !== undefined) return undefined;
  const name = target.slice(5);
  return isRuntimeActor(name) ? undefined : name;
}

/** What `inspect target=tool:<name>` shows for what a session found for the name
 *  (runtime/registry.ts toolNamed), when that is the tool or an unknown name; undefined when the
 *  discovery it ran has to answer (`inspect`). */
export function inspectFound(found: NamedTool, name: string, env: Readonly<Record<string, string | undefined>>): CommandResult | undefined {
  if ("tool" in found) return inspectToolSpec(found.tool, env);
  if ("unknown" in found) return unknownToolFailure(name, found.unknown);
  return undefined;
}

function inspectToolSpec(tool: ToolSpec, env: Readonly<Record<string, string | undefined>>): CommandResult {
  const { surface } = tool;
  const optional = surface.names.filter((n) => !surface.required.includes(n));
  const lines = [
    `tool ${tool.name} format=${tool.format} async=${tool.async} path=${tool.path}`,
    `description: ${tool.description}`,
    `required: ${surface.required.join(", ") || "(none)"}`,
    `optional: ${optional.join(", ") || "(none)"}`,
  ];
  // only a confined tool says so: the policy its commands run under now
  const policy = toolPolicy(tool, sandboxMode(env));
  if (policy !== undefined) lines.push(`sandbox: ${describePolicy(policy)}`);
  return success(lines.join("\n"), {
    tool: tool.name,
    path: tool.path,
    format: tool.format,
    async: tool.async,
    description: tool.description,
    args: surface.names,
    required: surface.required,
    parameters: tool.schema,
    template: tool.config.template,
    ...(policy === undefined ? {} : { sandbox: { network: policy.network, write: policy.write, read_deny: policy.readDeny } }),
  });
}

/** The reading views; `runtime.fs` is the host's file system (the run store is read through it). */
export async function inspect(discovery: Discovery, params: Params, runtime: RuntimeContext & { readonly fs: FileSystem }): Promise<CommandResult> {
  const bad = unknownKeys("inspect", params, KEYS);
  if (bad !== undefined) return bad;
  const target = optionalString(params, "target");
  const view = optionalString(params, "view");
  const verbose = optionalBool(params, "verbose");
  for (const v of [target, view, verbose]) if (isError(v)) return failure(v.error);
  if (target === undefined || isError(target)) return failure(`inspect requires ${INSPECT_TARGETS}`);
  // `lines` is the tail of a run's output: given for any other target it would be ignored unseen
  if (params["lines"] !== undefined && !target.startsWith("run:"))
    return failure(`lines applies to target=run:<id> only (the tail of a run's output); inspect ${target} takes no lines.`, { lines: params["lines"] });
  if (target === "recipes" || target === "recipe-registry") {
    return inspectRecipes(discovery, {
      view: typeof view === "string" ? view : "status",
      verbose: verbose === true,
      ...(runtime.usage === undefined ? {} : { usage: runtime.usage }),
      ...(runtime.reviews === undefined ? {} : { reviews: runtime.reviews }),
      sandboxMode: sandboxMode(runtime.env ?? process.env),
    });
  }
  const runsRoot = (): string => runsRootOf(agentPlace(runtime).paths.tmpRoot);
  if (target.startsWith("run:") && target.length > 4) return inspectRun(runtime.fs, runsRoot(), target.slice(4), typeof view === "string" ? view : undefined, params["lines"]);
  if (target.startsWith("tool:") && isRuntimeActor(target.slice(5))) {
    const runs = runtime.runs === undefined && view === "triage" ? await runFacts(runtime.fs, runsRoot()) : undefined;
    const withRuns: RuntimeContext = { ...(runs === undefined ? {} : { runs: () => runs }), ...runtime };
    return inspectRuntime(discovery, { view: typeof view === "string" ? view : undefined, verbose: verbose === true }, withRuns);
  }
  if (target.startsWith("tool:") && target.length > 5) {
    // a recipe tool has one view: a view asked for would be ignored unseen
    if (view !== undefined) return failure(`inspect ${target} has one view and takes no view=${view}; views belong to target=recipes, run:<id> and tool:pi-actors.`, { view });
    return inspectTool(discovery, target.slice(5), runtime.env ?? process.env);
  }
  return failure(`Unknown inspect target: ${JSON.stringify(target)}. Use ${INSPECT_TARGETS}.`);
}
