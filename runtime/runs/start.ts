// Starting an async run: the call answers at once with the run's id and
// status; the recipe's whole template graph runs in a detached worker under the supervisor, so
// it outlives the process that started it.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { systemClock, type Clock } from "../../adapters/clock/Clock.js";
import { hasCode, writeFileAtomic, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { startSupervised } from "../../adapters/process/detached.js";
import { identityOf } from "../../adapters/process/identity.js";
import { DEFAULT_KILL_GRACE_MS } from "../../adapters/process/ProcessRunner.js";
import { RUN_PARAMS } from "../../core/args/call-check.js";
import { formatUsageHint } from "../../core/args/usage-hint.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import { missingValue } from "../../core/template/failure.js";
import { Origin } from "../../core/template/substitute.js";
import { runStartedText, type RunView } from "../../core/views/run-views.js";
import type { AsyncLaunch, CallContext } from "../verbs/call-context.js";
import { pruneRuns } from "./prune.js";
import { generatedRunId, requestedRunId, runIdProblem } from "./run-id.js";
import { readRun, RUN_FILES, runDirOf, runsRootOf, type RunSpec } from "./store.js";

export interface RunStartOptions {
  /** runs live in `<runsRoot>/<run_id>/` */
  readonly runsRoot: string;
  readonly cwd: string;
  readonly home: string;
  /** `<agent>/tmp/pi-recipes` (a run's truncated final output is saved in its own folder) */
  readonly tmpRoot: string;
  readonly env?: Readonly<Record<string, string>>;
  /** SIGTERM → SIGKILL grace for the run's commands (timeouts and control.kill) */
  readonly killGraceMs?: number;
  readonly maxParallelBranches?: number;
  /** the time of the run's record and generated id, and of pruning; default the system clock */
  readonly clock?: Clock;
  /** the run store's files */
  readonly fs: FileSystem;
}

/** The supervisor gives the worker this much longer than the worker gives its commands, so a
 * kill normally ends every command before the worker itself is forced down. */
const SUPERVISOR_EXTRA_GRACE_MS = 2000;

export const supervisorGraceMs = (killGraceMs: number): number => killGraceMs + SUPERVISOR_EXTRA_GRACE_MS;

/** How to start the worker with this node: the compiled file, or the source through tsx
 * (resolved here, since the worker does not run where tsx is installed). */
function workerArgs(): string[] {
  const fromSource = import.meta.url.endsWith(".ts");
  const worker = fileURLToPath(new URL(fromSource ? "./run-worker.ts" : "./run-worker.js", import.meta.url));
  if (!fromSource) return [worker];
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return ["--import", tsx, worker];
}

/** Creates the run's folder, private to this user; false when the id is taken (mkdir is the one
 *  atomic claim). */
async function claim(fs: FileSystem, dir: string): Promise<boolean> {
  try {
    await fs.mkdir(dir);
  } catch (e) {
    if (hasCode(e, "EEXIST")) return false;
    throw e;
  }
  await fs.chmod?.(dir, 0o700);
  return true;
}

const writeJson = (fs: FileSystem, path: string, value: unknown): Promise<void> =>
  writeFileAtomic(fs, path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });

const textParam = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** Claims the run id: the caller's (taken → error) or a generated one (taken → the next free). */
async function claimRunId(fs: FileSystem, launch: AsyncLaunch, runsRoot: string, now: number): Promise<{ id: string } | { error: string }> {
  const requested = requestedRunId(launch.params);
  if (requested !== undefined) {
    const problem = runIdProblem(requested);
    if (problem !== undefined) return { error: problem };
    if (!(await claim(fs, runDirOf(runsRoot, requested)))) {
      return { error: `Run ${requested} already exists (${runDirOf(runsRoot, requested)}); pass another run_id.` };
    }
    return { id: requested };
  }
  for (let attempt = 0; attempt < 1000; attempt++) {
    const id = generatedRunId(launch.tool.name, now, attempt);
    if (await claim(fs, runDirOf(runsRoot, id))) return { id };
  }
  return { error: `No free run id for ${launch.tool.name} under ${runsRoot}` };
}

export async function startRun(launch: AsyncLaunch, options: RunStartOptions): Promise<CommandResult> {
  const { tool } = launch;
  const clock = options.clock ?? systemClock;
  const { fs } = options;
  const now = clock.now();
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(launch.values)) if (!RUN_PARAMS.includes(k)) values[k] = v;
  // a detached run could report a missing value only in its log: refuse it here, as a call would
  const missing = tool.surface.required.find((name) => values[name] === undefined);
  if (missing !== undefined) {
    const message = missingValue("command template", missing).message;
    return failure(formatUsageHint(tool.name, tool.surface, message, { async: true }), { tool: tool.name, path: tool.path, error: message, usageHint: true });
  }
  const authored = Object.keys(values).filter((k) => {
    const v = launch.runtime[k];
    return v instanceof Origin && v.authored;
  });
  const correlation = textParam(launch.params["correlation_id"]);

  let runId: string;
  try {
    await fs.mkdir(options.runsRoot, { recursive: true });
    await fs.chmod?.(options.runsRoot, 0o700);
    await pruneRuns(fs, options.runsRoot, { now });
    const claimed = await claimRunId(fs, launch, options.runsRoot, now);
    if ("error" in claimed) return failure(claimed.error, { tool: tool.name, path: tool.path, run_id: requestedRunId(launch.params) ?? null });
    runId = claimed.id;
  } catch (e) {
    return failure(`Async run of ${tool.name} could not start: ${e instanceof Error ? e.message : String(e)}`, { tool: tool.name, path: tool.path });
  }
  const runDir = runDirOf(options.runsRoot, runId);
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const spec: RunSpec = {
    run_id: runId,
    tool: tool.name,
    path: tool.path,
    template: tool.config.template,
    values,
    authored,
    cwd: options.cwd,
    home: options.home,
    tmp_root: options.tmpRoot,
    ...(options.env === undefined ? {} : { env: options.env }),
    kill_grace_ms: killGraceMs,
    ...(options.maxParallelBranches === undefined ? {} : { max_parallel_branches: options.maxParallelBranches }),
    ...(correlation === undefined ? {} : { correlation_id: correlation }),
    created_at: new Date(now).toISOString(),
    ...(launch.sandbox === undefined ? {} : { sandbox: launch.sandbox }),
    accounting: launch.accounted.record,
    starter: identityOf(process.pid),
  };
  const base = { tool: tool.name, path: tool.path, async: true, run_id: runId, run_dir: runDir };
  try {
    await writeJson(fs, join(runDir, RUN_FILES.spec), spec);
  } catch (e) {
    await fs.rm(runDir, { recursive: true, force: true }).catch(() => undefined);
    return failure(`Async run ${runId} of ${tool.name} could not start: ${e instanceof Error ? e.message : String(e)}`, base);
  }
  const started = await startSupervised({
    command: process.execPath,
    args: [...workerArgs(), runDir],
    // the worker runs the commands in spec.cwd; its own cwd only has to exist
    cwd: runDir,
    runDir,
    killGraceMs: supervisorGraceMs(killGraceMs),
    meta: { run_id: runId, tool: tool.name, ...(correlation === undefined ? {} : { correlation_id: correlation }) },
  });
  if (!started.ok) {
    // leave a finished record, so the run is explained by inspect and pruned like any other
    const at = new Date(clock.now()).toISOString();
    const status = { run_id: runId, tool: tool.name, status: "failed", pid: null, pgid: null, exit_code: 1, started_at: at, ended_at: at, error: started.error };
    await writeJson(fs, join(runDir, RUN_FILES.status), status).catch(() => undefined);
    return failure(`Async run ${runId} of ${tool.name} could not start: ${started.error}`, base);
  }
  const view: RunView = (await readRun(fs, options.runsRoot, runId)) ?? {
    run_id: runId,
    tool: tool.name,
    status: started.status.status,
    pid: started.status.pid,
    pgid: started.status.pgid,
    exit_code: started.status.exit_code,
    started_at: started.status.started_at,
    ended_at: started.status.ended_at,
    run_dir: runDir,
    stdout_path: join(runDir, RUN_FILES.stdout),
    stderr_path: join(runDir, RUN_FILES.stderr),
  };
  return success(runStartedText(view), {
    ...base,
    status: view.status,
    pid: view.pid,
    started_at: view.started_at,
    stdout: view.stdout_path,
    stderr: view.stderr_path,
    ...(correlation === undefined ? {} : { correlation_id: correlation }),
  });
}

export const asyncRunStarter =
  (options: RunStartOptions) =>
  (launch: AsyncLaunch): Promise<CommandResult> =>
    startRun(launch, options);

/** The starter every host gets by default: runs under `<tmpRoot>/runs`, commands in the call's cwd. */
export function defaultAsyncStarter(ctx: Omit<CallContext, "launch">): (launch: AsyncLaunch) => Promise<CommandResult> {
  return asyncRunStarter({
    runsRoot: runsRootOf(ctx.paths.tmpRoot),
    fs: ctx.fs,
    cwd: ctx.paths.cwd,
    home: ctx.paths.home,
    tmpRoot: ctx.paths.tmpRoot,
    ...(ctx.env === undefined ? {} : { env: ctx.env }),
    ...(ctx.killGraceMs === undefined ? {} : { killGraceMs: ctx.killGraceMs }),
    ...(ctx.maxParallelBranches === undefined ? {} : { maxParallelBranches: ctx.maxParallelBranches }),
  });
}
