// The operator's verbs of the tool lifecycle:
//   review scope=tool [scripted=<file>]  one portfolio review cycle now (or why not: how many tools
//                                        are eligible of the 36 a portfolio needs)
//   activate                             carry out an approved portfolio plan now (a safe boundary:
//                                        a one-shot command holds no tool)
//   rollback tool=<name> revision=<n>    restore a tool's revision from its snapshot
// None of them is an agent tool. See docs/lifecycle.md.
import { LockTimeoutError } from "../../adapters/lock/Lock.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import { activatePortfolio } from "../review/activate.js";
import { reviewPolicy, withReviews, type ReviewPorts } from "../review/host.js";
import { runPortfolioCycle } from "../review/portfolio-cycle.js";
import type { Reviewer } from "../review/reviewer.js";
import { rollbackTool } from "../review/rollback.js";
import { ReviewStateUnreadable } from "../review/files.js";
import { unknownKeys, type Params } from "./verb-params.js";
import { noReviewerHint, parkedText } from "./parked-text.js";

/** The host's ports (its session's) and environment. */
export interface LifecycleVerbContext extends ReviewPorts {
  readonly env: NodeJS.ProcessEnv;
}

/** The answer when another process holds the review's lock: a review or an activation is under
 *  way there; nothing was done here (never an internal error with a stack trace). */
function reviewBusy(what: string, e: LockTimeoutError): CommandResult {
  const holder = e.message.slice(e.message.indexOf(";") + 1).trim();
  return failure(`${what}: another process is reviewing or activating now (${holder}); nothing was done. Try again when it ends.`, { busy: true, lock: e.path });
}

/** `run`, answered with reviewBusy when another process holds a lock it waits for, and with a
 *  failure naming the file when a review state does not read. */
export async function unlessBusy(what: string, run: () => Promise<CommandResult>): Promise<CommandResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof LockTimeoutError) return reviewBusy(what, e);
    if (e instanceof ReviewStateUnreadable) return failure(`${what}: ${e.message}`, { state_unreadable: e.path });
    throw e;
  }
}

/** One portfolio review cycle now; `scripted`: the reply file the reviewer reads, if one was given */
export function reviewToolsNow(reviewer: Reviewer | undefined, ctx: LifecycleVerbContext, scripted?: string): Promise<CommandResult> {
  return unlessBusy("tool review", () => reviewToolsNowLocked(reviewer, ctx, scripted));
}

async function reviewToolsNowLocked(reviewer: Reviewer | undefined, ctx: LifecycleVerbContext, scripted: string | undefined): Promise<CommandResult> {
  const policy = reviewer ?? reviewPolicy(ctx.env).reviewer;
  const report = await withReviews(ctx, (r) => runPortfolioCycle(r, policy === undefined ? { capture: true } : { reviewer: policy }));
  const did = report.steps.length === 0 ? "nothing to do" : report.steps.join(",");
  const eligible = report.eligible === undefined ? "" : ` eligible=${report.eligible.eligible}/${report.eligible.needed}`;
  const why =
    report.steps.length === 0 && report.eligible !== undefined && report.eligible.eligible < report.eligible.needed
      ? `\nno portfolio: ${report.eligible.eligible} of the ${report.eligible.needed} tools a review needs are eligible (active, valid, not sensitive, current content not yet reviewed)`
      : "";
  const hint = noReviewerHint(policy, report.parked);
  const where = report.phase === "captured" && report.projection !== undefined ? `\nprojection: ${report.projection}` : "";
  const next = report.phase === "approved" ? "\nnext: pi-recipes activate (or the next Pi session start or MCP server start)" : "";
  const text =
    `tool_review phase=${report.phase} steps=${did}${report.reviewId === undefined ? "" : ` review_id=${report.reviewId}`}${eligible}${hint}${why}${where}${next}` +
    (report.error === undefined ? "" : `\nlast_error: ${report.error}`) +
    (report.parked === undefined ? "" : parkedText(report.parked, report.phase, policy, scripted, "portfolio", "pi-recipes review scope=tool"));
  const ok = report.phase !== "failed" && report.phase !== "processing_failed";
  return ok ? success(text, { ...report }) : failure(text, { ...report });
}

export async function activateNow(params: Params, ctx: LifecycleVerbContext): Promise<CommandResult> {
  const bad = unknownKeys("activate", params, []);
  if (bad !== undefined) return bad;
  return unlessBusy("activation", () => activateNowLocked(ctx));
}

async function activateNowLocked(ctx: LifecycleVerbContext): Promise<CommandResult> {
  const report = await withReviews(ctx, (r) => activatePortfolio(r));
  const actions = report.actions === undefined ? "" : ` ${Object.entries(report.actions).map(([k, v]) => `${k}=${v}`).join(" ")}`;
  const recovered = report.recovered === true ? "\nthe plan had been carried out before an interruption; the review is recorded as completed now" : "";
  const text = `activation outcome=${report.outcome} phase=${report.phase}${report.reviewId === undefined ? "" : ` review_id=${report.reviewId}`}${actions}${recovered}` +
    (report.error === undefined ? "" : `\nlast_error: ${report.error}\nnext: fix the cause, then message to=tool:pi-actors type=review.retry body={"scope":"tool"} (or review.reset)`);
  return report.outcome === "failed" ? failure(text, { ...report }) : success(text, { ...report });
}

export async function rollbackNow(params: Params, ctx: LifecycleVerbContext): Promise<CommandResult> {
  const bad = unknownKeys("rollback", params, ["tool", "revision"]);
  if (bad !== undefined) return bad;
  const tool = params["tool"];
  const given = params["revision"];
  const revisionText = typeof given === "number" ? String(given) : given;
  if (typeof tool !== "string" || tool === "") return failure("rollback requires tool=<name>");
  if (typeof revisionText !== "string" || !/^[1-9][0-9]{0,8}$/.test(revisionText)) return failure("rollback requires revision=<n> (a positive integer)");
  const revision = Number(revisionText);
  return unlessBusy("rollback", () => rollbackNowLocked(ctx, tool, revision));
}

async function rollbackNowLocked(ctx: LifecycleVerbContext, tool: string, revision: number): Promise<CommandResult> {
  const r = await withReviews(ctx, (c) => rollbackTool(c, tool, revision));
  if (!r.ok) return failure(r.error);
  const text = r.changed
    ? r.new_revision === false
      ? `rolled back tool=${r.tool} to revision ${r.restored_revision}: its file holds that content again, which is its current revision ${r.revision} (revision_calls go on; lifetime_calls kept)`
      : `rolled back tool=${r.tool} to revision ${r.restored_revision}: now revision ${r.revision} (revision_calls restart at 0; lifetime_calls kept)`
    : `tool=${r.tool} already holds revision ${r.restored_revision}'s content (revision ${r.revision}); nothing changed`;
  return success(text, { ...r });
}
