// The translation of our verbs' results onto Pi tool results, and the one place a plain
// JSON-Schema tool definition is handed to Pi (whose types expect TypeBox schemas; its validator
// accepts plain JSON Schema, so the cast there is safe).
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { JsonObject } from "../core/model.js";
import type { CommandResult } from "../core/result.js";

export interface PiToolResult {
  readonly content: { type: "text"; text: string }[];
  readonly details: Readonly<Record<string, unknown>>;
}

export interface PiTool {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly parameters: JsonObject;
  readonly promptSnippet?: string;
  readonly promptGuidelines?: string[];
  execute(
    toolCallId: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
    onUpdate: unknown,
    ctx: ExtensionContext,
  ): Promise<PiToolResult>;
}

export function publishTool(pi: ExtensionAPI, tool: PiTool): void {
  // Cast to `never`, which fits any parameter: a cast to ToolDefinition made the type checker
  // compare the whole TypeBox type tree of ToolDefinition for variance, 4.5 s of every type
  // check (`tsc --generateTrace`), for an argument whose type is declared just above anyway.
  pi.registerTool(tool as never);
}

/** The agent sees exactly the text the CLI prints (a leading line break is not kept). */
export const agentText = (text: string): string => text.replace(/^\n+/, "");

/** A failed verb becomes a thrown error: Pi marks the result `isError` only for a throw. */
export class ToolCallRejected extends Error {
  override readonly name = "ToolCallRejected";
  readonly details: Readonly<Record<string, unknown>>;
  constructor(text: string, details: Readonly<Record<string, unknown>> = {}) {
    super(text.replace(/^\n+/, ""));
    this.details = details;
  }
}

export function toPiResult(result: CommandResult): PiToolResult {
  if (!result.ok) throw new ToolCallRejected(result.text, result.details);
  return { content: [{ type: "text", text: agentText(result.text) }], details: result.details };
}
