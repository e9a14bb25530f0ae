// `pi-recipes mcp`: the recipe server on stdin/stdout, wired to the real files, locks, watcher and
// ledger. The process belongs to its client: when stdin ends (the client closed or died), on
// SIGTERM/SIGINT/SIGHUP, or when stdout breaks, calls in progress are aborted (their process
// groups killed), the watcher is closed and the process ends, leaving nothing behind.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import { lockRootOf, packageInfo } from "../runtime/agent-paths.js";
import { openLedger } from "../runtime/ledger/index.js";
import { openLiveRegistry } from "../runtime/live-registry.js";
import { registerTool } from "../runtime/register.js";
import { cleanStrayRecipeTemps } from "../runtime/startup.js";
import { launchAccounting } from "./launch-accounting.js";
import { createRecipeServer } from "./server.js";

export interface StdioServeOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly stdin?: NodeJS.ReadableStream & { pause(): unknown };
  readonly stdout?: NodeJS.WritableStream;
  readonly log?: (line: string) => void;
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/** Serves until the client goes away; resolves with the exit code once everything is cleaned up. */
export async function serveStdio(options: StdioServeOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string): void => void process.stderr.write(`pi-recipes mcp: ${line}\n`));
  const pkg = packageInfo();

  const live = openLiveRegistry({ env, cwd, onError: (e) => log(`watcher: ${e.message}`) });
  const { paths } = live;
  const fs = makeNodeFileSystem();
  const lock = makeFileLock({ fs, lockRoot: lockRootOf(paths.recipeRoot) });
  await cleanStrayRecipeTemps({ paths, fs, lock }).catch((e: unknown) => log(`start-up cleanup: ${String(e)}`));
  await live.start();

  const recipes = createRecipeServer({
    live,
    name: pkg.name,
    version: pkg.version,
    log,
    accounting: launchAccounting(openLedger({ fs, lock, recipeRoot: paths.recipeRoot, usageRoot: paths.usageRoot })),
    // register_tool refreshes under its locks, so the list_changed goes out before it answers
    register: (params) => registerTool(params, { paths, fs, lock, packagedRoot: pkg.packagedRecipeRoot, refresh: () => void live.refresh() }),
    call: {
      // async recipes start detached runs under <tmpRoot>/runs (runtime/runs), callTool's default
      paths: { cwd: paths.cwd, home: paths.home, tmpRoot: paths.tmpRoot },
    },
  });

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
      await live.close();
      finish(0);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => void stop(signal);
  for (const s of SIGNALS) process.on(s, onSignal);
  stdin.on("end", () => void stop("stdin closed"));
  stdin.on("close", () => void stop("stdin closed"));
  stdout.on("error", (e: Error) => void stop(`stdout: ${e.message}`));

  const transport = new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout);
  // Undecodable input (not JSON, not JSON-RPC) is skipped line by line by the transport; say so
  // on stderr and keep serving.
  recipes.server.onerror = (e) => log(`protocol: ${e.message}`);
  recipes.server.onclose = () => void stop("connection closed");
  await recipes.server.connect(transport);
  return finished;
}
