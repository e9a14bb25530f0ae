// The tool portfolio review at the hosts' safe boundaries: activation of an approved plan before
// the tool set is read (Pi's session_start, an MCP server's start), and one portfolio cycle when
// the host is idle (after a foreground turn, with no run active). Neither throws: a review must
// never cost a host its tools; failures are evidence in `inspect target=recipes view=reviews`.
import { activatePortfolio, type ActivationReport } from "./activate.js";
import { withReviews, type ReviewPolicy, type ReviewPorts } from "./host.js";
import { runPortfolioCycle, type PortfolioCycleReport } from "./portfolio-cycle.js";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Carries out an approved portfolio plan, if any; run it before the recipe root is read. */
export async function activateAtBoundary(ports: ReviewPorts): Promise<ActivationReport | { readonly error: string }> {
  try {
    return await withReviews(ports, (ctx) => activatePortfolio(ctx));
  } catch (e) {
    return { error: message(e) };
  }
}

/** One portfolio cycle when the policy allows it, a reviewer exists and no run is active. */
export async function idlePortfolioCycle(
  ports: ReviewPorts,
  policy: ReviewPolicy,
  activeRuns: () => number | Promise<number>,
): Promise<PortfolioCycleReport | { readonly skipped: string }> {
  if (!policy.enabled) return { skipped: "policy_off" };
  if (policy.reviewer === undefined) return { skipped: "no_reviewer" };
  if ((await activeRuns()) > 0) return { skipped: "runs_active" };
  try {
    return await withReviews(ports, (ctx) => runPortfolioCycle(ctx, { reviewer: policy.reviewer! }));
  } catch (e) {
    return { skipped: `error: ${message(e)}` };
  }
}
