// Tool names a promoted draft may get: what MCP clients and model APIs accept. Draft file names
// come from run ids or from people, so they may hold spaces or dots; the suggested name keeps what
// is allowed and turns the rest into `_`.
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const isToolName = (name: string): boolean => TOOL_NAME.test(name);

/** A valid tool name derived from a draft's stem: `my draft.v2` → `my_draft_v2`. */
export function toolNameFor(stem: string): string {
  const cleaned = stem.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "").slice(0, 64);
  return cleaned === "" ? "draft" : cleaned;
}
