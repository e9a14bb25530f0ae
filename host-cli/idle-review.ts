// The CLI's idle boundary: a foreground command (`call`, `spawn`) has done its work and its
// launches are folded into the ledgers, so a configured reviewer may run one tool portfolio cycle
// now, as Pi does after a foreground turn, and only while no run is active. Without a configured
// reviewer (the common case) nothing more is loaded or read. Never fails the command: a review's
// outcome, failures included, is evidence in `inspect target=recipes view=reviews`.
import type { ReviewPorts } from "../runtime/review/host.js";

/** the variable that names the reviewer command (runtime/verbs/status.ts REVIEWER_ENV) */
const REVIEWER = "PI_RECIPES_REVIEWER";

export async function portfolioCycleAfterCommand(session: ReviewPorts & { readonly env: NodeJS.ProcessEnv }): Promise<void> {
  if ((session.env[REVIEWER] ?? "").trim() === "") return;
  const [{ idlePortfolioCycle }, { reviewPolicy }, { runFacts }, { runsRootOf }] = await Promise.all([
    import("../runtime/review/boundary.js"),
    import("../runtime/review/host.js"),
    import("../runtime/runs/facts.js"),
    import("../runtime/runs/store.js"),
  ]);
  const active = async (): Promise<number> => (await runFacts(session.fs, runsRootOf(session.paths.tmpRoot))).active_runs.length;
  await idlePortfolioCycle(session, reviewPolicy(session.env), active);
}
