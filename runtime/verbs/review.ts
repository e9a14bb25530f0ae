// `review [scope=draft] [scripted=<file>]`: one automatic draft review cycle now, for operators
// and tests. It recovers or cleans up a previous batch first, then captures and reviews a batch
// when twelve drafts are eligible. The reply comes from the scripted file when given, else from
// the configured reviewer.
import { failure, success, type CommandResult } from "../../core/result.js";
import { runCycle } from "../review/cycle.js";
import { BATCH_SIZE } from "../../core/review/batch.js";
import { noReviewerHint, parkedText } from "./parked-text.js";
import { reviewPolicy, withReviews } from "../review/host.js";
import { scriptedReviewer, type Reviewer } from "../review/reviewer.js";
import { reviewToolsNow, unlessBusy, type LifecycleVerbContext } from "./lifecycle.js";
import { unknownKeys, type Params } from "./verb-params.js";

export interface ReviewVerbContext extends LifecycleVerbContext {
  readonly readFile: (path: string) => Promise<string>;
}

export async function reviewNow(params: Params, ctx: ReviewVerbContext): Promise<CommandResult> {
  const bad = unknownKeys("review", params, ["scope", "scripted"]);
  if (bad !== undefined) return bad;
  const scope = params["scope"] ?? "draft";
  if (scope !== "draft" && scope !== "tool") return failure(`review supports scope=draft or scope=tool (got ${JSON.stringify(scope)})`);
  const scripted = params["scripted"];
  let reviewer: Reviewer | undefined;
  if (scripted !== undefined) {
    if (typeof scripted !== "string" || scripted === "") return failure("review scripted= must be a file path");
    try {
      reviewer = scriptedReviewer(await ctx.readFile(scripted), scripted);
    } catch (e) {
      return failure(`review could not read the scripted reply ${scripted}: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else reviewer = reviewPolicy(ctx.env).reviewer;
  if (scope === "tool") return reviewToolsNow(reviewer, ctx, typeof scripted === "string" ? scripted : undefined);
  return unlessBusy("draft review", () => reviewDraftsNow(reviewer, typeof scripted === "string" ? scripted : undefined, ctx));
}

async function reviewDraftsNow(reviewer: Reviewer | undefined, scripted: string | undefined, ctx: ReviewVerbContext): Promise<CommandResult> {
  const report = await withReviews(ctx, (r) => runCycle(r, reviewer === undefined ? { capture: true } : { reviewer }));
  // a capture that found too few drafts says so, not just "nothing to do"
  const few = report.eligible === undefined ? "" : ` (${report.eligible} draft${report.eligible === 1 ? "" : "s"}, a batch needs ${BATCH_SIZE})`;
  // nor one that could not list the drafts folder: the drafts it holds are unknown, which is no
  // "nothing to do" but a review that could not run
  const did = (report.steps.length === 0 ? (report.unlisted === undefined ? "nothing to do" : "none") : report.steps.join(",")) + few;
  const hint = noReviewerHint(reviewer, report.parked);
  const where = report.phase === "captured" && report.projection !== undefined ? `\nprojection: ${report.projection}` : "";
  const actions = report.actions === undefined ? "" : `\nactions: ${Object.entries(report.actions).map(([k, v]) => `${k}=${v}`).join(" ")}`;
  const skipped = Object.entries(report.actions ?? {}).filter(([k, v]) => k.startsWith("skipped_") && v > 0);
  const warn = skipped.length === 0 ? "" : `\nnot carried out: ${skipped.map(([k, v]) => `${v} ${k.slice("skipped_".length).replace(/_/g, " ")}`).join(", ")} (see inspect target=recipes view=reviews)`;
  const text = `draft_review phase=${report.phase} steps=${did}${report.batchId === undefined ? "" : ` batch=${report.batchId}`}${hint}${where}${actions}${warn}` +
    (report.error === undefined ? "" : `\nlast_error: ${report.error}`) +
    (report.parked === undefined ? "" : parkedText(report.parked, report.phase, reviewer, scripted, "batch", "pi-recipes review")) +
    (report.unlisted === undefined ? "" : `\nnot captured: ${report.unlisted}`);
  const ok = report.phase !== "failed" && report.phase !== "processing_failed" && report.unlisted === undefined;
  return ok ? success(text, { ...report }) : failure(text, { ...report });
}
