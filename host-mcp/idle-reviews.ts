// The MCP servers' idle boundary: when no tool call is in flight (over every client of the
// server) and no run is active, one draft review cycle and then one tool portfolio cycle, when
// the policy allows it and a reviewer is configured; one boundary at a time. Never throws: a
// review's outcome, failures included, is evidence in `inspect target=recipes view=reviews`.
import { idlePortfolioCycle } from "../runtime/review/boundary.js";
import { idleCycle, reviewPolicy, type ReviewPorts } from "../runtime/review/host.js";
import { runFacts } from "../runtime/runs/facts.js";
import { runsRootOf } from "../runtime/runs/store.js";

export function idleReviews(ports: ReviewPorts, env: NodeJS.ProcessEnv): () => void {
  let reviewing = false;
  return () => {
    if (reviewing) return;
    reviewing = true;
    const active = async (): Promise<number> => (await runFacts(ports.fs, runsRootOf(ports.paths.tmpRoot))).active_runs.length;
    void idleCycle(ports, reviewPolicy(env), active)
      .then(() => idlePortfolioCycle(ports, reviewPolicy(env), active))
      .catch(() => undefined)
      .finally(() => (reviewing = false));
  };
}
