// What can be done to a run from outside: read it, tail it, kill it.
// `inspect target=run:<id> view=status|tail [lines=N]` and `message to=run:<id> type=control.kill`.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { DEFAULT_KILL_GRACE_MS } from "../../adapters/process/ProcessRunner.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import { runKillText, runStatusText, runTailText, type RunView } from "../../core/views/run-views.js";
import { runIdProblem } from "./run-id.js";
import { readRun, readRunSpec, runDirOf } from "./store.js";
import { tailLines, tailLinesParam } from "./tail.js";

export const RUN_VIEWS = "view=status or view=tail [lines=N]";
export const RUN_MESSAGE_TYPES = "run:<id> accepts type=control.kill";

async function findRun(fs: FileSystem, runsRoot: string, runId: string): Promise<RunView | CommandResult> {
  const problem = runIdProblem(runId);
  if (problem !== undefined) return failure(problem, { run_id: runId });
  return (await readRun(fs, runsRoot, runId)) ?? failure(`Unknown run: ${runId} (no run under ${runsRoot})`, { run_id: runId });
}

const isView = (v: RunView | CommandResult): v is RunView => "run_id" in v;

export async function inspectRun(fs: FileSystem, runsRoot: string, runId: string, view: string | undefined, linesParam: unknown): Promise<CommandResult> {
  const run = await findRun(fs, runsRoot, runId);
  if (!isView(run)) return run;
  const which = view ?? "status";
  if (which === "status") return success(runStatusText(run), { ...run });
  if (which !== "tail") return failure(`Unknown run view: ${which}. Use ${RUN_VIEWS}.`, { run_id: runId, view: which });
  const lines = tailLinesParam(linesParam);
  if (typeof lines !== "number") return failure(lines.error, { run_id: runId });
  const tail = { lines, stdout: await tailLines(fs, run.stdout_path, lines), stderr: await tailLines(fs, run.stderr_path, lines) };
  return success(runTailText(run, tail), { ...run, tail });
}

/** control.kill: SIGTERM to the run (its commands' groups end first), SIGKILL after the grace;
 * resolves once the run is recorded as killed. A finished run is left as it is. */
export async function killRun(fs: FileSystem, runsRoot: string, runId: string): Promise<CommandResult> {
  const run = await findRun(fs, runsRoot, runId);
  if (!isView(run)) return run;
  if (run.status !== "running") {
    return success(runKillText(run, "not_running"), { run_id: runId, sent: false, reason: `run_${run.status}`, run: { ...run } });
  }
  // the process code (signals, the supervisor's spawn) loads only for a kill, not for every
  // `inspect`, which imports this module for its run views
  const [{ killSupervised }, { supervisorGraceMs }] = await Promise.all([import("../../adapters/process/detached.js"), import("./start.js")]);
  const dir = runDirOf(runsRoot, runId);
  const grace = supervisorGraceMs((await readRunSpec(fs, dir))?.kill_grace_ms ?? DEFAULT_KILL_GRACE_MS);
  try {
    await killSupervised(dir, grace);
  } catch (e) {
    return failure(`Run ${runId} could not be killed: ${e instanceof Error ? e.message : String(e)}`, { run_id: runId });
  }
  const after = (await readRun(fs, runsRoot, runId)) ?? run;
  const killed = after.status === "killed";
  // it may have ended on its own between our look and the signal
  return success(runKillText(after, killed ? "killed" : "not_running"), {
    run_id: runId,
    sent: killed,
    ...(killed ? {} : { reason: `run_${after.status}` }),
    run: { ...after },
  });
}

/** `message to=run:<id> type=<type>` */
export function messageRun(fs: FileSystem, runsRoot: string, runId: string, type: string): Promise<CommandResult> {
  if (type !== "control.kill") return Promise.resolve(failure(`${RUN_MESSAGE_TYPES}; got type=${type}.`, { to: `run:${runId}`, type }));
  return killRun(fs, runsRoot, runId);
}
