// The recipe server over MCP Streamable HTTP: one MCP session (one `Server`, one transport, one
// stale-call gate) per client, all over the same live registry and ledger, so every session
// hears `notifications/tools/list_changed` and every launch lands in the same books.
//
// In front of the SDK's transport this handler does what a shared server needs and the transport
// does not: the request guard (token, Host, Origin), a bound on the body, on sessions and on
// calls running at once, and cleanup. A call whose connection drops before its answer is
// cancelled (its process group killed), since without an event store the answer could never be
// delivered; a session ended by DELETE, left idle or closed with the server aborts its calls.
import * as E from "fp-ts/lib/Either.js";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { cameThroughProxy, type RequestGuard } from "./auth.js";
import { readJsonBody, requestsIn } from "./http-body.js";
import type { RecipeServer } from "./server.js";

export const MCP_PATH = "/mcp";

export interface HttpLimits {
  readonly maxBodyBytes: number;
  /** tools/call requests running at once, over all sessions */
  readonly maxCalls: number;
  readonly maxSessions: number;
  /** a session with no open request for this long is closed */
  readonly idleMs: number;
}

export interface HttpHandlerOptions {
  /** a new MCP server over the shared registry, for one session */
  readonly makeServer: () => RecipeServer;
  readonly guard: RequestGuard;
  readonly limits: HttpLimits;
  readonly log: (line: string) => void;
  readonly now?: () => number;
}

export interface HttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** closes every session, aborting their calls, and waits until their processes are gone */
  close(): Promise<void>;
}

interface Session {
  readonly recipes: RecipeServer;
  readonly transport: StreamableHTTPServerTransport;
  id: string | undefined;
  /** HTTP requests of this session not answered yet (an open GET stream counts) */
  open: number;
  /** ids of the JSON-RPC requests in those, each with the response of the POST that carried it
   *  and how many requests that POST carried */
  readonly requests: Map<string | number, { readonly res: ServerResponse; readonly of: number }>;
  lastSeen: number;
  closing: Promise<void> | undefined;
}

function refuse(res: ServerResponse, status: number, code: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** the first of `ids` that is open in the session already, or that comes twice */
function reusedId(ids: readonly (string | number)[], open: ReadonlyMap<string | number, unknown>): string | number | undefined {
  const seen = new Set<string | number>();
  for (const id of ids) {
    if (open.has(id) || seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** the request ids a body's notifications/cancelled name */
function cancelledIn(body: unknown): (string | number)[] {
  const out: (string | number)[] = [];
  for (const entry of Array.isArray(body) ? body : [body]) {
    if (typeof entry !== "object" || entry === null || (entry as { method?: unknown }).method !== "notifications/cancelled") continue;
    const id = (entry as { params?: { requestId?: unknown } }).params?.requestId;
    if (typeof id === "string" || typeof id === "number") out.push(id);
  }
  return out;
}

const busyText = (limit: number, running: number = limit): string =>
  `The server is busy: ${running} tool call${running === 1 ? " is" : "s are"} running, and it runs at most ${limit} at once. Nothing was run; retry in a moment.`;

export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const { limits, log } = options;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  /** sessions created, initialized or not, so a flood of initialize requests is bounded too */
  const live = new Set<Session>();
  let calls = 0;
  let closed = false;

  /** Answers every call of the session still waiting with an error: a client gets that rather
   *  than a stream that just ends (which the SDK client waits out until its request timeout). */
  const answerOpenCalls = async (session: Session, message: string): Promise<void> => {
    for (const id of session.requests.keys())
      await session.transport.send({ jsonrpc: "2.0", id, error: { code: -32000, message } }, { relatedRequestId: id }).catch(() => undefined);
  };

  const closeSession = (session: Session, why: string, answerOpen = false): Promise<void> => {
    // marked closing before anything runs: closing the server reports its close (onclose), which
    // comes back here and must find the close under way, not start a second one
    if (session.closing !== undefined) return session.closing;
    let closed!: () => void;
    session.closing = new Promise<void>((resolve) => (closed = resolve));
    void (async () => {
      try {
        if (session.id !== undefined) sessions.delete(session.id);
        live.delete(session);
        if (answerOpen) await answerOpenCalls(session, `The pi-recipes server is ${why}; the call was stopped.`);
        await session.recipes.close(); // aborts its calls in progress (their process groups are killed)
        await session.recipes.drain(); // and waits until they are gone
        log(`session ${session.id?.slice(0, 8) ?? "(uninitialized)"} closed: ${why} (${sessions.size} open)`);
      } catch (e) {
        log(`session ${session.id?.slice(0, 8) ?? "(uninitialized)"} did not close cleanly: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        closed();
      }
    })();
    return session.closing;
  };

  const newSession = async (): Promise<Session> => {
    const recipes = options.makeServer();
    const session: Session = {
      recipes,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          sessions.set(id, session);
          log(`session ${id.slice(0, 8)} opened (${sessions.size} open)`);
        },
      }),
      id: undefined,
      open: 0,
      requests: new Map(),
      lastSeen: now(),
      closing: undefined,
    };
    live.add(session);
    // DELETE, or the transport closed for any other reason
    recipes.server.onclose = () => void closeSession(session, "closed by the client");
    recipes.server.onerror = (e) => log(`session ${session.id?.slice(0, 8) ?? "(new)"}: ${e.message}`);
    await recipes.server.connect(session.transport);
    return session;
  };

  const idleTimer = setInterval(() => {
    for (const session of live)
      if (session.open === 0 && now() - session.lastSeen > limits.idleMs) void closeSession(session, "idle");
  }, Math.min(limits.idleMs, 60_000));
  idleTimer.unref();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const denied = options.guard.check({
      host: header("host"),
      origin: header("origin"),
      authorization: header("authorization"),
      forwarded: cameThroughProxy(req.headers),
    });
    if (denied !== undefined) {
      req.resume();
      return refuse(res, denied.status, -32000, denied.message, denied.status === 401 ? { "WWW-Authenticate": 'Bearer realm="pi-recipes"' } : {});
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path !== MCP_PATH) return refuse(res, 404, -32000, `Not Found: the MCP endpoint is ${MCP_PATH}`);
    if (closed) return refuse(res, 503, -32000, "Service Unavailable: the server is shutting down");
    if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE")
      return refuse(res, 405, -32000, "Method not allowed.", { Allow: "GET, POST, DELETE" });

    const sessionId = header("mcp-session-id");
    let session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session === undefined) return refuse(res, 404, -32001, "Session not found");

    let body: unknown;
    let ids: readonly (string | number)[] = [];
    let callCount = 0;
    if (req.method === "POST") {
      const read = await readJsonBody(req, limits.maxBodyBytes);
      if (E.isLeft(read)) return refuse(res, read.left.status, read.left.code, read.left.error);
      body = read.right;
      const asked = requestsIn(body);
      ids = asked.ids;
      callCount = asked.calls;
      if (session === undefined) {
        if (!asked.initialize) return refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
        if (live.size >= limits.maxSessions)
          return refuse(res, 503, -32000, `Service Unavailable: ${limits.maxSessions} sessions are open, the most this server holds; retry later`, { "Retry-After": "5" });
        session = await newSession();
      }
    } else if (session === undefined) {
      return refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    } else if (req.method === "DELETE") {
      // the client ends its session while calls of it are still running: each gets its answer
      // before the transport closes their streams (the calls are then stopped with the session)
      await answerOpenCalls(session, "The session was ended by the client (DELETE); the call was stopped.");
    }

    // the SDK keys a request's cancellation by its id: a second request under the id of one still
    // open would leave the first beyond any cancel, DELETE or shutdown (and outside the call limit)
    const reused = session === undefined ? undefined : reusedId(ids, session.requests);
    if (reused !== undefined)
      return refuse(res, 409, -32600, `Invalid Request: id ${JSON.stringify(reused)} is that of a request of this session still open; give each request an id of its own. Nothing was run.`);

    if (callCount > 0 && calls + callCount > limits.maxCalls) {
      // a single call gets a tool error the model can read and act on; a batch a plain refusal
      // a batch of more calls than the limit can never run whole: no advice to retry it
      if (Array.isArray(body) && callCount > limits.maxCalls)
        return refuse(res, 413, -32000, `The batch holds ${callCount} tool calls, more than the ${limits.maxCalls} this server runs at once. Nothing was run; send fewer at a time.`);
      if (Array.isArray(body)) return refuse(res, 503, -32000, busyText(limits.maxCalls, calls), { "Retry-After": "1" });
      res.writeHead(200, { "Content-Type": "application/json" });
      const result = { content: [{ type: "text", text: busyText(limits.maxCalls, calls) }], structuredContent: { ok: false, busy: true, limit: limits.maxCalls }, isError: true };
      return void res.end(JSON.stringify({ jsonrpc: "2.0", id: ids[0] ?? null, result }));
    }

    const current = session;
    calls += callCount;
    current.open++;
    current.lastSeen = now();
    for (const id of ids) current.requests.set(id, { res, of: ids.length });
    res.on("close", () => {
      calls -= callCount;
      current.open--;
      for (const id of ids) current.requests.delete(id);
      current.lastSeen = now();
      if (res.writableFinished || current.closing !== undefined) return;
      // The connection dropped before the answer: nothing can deliver it, so stop the work. The
      // server hears it as the client's own cancellation of those requests.
      for (const id of ids)
        current.transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "the client's connection closed" } });
    });
    await current.transport.handleRequest(req, res, body);
    // A call the client cancelled (an SDK client does on its request timeout) gets no answer (the
    // SDK sends none), so its POST stream would stay open, and hold its place under the call limit,
    // until the client went away. Once the call has ended (its processes gone), that stream is
    // ended: nothing waits on it.
    for (const id of cancelledIn(body)) {
      const open = current.requests.get(id);
      if (open === undefined || open.of !== 1) continue;
      void Promise.resolve(current.recipes.running(id))
        .catch(() => undefined)
        .then(() => {
          if (!open.res.writableEnded) open.res.end();
        });
    }
    // an initialize the transport refused (bad headers, bad version) must not hold a session slot
    if (current.id === undefined) void closeSession(current, "initialization refused");
  }

  return {
    async handle(req, res) {
      try {
        await handle(req, res);
      } catch (e) {
        log(`request failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
        refuse(res, 500, -32603, "Internal error");
      }
    },
    async close() {
      closed = true;
      clearInterval(idleTimer);
      await Promise.all([...live].map((s) => closeSession(s, "stopping", true)));
    },
  };
}
