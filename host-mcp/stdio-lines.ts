// What the stdio transport reads: stdin, one message (one line) at a time, each at most `max`
// bytes. The MCP SDK's transport buffers a line whole and, past 10 MiB, closes the connection:
// the server stopped, and every call in flight with it. Here a longer line is dropped as it
// arrives (never held whole), the transport never sees it, and `refused` is told its size and
// how it began, so the server can answer that request with an error and go on serving.
import { Transform, type TransformCallback } from "node:stream";

/** How many bytes of an over-long line are kept to find its request id. */
const HEAD_BYTES = 4096;

export function boundedLines(max: number, refused: (head: string, size: number) => void): Transform {
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
            this.push(held.length === 1 ? held[0] : Buffer.concat(held));
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
