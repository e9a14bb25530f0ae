// `inspect target=... view=... [verbose=true]`: read-only views of the registry.
import { failure, success, type CommandResult } from "../../core/result.js";
import type { Discovery } from "../../core/discovery/types.js";
import { inspectRecipes } from "../../core/views/summary.js";
import { isError, optionalBool, optionalString, unknownKeys, type Params } from "./params.js";
import { whyNotATool } from "./schema.js";

const TARGETS = "target=recipes or target=tool:<name>";

function inspectTool(discovery: Discovery, name: string): CommandResult {
  const tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined) return failure(whyNotATool(discovery, name), { tool: name });
  const { surface } = tool;
  const optional = surface.names.filter((n) => !surface.required.includes(n));
  const lines = [
    `tool ${tool.name} format=${tool.format} async=${tool.async} path=${tool.path}`,
    `description: ${tool.description}`,
    `required: ${surface.required.join(", ") || "(none)"}`,
    `optional: ${optional.join(", ") || "(none)"}`,
  ];
  return success(lines.join("\n"), {
    tool: tool.name,
    path: tool.path,
    format: tool.format,
    async: tool.async,
    description: tool.description,
    args: surface.names,
    required: surface.required,
    parameters: tool.parameters,
    template: tool.config.template,
  });
}

export function inspect(discovery: Discovery, params: Params): CommandResult {
  const bad = unknownKeys("inspect", params, ["target", "view", "verbose"]);
  if (bad !== undefined) return bad;
  const target = optionalString(params, "target");
  const view = optionalString(params, "view");
  const verbose = optionalBool(params, "verbose");
  for (const v of [target, view, verbose]) if (isError(v)) return failure(v.error);
  if (target === undefined || isError(target)) return failure(`inspect requires ${TARGETS}`);
  if (target === "recipes" || target === "recipe-registry") {
    return inspectRecipes(discovery, {
      view: typeof view === "string" ? view : "status",
      verbose: verbose === true,
    });
  }
  if (target.startsWith("tool:") && target.length > 5) return inspectTool(discovery, target.slice(5));
  return failure(`Unknown inspect target: ${target}. Use ${TARGETS}.`);
}
