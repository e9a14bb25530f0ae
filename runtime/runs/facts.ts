// What the run store tells triage (`inspect target=tool:pi-actors view=triage`): the running runs
// and the most recent failed ones. Runs have no owner session here, so every run is visible.
import { noRuns, type RunFacts } from "../../core/views/triage.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { listRuns } from "./store.js";

export async function runFacts(fs: FileSystem, runsRoot: string, currentSession: string | null = null): Promise<RunFacts> {
  const runs = (await listRuns(fs, runsRoot)).flatMap((e) => (e.run === undefined ? [] : [e.run]));
  return {
    ...noRuns(currentSession),
    active_runs: runs.filter((r) => r.status === "running").map((r) => ({ run: r.run_id, recipe: r.tool, status: r.status })),
    recent_failed_runs: runs.filter((r) => r.status === "failed").map((r) => ({ run: r.run_id, recipe: r.tool, status: r.status })),
  };
}
