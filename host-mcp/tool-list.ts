// What tools/list answers: one MCP tool per active recipe, plus register_tool (create, update,
// delete, promote), inspect (read-only views) and message (run control). Those names are
// reserved, so no recipe can take them.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { REGISTER_TOOL_PARAMETERS } from "../core/register/schema.js";
import type { ToolSpec } from "../core/discovery/types.js";

export const REGISTER_TOOL = "register_tool";
export const INSPECT = "inspect";

const registerTool: Tool = {
  name: REGISTER_TOOL,
  description:
    "List, create, update or delete persistent recipe tools. No arguments: list the tools. " +
    "name + description + template: create a tool (update=true to overwrite; fields not given are kept). " +
    "template=null: delete it. name + draft: promote a captured draft. The tool list changes at once.",
  inputSchema: REGISTER_TOOL_PARAMETERS as Tool["inputSchema"],
  annotations: { title: "Register recipe tool", destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

const inspect: Tool = {
  name: INSPECT,
  description:
    "Read-only views of the recipe registry: target=recipes view=status|summary|doctor|imports|reviews [verbose=true], " +
    "target=tool:<name> for one tool's arguments and template, " +
    "or target=run:<id> view=status|tail [lines=N] for an async run.",
  inputSchema: {
    type: "object",
    properties: {
      target: { type: "string", description: "recipes, tool:<name>, or run:<id>" },
      view: { type: "string", description: "status (default), summary, doctor, imports or reviews; for a run: status or tail" },
      lines: { type: "integer", minimum: 1, description: "run tail: how many lines of stdout and stderr (default 40)" },
      verbose: { type: "boolean", description: "include per-recipe details" },
    },
    required: ["target"],
    additionalProperties: false,
  },
  annotations: { title: "Inspect recipe registry", readOnlyHint: true, openWorldHint: false },
};

export const MESSAGE = "message";

// Run control for MCP clients: the `next:` hint of an async result names this tool.
const message: Tool = {
  name: MESSAGE,
  description:
    "Send one typed message. to=run:<id> type=control.kill stops an async run (its whole process group); " +
    "to=tool:<name> invokes that recipe tool with body as its arguments. " +
    "Read a run's progress with inspect target=run:<id> view=status|tail.",
  inputSchema: {
    type: "object",
    properties: {
      to: { type: "string", description: "run:<id> or tool:<name>" },
      type: { type: "string", description: "control.kill for a run; any type for a tool" },
      body: { description: "for a tool: its arguments as a JSON object", type: "object", additionalProperties: true },
      verbose: { type: "boolean", description: "return full JSON instead of compact text" },
    },
    required: ["to", "type"],
    additionalProperties: false,
  },
  annotations: { title: "Message a run or tool", destructiveHint: true, openWorldHint: true },
};

export const BUILTIN_TOOLS: readonly Tool[] = [registerTool, inspect, message];

/** One MCP tool per active recipe: the core's schema, unchanged. */
export const recipeTool = (spec: ToolSpec): Tool => ({
  name: spec.name,
  description: spec.description,
  inputSchema: spec.parameters as Tool["inputSchema"],
  annotations: { title: spec.name, openWorldHint: true },
});
