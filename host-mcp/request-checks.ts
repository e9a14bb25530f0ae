// What the server answers a request it cannot take, before any of its own code runs:
// - a request other than `initialize` or `ping` before `initialize`: the client has not said which
//   protocol it speaks, so nothing is listed or run (JSON-RPC "Invalid Request", -32600);
// - a request whose params are not of the method's shape: "Invalid params" (-32602), each fault
//   named by its path. For most methods the SDK checks the shape itself and answers "Internal
//   error" (-32603) with the validator's raw report; so those handlers are registered with a
//   schema that checks only the method, and the full shape is checked here. (`tools/call` is
//   registered the same way, and its shape checked by the SDK's server itself, with -32602 and
//   the validator's report as the message.)
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

/** An error the SDK answers with its `code` and its message as they are (an McpError's message
 *  would repeat the code in words: "MCP error -32602: ..."). */
class Refused extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** the part of a zod schema this uses: the SDK's request schemas are zod objects */
interface RequestSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** A schema the SDK registers a handler under: the method's literal, any params. Typed as the
 *  full schema for the SDK's overloads; the handler gets the request unchecked and passes it to
 *  checkedRequest. */
export function methodOnly<S extends { pick(keys: { method: true }): { loose(): unknown } }>(schema: S): S {
  return schema.pick({ method: true }).loose() as S;
}

/** The request checked against the method's full schema, or an "Invalid params" error naming
 *  every fault. */
export function checkedRequest<T>(schema: RequestSchema<T>, request: unknown, method: string): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const faults = parsed.error.issues.map((i) => `${i.path.length === 0 ? "request" : i.path.map(String).join(".")}: ${i.message}`);
  throw new Refused(ErrorCode.InvalidParams, `Invalid params for ${method}: ${faults.join("; ")}`);
}

/** An "Invalid Request" error unless the client has sent `initialize` (`clientVersion` is what it
 *  said it is, undefined before). */
export function requireInitialized(clientVersion: unknown, method: string): void {
  if (clientVersion === undefined) throw new Refused(ErrorCode.InvalidRequest, `Not initialized: send initialize before ${method}. Nothing was run.`);
}
