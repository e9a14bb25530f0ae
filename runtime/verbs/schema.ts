// `pi-recipes schema <tool>`: the JSON parameter schema the agent sees for one tool.
import { failure, success, type CommandResult } from "../../core/result.js";
import type { Discovery, UnlistedFolder } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { didYouMean } from "../../core/suggest.js";
import type { NamedTool } from "../registry.js";

/** the most tool names an unknown-tool message lists; past that it counts them and names the
 *  nearest one */
const NAMES_SHOWN = 20;

/** The answer for a name no recipe has; `names` are the tools there are. A recipe root that could
 *  not be listed (`unlisted`) may hold that very tool: the answer names the root and its error
 *  rather than saying there is no such tool. */
export function unknownToolText(name: string, names: readonly string[], unlisted: readonly UnlistedFolder[] = []): string {
  if (unlisted.length > 0) {
    const head = unlisted.length === 1
      ? `Recipe root ${unlisted[0]!.dir} could not be read (${unlisted[0]!.error}), so the tools it holds are unknown.`
      : `Recipe roots could not be read: ${unlisted.map((u) => `${u.dir} (${u.error})`).join(", ")}; the tools they hold are unknown.`;
    return `Unknown tool: ${name}. ${head}${names.length === 0 ? "" : ` Tools found in the other roots: ${names.length <= NAMES_SHOWN ? names.join(", ") : `${names.length} (list shows them all)`}.`}`;
  }
  if (names.length === 0) return `Unknown tool: ${name}. No tools are registered.`;
  // a name of one or two letters is one edit from any other: no guess for it
  const near = name.length < 3 ? "" : didYouMean(name, names);
  if (names.length <= NAMES_SHOWN) return `Unknown tool: ${name}. Registered tools: ${names.join(", ")}${near === "" ? "" : `.${near}`}`;
  // a registry of thousands of tools: the whole list would bury the message
  return `Unknown tool: ${name}. ${names.length} tools are registered (list shows them all).${near}`;
}

/** The failed result for a name no recipe has; `names` are the tools there are. */
export const unknownToolFailure = (name: string, names: readonly string[]): CommandResult => failure(unknownToolText(name, names), { tool: name });

/** The path and the loader's reason, once each: the reason is written `Invalid recipe: <path>:
 * <why>` (core/discovery/problem.ts), so only what follows that prefix is added to the path. */
function invalidReason(path: string, diagnostic: string | undefined): string {
  if (diagnostic === undefined) return `${path} (see inspect target=recipes view=doctor)`;
  const prefix = `Invalid recipe: ${path}`;
  if (!diagnostic.startsWith(prefix)) return `${path}: ${diagnostic}`;
  const rest = diagnostic.slice(prefix.length);
  return rest === "" ? `${path} (see inspect target=recipes view=doctor)` : `${path}${rest}`;
}

/** Why an id has no tool, in words a user can act on. */
export function whyNotATool(discovery: Discovery, name: string): string {
  const entry = discovery.active.get(name);
  if (entry === undefined) return unknownToolText(name, discovery.tools.map((t) => t.name), discovery.unlisted.filter((u) => u.kind === "root"));
  if (entry.invalid) return `Recipe ${name} is invalid: ${invalidReason(entry.path, entry.diagnostics[0])}`;
  if (entry.disabled) return `Recipe ${name} is disabled (${entry.path})`;
  if (!entry.toolSource) return `Recipe ${name} is a component, not a tool (${entry.path})`;
  return `Recipe ${name} is not exposed as a tool: ${entry.diagnostics.join("; ") || "reserved name"}`;
}

/** What `schema <name>` answers for what the session found for `name` (runtime/registry.ts
 *  toolNamed). */
export function schemaOfNamed(found: NamedTool, name: string): CommandResult {
  if ("tool" in found) return schemaOfTool(found.tool);
  if ("unknown" in found) return unknownToolFailure(name, found.unknown);
  return toolSchema(found.discovery, name);
}

/** The schema of the tool `name` of `discovery`, or why there is none. */
export function toolSchema(discovery: Discovery, name: string): CommandResult {
  const tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined) return failure(whyNotATool(discovery, name), { tool: name });
  return schemaOfTool(tool);
}

/** The schema of `tool`, with where it comes from. */
export function schemaOfTool(tool: ToolSpec): CommandResult {
  const parameters = tool.schema;
  return success(JSON.stringify(parameters, null, 2), {
    tool: tool.name,
    path: tool.path,
    format: tool.format,
    description: tool.description,
    parameters,
  });
}
