// An agent dir in a temp folder, recipes written into it, and waiting on real detached runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { readRun, runsRootOf } from "../../../runtime/runs/store.js";
import { callTool, type CallContext } from "../../../runtime/verbs/call.js";
import type { RunView } from "../../../core/views/run-views.js";
import type { CommandResult } from "../../../core/result.js";
import { unaccountedLaunch } from "../../../runtime/verbs/call.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

export interface RunBox {
  readonly dir: string;
  readonly agent: string;
  readonly runsRoot: string;
  readonly env: Record<string, string>;
  recipe(name: string, body: unknown): void;
  /** callTool in this process (the run itself is detached) */
  call(name: string, params?: Record<string, unknown>, ctx?: Partial<CallContext>): Promise<CommandResult>;
  cleanup(): void;
}

export function runBox(): RunBox {
  const dir = mkdtempSync(join(tmpdir(), "pi-recipes-runs-"));
  const agent = join(dir, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  const env = { PI_CODING_AGENT_DIR: agent };
  const registry = () => openRegistry({ env, cwd: dir, home: dir, packagedRoot: null, scan: makeNodeScanPort() });
  return {
    dir,
    agent,
    runsRoot: runsRootOf(join(agent, "tmp", "pi-recipes")),
    env,
    recipe: (name, body) => writeFileSync(join(agent, "recipes", `${name}.json`), JSON.stringify(body)),
    call: (name, params = {}, ctx = {}) => {
      const r = registry();
      return callTool(r.discover(), name, params, { paths: r.paths, killGraceMs: 500, fs: makeNodeFileSystem(), launch: unaccountedLaunch, ...ctx });
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The file system the run store is read through in these tests: the real one, as the runs are real. */
export const nodeFs = makeNodeFileSystem();

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The run once it is no longer running. */
export const finished = (runsRoot: string, runId: string, timeoutMs?: number): Promise<RunView> =>
  waitFor(`run ${runId} to end`, async () => {
    const run = await readRun(nodeFs, runsRoot, runId);
    return run !== undefined && run.status !== "running" ? run : undefined;
  }, timeoutMs);

export function runIdOf(result: CommandResult): string {
  const id = result.details["run_id"];
  if (typeof id !== "string") throw new Error(`no run id in: ${result.text}`);
  return id;
}
