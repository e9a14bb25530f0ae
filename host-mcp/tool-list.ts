// What tools/list answers: one MCP tool per active recipe, plus register_tool (create, update,
// delete, promote), inspect (read-only views) and message (run control: the `next:` hint of an
// async result names it), described once for every host in runtime/verb-tools.ts. Those names
// are reserved, so no recipe can take them.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { toolPolicy } from "../runtime/call-sandbox.js";
import type { SandboxMode } from "../core/sandbox/policy.js";
import { INSPECT as INSPECT_VERB, MESSAGE as MESSAGE_VERB, REGISTER_TOOL as REGISTER_VERB, type VerbTool } from "../runtime/verb-tools.js";

export const REGISTER_TOOL = REGISTER_VERB.name;
export const INSPECT = INSPECT_VERB.name;

const verbTool = (verb: VerbTool): Tool => ({
  name: verb.name,
  description: verb.description,
  inputSchema: verb.parameters as Tool["inputSchema"],
  annotations: verb.readOnly
    ? { title: verb.title, readOnlyHint: true, openWorldHint: false }
    : { title: verb.title, destructiveHint: true, idempotentHint: false, openWorldHint: false },
});

export const MESSAGE = MESSAGE_VERB.name;

export const BUILTIN_TOOLS: readonly Tool[] = [verbTool(REGISTER_VERB), verbTool(INSPECT_VERB), verbTool(MESSAGE_VERB)];

/** One MCP tool per active recipe: the core's schema, unchanged. A tool whose sandbox cuts the
 * network off (its own `sandbox`, or the operator's PI_RECIPES_SANDBOX, `mode`, on) cannot reach
 * the open world. */
export const recipeTool = (spec: ToolSpec, mode: SandboxMode): Tool => ({
  name: spec.name,
  description: spec.description,
  inputSchema: spec.schema as Tool["inputSchema"],
  annotations: { title: spec.name, openWorldHint: toolPolicy(spec, mode)?.network !== false },
});
