// `pi-recipes mcp`: the recipe server on stdin/stdout over one live runtime session (real files,
// locks, watcher and ledger). The process belongs to its client: when stdin ends (the client
// closed or died), on SIGTERM/SIGINT/SIGHUP, or when stdout breaks, calls in progress are aborted
// (their process groups killed), the session is closed (watcher stopped, launches folded into
// the ledgers) and the process ends, leaving nothing behind.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { packageInfo } from "../runtime/agent-paths.js";
import { hostPorts, openLiveSession, overPorts } from "../runtime/session.js";
import { activateAtBoundary } from "../runtime/review/boundary.js";
import { withReviews } from "../runtime/review/host.js";
import { runCycle } from "../runtime/review/cycle.js";
import { idleReviews } from "./idle-reviews.js";
import { createRecipeServer } from "./server.js";
import { agentDirExists, servingLines } from "./serving.js";
import { notAFolderAt } from "../runtime/root-lock.js";
import { batchRequestIds, boundedLines, leadingRequestId, lineFault } from "./stdio-lines.js";

export interface StdioServeOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly stdin?: NodeJS.ReadableStream & { pause(): unknown };
  readonly stdout?: NodeJS.WritableStream;
  readonly log?: (line: string) => void;
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/** The longest one message on stdin may be: the SDK's transport closes the connection past
 *  10 MiB, so the bound is below that, and far above what any call needs. */
export const STDIO_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Serves until the client goes away; resolves with the exit code once everything is cleaned up. */
export async function serveStdio(options: StdioServeOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string): void => void process.stderr.write(`pi-recipes mcp: ${line}\n`));
  const pkg = packageInfo();

  // recovery, clean-up, watcher and lineage seeding; closing it folds this session's launches
  // the server's adapters, paths, packaged root and lock, built once for its start-up steps and its session
  const ports = hostPorts({ env, cwd, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
  const agentDirExisted = agentDirExists(ports.paths);
  const rootNotAFolder = await notAFolderAt(ports.fs, ports.paths.recipeRoot);
  // an approved tool portfolio review is carried out before the tool set is read
  const activation = await activateAtBoundary(ports);
  if ("error" in activation && activation.error !== undefined) log(`tool review activation: ${activation.error}`);
  const session = await openLiveSession({ ...overPorts(ports), onWatchError: (e) => log(`watcher: ${e.message}`), log });
  for (const line of servingLines({ ...session, agentDirExisted, rootNotAFolder, tools: session.live.current().discovery.tools.length })) log(line);
  // a draft review batch a crash interrupted is finished before serving
  const recovered = await withReviews(session, (ctx) => runCycle(ctx)).catch((e: unknown) => ({ error: String(e) }));
  if ("error" in recovered && recovered.error !== undefined) log(`draft review recovery: ${recovered.error}`);
  // one review cycle at a time, when no call is in flight and no run is active
  const onIdle = idleReviews(session, env);
  // the ids of the tools/call requests taken and not ended yet: the SDK keys a request's
  // cancellation by its id, so a second request under the id of a call still running would leave
  // that call beyond any cancel or shutdown (the server would wait for it forever); such a request
  // is answered with an error here and never reaches the SDK
  const callIds = new Set<string | number>();
  const recipes = createRecipeServer({ session, name: pkg.name, version: pkg.version, log, onIdle, onCallEnd: (id) => callIds.delete(id) });

  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    // closing the server reports its own close: the flag is set before anything can re-enter
    if (stopping) return;
    stopping = true;
    log(`stopping: ${why}`);
    for (const s of SIGNALS) process.off(s, onSignal);
    try {
      await recipes.close(); // aborts the calls in progress
      await recipes.drain(); // and waits for their process groups to be gone
    } finally {
      await session.close();
      finish(0);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => void stop(signal);
  for (const s of SIGNALS) process.on(s, onSignal);
  stdin.on("end", () => void stop("stdin closed"));
  stdin.on("close", () => void stop("stdin closed"));
  stdout.on("error", (e: Error) => void stop(`stdout: ${e.message}`));

  // A message longer than STDIO_MAX_MESSAGE_BYTES is dropped before the transport (which would
  // close the connection over it) and its request, when its id can be told, answered with an
  // error; so is each request of a batch (a JSON array, which the transport cannot read).
  const lines = boundedLines(STDIO_MAX_MESSAGE_BYTES, (head, size) => {
    const id = leadingRequestId(head);
    log(`protocol: a message of ${size} bytes is over the limit of ${STDIO_MAX_MESSAGE_BYTES} bytes and was skipped${id === undefined ? "" : ` (request ${JSON.stringify(id)} answered with an error)`}`);
    if (id === undefined) return;
    const message = `Request too large: ${size} bytes, over the limit of ${STDIO_MAX_MESSAGE_BYTES} bytes for one message. Nothing was run.`;
    void transport.send({ jsonrpc: "2.0", id, error: { code: -32600, message } });
  }, (line) => {
    // a JSON-RPC batch: each request in it is answered with an error, none is run
    const ids = batchRequestIds(line);
    const message = "Batch requests are not supported: send each request as a message of its own. Nothing was run.";
    log(`protocol: a batch of ${ids === undefined ? "unreadable" : ids.length} request(s) was refused`);
    if (ids === undefined || ids.length === 0) void transport.send({ jsonrpc: "2.0", id: null, error: { code: -32600, message } } as never);
    for (const id of ids ?? []) void transport.send({ jsonrpc: "2.0", id, error: { code: -32600, message } });
  }, (line) => {
    // A line that is no JSON-RPC message is answered here, so that a client whose request was
    // garbled is not left waiting: not JSON, with a parse error (-32700); JSON but no message,
    // with an invalid-request error (-32600) under its id when it has one. An invalid
    // notification is answered by nothing, nor is a malformed response (an answer under its id
    // would be taken for the answer to the client's own request of that id). Either way it is
    // said on stderr, and serving goes on.
    let request: { readonly method: string; readonly id: string | number } | undefined;
    const fault = lineFault(line.toString("utf8").replace(/\r?\n$/, ""), (m) => {
      if (typeof m["method"] === "string" && (typeof m["id"] === "string" || typeof m["id"] === "number")) request = { method: m["method"], id: m["id"] };
    });
    if (fault === undefined) {
      if (request === undefined) return false;
      if (callIds.has(request.id)) {
        const message = `Invalid Request: id ${JSON.stringify(request.id)} is that of a tool call still running; give each request an id of its own. Nothing was run.`;
        log(`protocol: request ${JSON.stringify(request.id)} (${request.method}) reuses the id of a call still running, answered with an error`);
        void transport.send({ jsonrpc: "2.0", id: request.id, error: { code: -32600, message } });
        return true;
      }
      if (request.method === "tools/call") callIds.add(request.id);
      return false;
    }
    if (fault.kind === "notification") {
      log(`protocol: ${fault.reason} (an invalid notification, skipped)`);
      return true;
    }
    if (fault.kind === "response") {
      log(`protocol: ${fault.reason} (a response from the client, skipped: a response is never answered)`);
      return true;
    }
    const code = fault.kind === "parse" ? -32700 : -32600;
    const id = fault.kind === "parse" ? null : fault.id;
    const message = `${fault.kind === "parse" ? "Parse error" : "Invalid Request"}: ${fault.reason}. Nothing was run.`;
    log(`protocol: ${fault.reason} (${id === null ? "answered with an error, id null" : `request ${JSON.stringify(id)} answered with an error`})`);
    void transport.send({ jsonrpc: "2.0", id, error: { code, message } } as never);
    return true;
  });
  (stdin as NodeJS.ReadableStream).pipe(lines);
  const transport = new StdioServerTransport(lines as unknown as typeof process.stdin, stdout as typeof process.stdout);
  // anything else the connection cannot take is said on stderr, and serving goes on
  recipes.server.onerror = (e) => log(`protocol: ${e.message}`);
  recipes.server.onclose = () => void stop("connection closed");
  await recipes.server.connect(transport);
  return finished;
}
