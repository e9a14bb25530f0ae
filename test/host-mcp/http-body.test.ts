// Reading and sizing up a POST body before the MCP transport sees it.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import type { IncomingMessage } from "node:http";
import { readJsonBody, requestsIn } from "../../host-mcp/http-body.js";

function request(chunks: readonly string[], headers: Record<string, string> = {}, abort = false): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  queueMicrotask(() => {
    for (const c of chunks) stream.write(c);
    if (abort) stream.destroy();
    else stream.end();
  });
  return stream as unknown as IncomingMessage;
}

describe("readJsonBody", () => {
  it("parses a body within the bound", async () => {
    expect(await readJsonBody(request(['{"a":', "1}"]), 100)).toEqual(E.right({ a: 1 }));
  });

  it("refuses a declared or streamed size over the bound with 413, and bad JSON with 400", async () => {
    expect(await readJsonBody(request([], { "content-length": "101" }), 100)).toMatchObject(E.left({ status: 413 }));
    expect(await readJsonBody(request(["x".repeat(60), "y".repeat(60)]), 100)).toMatchObject(E.left({ status: 413, error: "Payload Too Large: request body over 100 bytes" }));
    expect(await readJsonBody(request(["{nope"]), 100)).toMatchObject(E.left({ status: 400, code: -32700 }));
  });

  it("settles when the client goes away before the end of its body", async () => {
    expect(await readJsonBody(request(['{"a":'], {}, true), 100)).toMatchObject(E.left({ status: 400 }));
  });
});

describe("requestsIn", () => {
  it("finds the request ids, the tools/call count and initialize, in a message or a batch", () => {
    expect(requestsIn({ jsonrpc: "2.0", id: 1, method: "initialize" })).toEqual({ ids: [1], calls: 0, initialize: true });
    expect(
      requestsIn([
        { jsonrpc: "2.0", id: "a", method: "tools/call" },
        { jsonrpc: "2.0", method: "notifications/cancelled" },
        { jsonrpc: "2.0", id: 2, method: "tools/call" },
        { jsonrpc: "2.0", id: 3, result: {} },
        "junk",
      ]),
    ).toEqual({ ids: ["a", 2], calls: 2, initialize: false });
  });
});
