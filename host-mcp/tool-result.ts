// From the registry's CommandResult to an MCP tool result: the agent-facing text as the one text
// block, the same structured details as `structuredContent`, and registry errors as `isError`
// results (not JSON-RPC errors), so the model sees them and can correct its call.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CommandResult } from "../core/result.js";

export function toToolResult(result: CommandResult): CallToolResult {
  // Tool texts open with a newline for an agent transcript; an MCP client renders its own frame.
  const text = result.text.startsWith("\n") ? result.text.slice(1) : result.text;
  return {
    content: [{ type: "text", text }],
    structuredContent: { ok: result.ok, ...result.details },
    ...(result.ok ? {} : { isError: true }),
  };
}

export const errorResult = (text: string, details: Readonly<Record<string, unknown>> = {}): CallToolResult =>
  toToolResult({ ok: false, text, details });
