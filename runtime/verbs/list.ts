// `register_tool` with no arguments, and `pi-recipes list`: the current tool names, then the
// registry's errors (a recipe that failed to load, a root that cannot be read), so that a broken
// file is never silently missing from the list.
import { success, type CommandResult } from "../../core/result.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import { diagnosticSeverity, diagnosticTags } from "../../core/views/diagnostics.js";

export function listTools(discovery: Discovery): CommandResult {
  const names = discovery.tools.map((t) => t.name);
  const text = names.length === 0 ? "No registered tools." : ["Registered tools:", ...names.map((n) => `- ${n}`)].join("\n");
  const tagOf = diagnosticTags(discovery);
  const errors = discovery.diagnostics.filter((d) => diagnosticSeverity(d, tagOf(d)) === "error");
  const problems = errors.length === 0 ? "" : ["", "", "Problems (details: inspect target=recipes view=doctor):", ...errors.map((d) => `- ${d}`)].join("\n");
  return success(text + problems, { tool: "register_tool", tools: names, ...(errors.length === 0 ? {} : { problems: errors }) });
}
