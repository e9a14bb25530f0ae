// `pi-recipes schema <tool>`: the JSON parameter schema the agent sees for one tool.
import { failure, success, type CommandResult } from "../../core/result.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";

/** Why an id has no tool, in words a user can act on. */
export function whyNotATool(discovery: Discovery, name: string): string {
  const entry = discovery.active.get(name);
  if (entry === undefined) {
    const names = discovery.tools.map((t) => t.name);
    return `Unknown tool: ${name}. ${names.length === 0 ? "No tools are registered." : `Registered tools: ${names.join(", ")}`}`;
  }
  if (entry.invalid) return `Recipe ${name} is invalid (${entry.path}): ${entry.diagnostics[0] ?? "see inspect target=recipes view=doctor"}`;
  if (entry.disabled) return `Recipe ${name} is disabled (${entry.path})`;
  if (!entry.toolSource) return `Recipe ${name} is a component, not a tool (${entry.path})`;
  return `Recipe ${name} is not exposed as a tool: ${entry.diagnostics.join("; ") || "reserved name"}`;
}

export function toolSchema(discovery: Discovery, name: string): CommandResult {
  const tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined) return failure(whyNotATool(discovery, name), { tool: name });
  const parameters = tool.schema;
  return success(JSON.stringify(parameters, null, 2), {
    tool: tool.name,
    path: tool.path,
    format: tool.format,
    description: tool.description,
    parameters,
  });
}
