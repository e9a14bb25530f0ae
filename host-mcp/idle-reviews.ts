// The MCP servers' idle boundary: when no tool call is in flight (over every client of the
// server) and no run is active, one draft review cycle and then one tool portfolio cycle, when
// the policy allows it and a reviewer is configured; one boundary at a time. Never throws: a
// review's outcome, failures included, is evidence in `inspect target=recipes view=reviews`.
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../runtime/agent-paths.js";
import { idlePortfolioCycle } from "../runtime/review/boundary.js";
import { idleCycle, reviewPolicy } from "../runtime/review/host.js";
import { runFacts } from "../runtime/runs/facts.js";
import { runsRootOf } from "../runtime/runs/store.js";

export function idleReviews(fs: FileSystem, paths: AgentPaths, env: NodeJS.ProcessEnv, packagedRoot: string | undefined): () => void {
  let reviewing = false;
  return () => {
    if (reviewing) return;
    reviewing = true;
    const active = async (): Promise<number> => (await runFacts(fs, runsRootOf(paths.tmpRoot))).active_runs.length;
    void idleCycle(paths, reviewPolicy(env), active, packagedRoot)
      .then(() => idlePortfolioCycle(paths, reviewPolicy(env), active, packagedRoot))
      .catch(() => undefined)
      .finally(() => (reviewing = false));
  };
}
