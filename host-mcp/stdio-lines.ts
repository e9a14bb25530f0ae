// What the stdio transport reads: stdin, one message (one line) at a time, each at most `max`
// bytes. The MCP SDK's transport buffers a line whole and, past 10 MiB, closes the connection:
// the server stopped, and every call in flight with it. Here a longer line is dropped as it
// arrives (never held whole), the transport never sees it, and `refused` is told its size and
// how it began, so the server can answer that request with an error and go on serving.
import { Transform, type TransformCallback } from "node:stream";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** How many bytes of an over-long line are kept to find its request id. */
const HEAD_BYTES = 4096;

/** whether a line is a JSON array (its first byte past white space is `[`): a JSON-RPC batch */
function isArrayLine(line: Buffer): boolean {
  for (const b of line) {
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) continue;
    return b === 0x5b;
  }
  return false;
}

/** `batch`, when given, takes every line that is a JSON array instead of the transport: MCP sends
 *  no batches (the SDK's transport cannot read one, and would only report a parse error).
 *  `faulty`, when given, is asked about every other whole line, and the line reaches the
 *  transport only when it answers false (it has not taken the line on itself). */
export function boundedLines(max: number, refused: (head: string, size: number) => void, batch?: (line: string) => void, faulty?: (line: Buffer) => boolean): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let dropping = false;
  let dropped = 0;
  let head = "";
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start);
        const stop = newline === -1 ? chunk.length : newline + 1;
        const part = chunk.subarray(start, stop);
        const lineBytes = newline === -1 ? part.length : part.length - 1;
        if (dropping) dropped += lineBytes;
        else if (heldBytes + lineBytes > max) {
          dropping = true;
          head = Buffer.concat([...held, chunk.subarray(start, start + lineBytes)]).subarray(0, HEAD_BYTES).toString("utf8");
          dropped = heldBytes + lineBytes;
          held = [];
          heldBytes = 0;
        } else {
          held.push(part);
          heldBytes += lineBytes;
        }
        if (newline !== -1) {
          if (dropping) {
            refused(head, dropped);
            dropping = false;
            dropped = 0;
            head = "";
          } else {
            const line = held.length === 1 ? held[0]! : Buffer.concat(held);
            if (batch !== undefined && isArrayLine(line)) batch(line.toString("utf8"));
            else if (faulty === undefined || !faulty(line)) this.push(line);
            held = [];
            heldBytes = 0;
          }
        }
        start = stop;
      }
      done();
    },
    flush(done: TransformCallback): void {
      // a last line without its newline: the transport would wait for the rest, as it does now
      if (!dropping && held.length > 0) this.push(Buffer.concat(held));
      done();
    },
  });
}

// The id of a request whose line was dropped, when it can be told for certain: `id` is the first
// member, or the second after `"jsonrpc":"2.0"`, as clients write it. A later `"id"` could be an
// argument's name inside `params`, and answering that id could fail another request.
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*,/;

export function leadingRequestId(head: string): string | number | undefined {
  const m = LEADING_ID.exec(head);
  if (m === null || m[1] === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(m[1]);
    return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The ids of the requests in a batch line (a JSON array); undefined when the line does not parse
 *  as one. Notifications (no id) need no answer. */
export function batchRequestIds(line: string): (string | number)[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const ids: (string | number)[] = [];
  for (const m of parsed as unknown[]) {
    if (typeof m !== "object" || m === null) continue;
    // a member shaped like a response is never answered (see LineFault)
    if (isResponseShaped(m)) continue;
    const id = (m as { id?: unknown }).id;
    if (isExactId(id)) ids.push(id);
  }
  return ids;
}

/** What is wrong with one line the transport would read, and whom to answer:
 *  - `parse`: the line is not JSON; answered with a parse error and a null id;
 *  - `invalid`: JSON but no JSON-RPC message; answered with an invalid-request error, under the
 *    message's id when it has one that is a string or a number, else a null id;
 *  - `notification`: an invalid notification (a `method` and no `id`): nobody waits on it, and
 *    nothing is answered;
 *  - `response`: shaped like a response (a `result` or an `error`, no `method`): a response is
 *    never answered, valid or not, since an answer under its id would stand for the answer to
 *    the client's own request of that id. */
export type LineFault =
  | { readonly kind: "parse"; readonly reason: string }
  | { readonly kind: "invalid"; readonly id: string | number | null; readonly reason: string }
  | { readonly kind: "notification"; readonly reason: string }
  | { readonly kind: "response"; readonly reason: string };

/** The fault of a line (its newline and a CR before it left out, as the transport reads it), or
 *  undefined when the transport can take it: a JSON-RPC message, or a blank line (no message,
 *  which the transport skips). Valid means what the SDK's own schema accepts, so nothing it would
 *  take is refused here. `valid` is handed such a message, parsed. */
export function lineFault(line: string, valid?: (message: Readonly<Record<string, unknown>>) => void): LineFault | undefined {
  if (line.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    return { kind: "parse", reason: e instanceof Error ? e.message : String(e) };
  }
  if (JSONRPCMessageSchema.safeParse(parsed).success) {
    valid?.(parsed as Record<string, unknown>);
    return undefined;
  }
  const reason = whyInvalid(parsed);
  const m = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  if (m !== undefined && isResponseShaped(m)) return { kind: "response", reason };
  if (m !== undefined && !("id" in m) && typeof m["method"] === "string") return { kind: "notification", reason };
  const id = m?.["id"];
  return { kind: "invalid", id: typeof id === "string" || (typeof id === "number" && echoesExactly(id)) ? id : null, reason };
}

/** Whether a number read as an id is written back as the client wrote it: not a number JSON
 *  parsing turned into an infinity, nor an integer past 2^53 (rounded as it was read). */
const echoesExactly = (id: number): boolean => Number.isFinite(id) && (!Number.isInteger(id) || Number.isSafeInteger(id));

/** Whether a message is shaped like a response: a `result` or an `error`, and no `method`. */
const isResponseShaped = (m: object): boolean => !("method" in m) && ("result" in m || "error" in m);

/** Whether an id is one a request may carry and an answer echo: a string, or an integer JSON
 *  parsing held exactly. */
const isExactId = (id: unknown): id is string | number => typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));

/** What is wrong with an id, or undefined when it is a string or an integer held exactly. */
function whyBadId(id: unknown): string | undefined {
  if (isExactId(id)) return undefined;
  if (typeof id === "number" && !Number.isFinite(id)) return '"id" must be a string or an integer, got a number too large for JSON to hold (not finite)';
  if (typeof id === "number" && Number.isInteger(id)) {
    return `"id" must be a string or an integer JSON can hold exactly (at most ${Number.MAX_SAFE_INTEGER} in size), got one that large, read as ${JSON.stringify(id)}`;
  }
  return `"id" must be a string or an integer, got ${JSON.stringify(id)}`;
}

const MEMBERS: Record<string, readonly string[]> = {
  request: ["jsonrpc", "id", "method", "params"],
  notification: ["jsonrpc", "method", "params"],
  response: ["jsonrpc", "id", "result"],
  error: ["jsonrpc", "id", "error"],
};

const kindOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/** What makes a JSON value no JSON-RPC message, in words naming the member at fault. */
function whyInvalid(v: unknown): string {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `a message must be a JSON object, got ${kindOf(v)}`;
  const m = v as Record<string, unknown>;
  if (m["jsonrpc"] !== "2.0") return `"jsonrpc" must be "2.0", got ${"jsonrpc" in m ? JSON.stringify(m["jsonrpc"]) : "none"}`;
  const badId = "id" in m ? whyBadId(m["id"]) : undefined;
  if (badId !== undefined) return badId;
  const shape = "method" in m ? ("id" in m ? "request" : "notification") : "result" in m ? "response" : "error" in m ? "error" : undefined;
  if (shape === undefined) return 'a message needs a "method" (a request or a notification), or a "result" or an "error" (a response)';
  if (shape === "response" && !("id" in m)) return 'a response needs an "id"';
  if ("method" in m && typeof m["method"] !== "string") return `"method" must be a string, got ${kindOf(m["method"])}`;
  const extra = Object.keys(m).filter((k) => !MEMBERS[shape]!.includes(k));
  if (extra.length > 0) return `a ${shape === "error" ? "response" : shape} has no member ${extra.map((k) => JSON.stringify(k)).join(", ")}`;
  for (const k of ["params", "result", "error"]) {
    if (k in m && kindOf(m[k]) !== "an object") return `"${k}" must be an object, got ${kindOf(m[k])}`;
  }
  return `not a valid JSON-RPC ${shape === "error" ? "error response" : shape}`;
}
