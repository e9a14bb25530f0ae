// `register_tool` with no arguments, and `pi-recipes list`: the current tool names, then the
// registry's errors (core/views/list-view.ts says which).
import { success, type CommandResult } from "../../core/result.js";
import type { ToolList } from "../../core/views/list-view.js";

export function listTools(list: ToolList): CommandResult {
  const { names, problems: errors } = list;
  const text = names.length === 0 ? "No registered tools." : ["Registered tools:", ...names.map((n) => `- ${n}`)].join("\n");
  const problems = errors.length === 0 ? "" : ["", "", "Problems (details: inspect target=recipes view=doctor):", ...errors.map((d) => `- ${d}`)].join("\n");
  return success(text + problems, { tool: "register_tool", tools: [...names], ...(errors.length === 0 ? {} : { problems: [...errors] }) });
}
