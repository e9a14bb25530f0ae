// `pi-recipes mcp --http`: the recipe server for many clients at once. One live runtime session
// (one registry and watcher, one ledger, one launch path) serves every MCP session, so a launch
// from any client is counted in the same books a stdio server keeps. SIGTERM/SIGINT/SIGHUP stop
// it: every MCP session is closed, its calls aborted (process groups killed) and waited for, then
// the runtime session is closed (watcher stopped, launches folded into the ledgers).
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { packageInfo } from "../runtime/agent-paths.js";
import { hostPorts, openLiveSession, overPorts } from "../runtime/session.js";
import { activateAtBoundary } from "../runtime/review/boundary.js";
import { isLoopback, requestGuard } from "./auth.js";
import { idleReviews } from "./idle-reviews.js";
import { createHttpHandler, MCP_PATH, type HttpLimits } from "./http.js";
import { createRecipeServer } from "./server.js";
import { agentDirExists, servingLines } from "./serving.js";
import { notAFolderAt } from "../runtime/root-lock.js";

export interface HttpServeOptions {
  readonly host: string;
  /** 0 picks a free port */
  readonly port: number;
  readonly token: string | undefined;
  /** the file the token was read from: hidden inside every sandbox of the server's calls, so that
   *  a confined command cannot read it and call the server (and its unconfined tools) itself */
  readonly tokenFile?: string;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly limits: HttpLimits;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly log?: (line: string) => void;
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

// Idle connections. Clients keep a connection open after a response and send their next request
// on it; HTTP/1.1 gives the server no way to close an idle connection without racing such a
// request, and the request lost in that race fails on the client ("other side closed"). So the
// server announces a shorter idle time (the Keep-Alive header) than it keeps a connection for:
// clients that read the header (undici, which node's fetch uses, closes it 2 s before the
// announced time) let go of the connection first, even when their event loop runs late. With
// node's defaults the server kept a connection 5 s and announced nothing on the MCP transport's
// answers, so undici guessed 4 s: a margin that late timers on a loaded machine used up.
const ANNOUNCED_IDLE_S = 60;
const KEPT_IDLE_MS = 65_000;

const urlOf = (address: AddressInfo): string =>
  `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}${MCP_PATH}`;

/** Serves until a signal; resolves with the exit code once everything is cleaned up. */
export async function serveHttp(options: HttpServeOptions): Promise<number> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? ((line: string): void => void process.stderr.write(`pi-recipes mcp: ${line}\n`));
  const loopbackBind = isLoopback(options.host);
  if (!loopbackBind && options.token === undefined) {
    log(`refusing to listen on ${options.host} without a token: any other bind than loopback needs PI_RECIPES_MCP_TOKEN or --token-file`);
    return 2;
  }
  const pkg = packageInfo();

  // recovery, clean-up, watcher and lineage seeding, once for every client
  // the server's adapters, paths, packaged root and lock, built once for its start-up steps and its session
  const ports = hostPorts({ env, cwd, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
  const agentDirExisted = agentDirExists(ports.paths);
  const rootNotAFolder = await notAFolderAt(ports.fs, ports.paths.recipeRoot);
  // an approved tool portfolio review is carried out before the tool set is read
  const activation = await activateAtBoundary(ports);
  if ("error" in activation && activation.error !== undefined) log(`tool review activation: ${activation.error}`);
  // (read from this process's working directory, as loadToken read it)
  const hiddenPaths = options.tokenFile === undefined ? [] : [resolve(options.tokenFile)];
  const session = await openLiveSession({ ...overPorts(ports), hiddenPaths, onWatchError: (e) => log(`watcher: ${e.message}`), log });
  for (const line of servingLines({ ...session, agentDirExisted, rootNotAFolder, tools: session.live.current().discovery.tools.length })) log(line);
  // the review boundary: no call in flight over every client's session, and no run active
  const callsInFlight = new Set<Promise<unknown>>();
  const onIdle = idleReviews(session, env);
  const handler = createHttpHandler({
    log,
    limits: options.limits,
    guard: requestGuard({ token: options.token, loopbackBind, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins }),
    makeServer: () => createRecipeServer({ session, name: pkg.name, version: pkg.version, log, onIdle, callsInFlight }),
  });

  const server: NodeHttpServer = createServer((req, res) => {
    res.setHeader("Keep-Alive", `timeout=${ANNOUNCED_IDLE_S}`);
    void handler.handle(req, res);
  });
  server.keepAliveTimeout = KEPT_IDLE_MS;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    log(`cannot listen on ${options.host}:${options.port}: ${e instanceof Error ? e.message : String(e)}`);
    await session.close();
    return 1;
  }
  server.on("error", (e) => log(`http: ${e.message}`));
  const address = server.address() as AddressInfo;
  log(`listening on ${urlOf(address)} (${options.token === undefined ? "no token: loopback clients only" : "bearer token required"})`);

  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`stopping: ${why}`);
    for (const s of SIGNALS) process.off(s, onSignal);
    server.close();
    try {
      await handler.close(); // aborts every call in progress and waits for its processes
    } finally {
      server.closeAllConnections();
      await session.close();
      finish(0);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => void stop(signal);
  for (const s of SIGNALS) process.on(s, onSignal);
  return finished;
}
