// What the stdio transport reads: stdin, one message (one line) at a time, each at most `max`
// bytes. The MCP SDK's transport buffers a line whole and, past 10 MiB, closes the connection:
// the server stopped, and every call in flight with it. Here a longer line is dropped as it
// arrives (never held whole), the transport never sees it, and `refused` is told its size and
// how it began, so the server can answer that request with an error and go on serving.
import { Transform, type TransformCallback } from "node:stream";

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
 *  no batches (the SDK's transport cannot read one, and would only report a parse error). */
export function boundedLines(max: number, refused: (head: string, size: number) => void, batch?: (line: string) => void): Transform {
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
            else this.push(line);
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
    const id = typeof m === "object" && m !== null ? (m as { id?: unknown }).id : undefined;
    if (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id))) ids.push(id);
  }
  return ids;
}
