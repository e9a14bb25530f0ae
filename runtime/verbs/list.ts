// `register_tool` with no arguments, and `pi-recipes list`: the current tool names, then the
// registry's errors (core/views/list-view.ts says which). A recipe root that could not be listed
// makes the answer a failure, with the tools of the roots that could be read still listed: every
// tool that root holds is missing, so the list is not the registry's tool set.
import { failure, success, type CommandResult } from "../../core/result.js";
import type { ToolList } from "../../core/views/list-view.js";

/** The head line of a list some recipe roots were missing from. */
const unlistedText = (roots: readonly string[]): string =>
  roots.length === 1
    ? `Recipe root ${roots[0]!} could not be read: the tools it holds are not listed.`
    : `Recipe roots ${roots.join(", ")} could not be read: the tools they hold are not listed.`;

export function listTools(list: ToolList): CommandResult {
  const { names, problems: errors, unlisted = [] } = list;
  const none = unlisted.length === 0 ? "No registered tools." : "No registered tools in the roots that could be read.";
  const text = names.length === 0 ? none : ["Registered tools:", ...names.map((n) => `- ${n}`)].join("\n");
  const problems = errors.length === 0 ? "" : ["", "", "Problems (details: inspect target=recipes view=doctor):", ...errors.map((d) => `- ${d}`)].join("\n");
  const details = { tool: "register_tool", tools: [...names], ...(errors.length === 0 ? {} : { problems: [...errors] }) };
  if (unlisted.length === 0) return success(text + problems, details);
  return failure(`${unlistedText(unlisted)}\n${text}${problems}`, { ...details, unlisted_roots: [...unlisted] });
}
