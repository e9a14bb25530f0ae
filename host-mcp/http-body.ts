// Reading a POST body before the MCP transport sees it: bounded in size (a declared length over
// the bound is refused unread; an undeclared one is cut off as soon as it passes the bound), and
// parsed once, so the server can see which JSON-RPC requests it carries (to bound concurrent
// calls, and to cancel them when their connection drops) before anything runs.
import * as E from "fp-ts/lib/Either.js";
import type { IncomingMessage } from "node:http";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Why a body is refused: the HTTP status, the JSON-RPC error code and the text of the answer. */
export interface BodyRefusal {
  readonly status: 400 | 413;
  readonly code: number;
  readonly error: string;
}

/** The parsed JSON message, or the refusal to answer with. */
export type Body = E.Either<BodyRefusal, unknown>;

const tooLarge = (max: number): Body => E.left({ status: 413, code: -32000, error: `Payload Too Large: request body over ${max} bytes` });

export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume(); // drain without keeping it, so the answer can still be written
    return Promise.resolve(tooLarge(maxBytes));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.resume();
        finish(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", (e) => finish(E.left({ status: 400, code: -32000, error: `Bad Request: ${e.message}` })));
    // a client gone before the end of its body: nothing waits on it any more
    req.on("close", () => finish(E.left({ status: 400, code: -32000, error: "Bad Request: the request ended before its body" })));
    req.on("end", () => {
      try {
        finish(E.right(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown));
      } catch {
        finish(E.left({ status: 400, code: -32700, error: "Parse error: Invalid JSON" }));
      }
    });
  });
}

export interface RequestsInBody {
  /** ids of the JSON-RPC requests (not notifications) in the body */
  readonly ids: readonly (string | number)[];
  /** how many of them are tools/call */
  readonly calls: number;
  readonly initialize: boolean;
}

const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** What a message or batch asks for; malformed entries are left to the transport to refuse. */
export function requestsIn(message: unknown): RequestsInBody {
  const ids: (string | number)[] = [];
  let calls = 0;
  let initialize = false;
  for (const entry of Array.isArray(message) ? message : [message]) {
    const m = record(entry);
    if (m === undefined || typeof m["method"] !== "string") continue;
    if (m["method"] === "initialize") initialize = true;
    const id = m["id"];
    if (typeof id !== "string" && typeof id !== "number") continue;
    ids.push(id);
    if (m["method"] === "tools/call") calls++;
  }
  return { ids, calls, initialize };
}
