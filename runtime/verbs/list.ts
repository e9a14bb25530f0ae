// `register_tool` with no arguments, and `pi-recipes list`: the current tool names.
import { success, type CommandResult } from "../../core/result.js";
import type { Discovery } from "../../core/discovery/types.js";

export function listTools(discovery: Discovery): CommandResult {
  const names = discovery.tools.map((t) => t.name);
  const text = names.length === 0 ? "No registered tools." : ["Registered tools:", ...names.map((n) => `- ${n}`)].join("\n");
  return success(text, { tool: "register_tool", tools: names });
}
