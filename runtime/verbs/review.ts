// `review [scope=draft] [scripted=<file>]`: one automatic draft review cycle now, for operators
// and tests. It recovers or cleans up a previous batch first, then captures and reviews a batch
// when twelve drafts are eligible. The reply comes from the scripted file when given, else from
// the configured reviewer.
import { failure, success, type CommandResult } from "../../core/result.js";
import { runCycle, type CycleReport } from "../review/cycle.js";
import { BATCH_SIZE } from "../../core/review/batch.js";
import { renderWord } from "../../core/template/report.js";
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
  if (scope === "tool") return reviewToolsNow(reviewer, ctx);
  return unlessBusy("draft review", () => reviewDraftsNow(reviewer, typeof scripted === "string" ? scripted : undefined, ctx));
}

/** A stored next action (`message to=... body={...}`) as a command line to type: a word holding
 *  anything a shell would read is single-quoted after its `key=`. */
export function commandLine(action: string): string {
  const words = action.split(" ").map((w) => {
    const eq = w.indexOf("=");
    return /^[A-Za-z0-9_=:.,/-]*$/.test(w) || eq < 0 ? w : `${w.slice(0, eq + 1)}'${w.slice(eq + 1).replace(/'/g, "'\\''")}'`;
  });
  return `pi-recipes ${words.join(" ")}`;
}

/** Why a batch that failed as often as it may was not reviewed now, and what unblocks it. */
function parkedText(parked: NonNullable<CycleReport["parked"]>, phase: string, reviewer: Reviewer | undefined, scripted: string | undefined): string {
  const retry = commandLine(parked.retry);
  const times = `${parked.attempts} time${parked.attempts === 1 ? "" : "s"}`;
  if (!parked.before) return `\nretry: ${retry} (the batch failed ${times}: it is not reviewed again until then)`;
  const why = phase === "processing_failed"
    ? `its decisions are written and carrying them out failed ${times}; a retry resumes them, and reads no reply`
    : `the review of this batch failed ${times}, and no reply is read until a retry`;
  const unread = scripted !== undefined ? `not read: ${scripted} (${why})` : reviewer !== undefined ? `reviewer not asked (${why})` : `nothing reviewed (${why})`;
  // the file as a shell would retype it: a path with a quote, a space or `$(...)` pastes whole
  const then = phase === "processing_failed" ? "pi-recipes review" : `pi-recipes review${scripted === undefined ? "" : ` --scripted ${renderWord(scripted)}`}`;
  return `\n${unread}\nretry: ${retry}, then ${then}`;
}

async function reviewDraftsNow(reviewer: Reviewer | undefined, scripted: string | undefined, ctx: ReviewVerbContext): Promise<CommandResult> {
  const report = await withReviews(ctx, (r) => runCycle(r, reviewer === undefined ? { capture: true } : { reviewer }));
  // a capture that found too few drafts says so, not just "nothing to do"
  const few = report.eligible === undefined ? "" : ` (${report.eligible} draft${report.eligible === 1 ? "" : "s"}, a batch needs ${BATCH_SIZE})`;
  // nor one that could not list the drafts folder: the drafts it holds are unknown, which is no
  // "nothing to do" but a review that could not run
  const did = (report.steps.length === 0 ? (report.unlisted === undefined ? "nothing to do" : "none") : report.steps.join(",")) + few;
  // a parked batch reads no reply, so pointing at --scripted would send the operator in circles
  const hint = reviewer === undefined && report.parked?.before !== true ? " reviewer=none (set PI_RECIPES_REVIEWER or pass --scripted FILE)" : "";
  const where = report.phase === "captured" && report.projection !== undefined ? `\nprojection: ${report.projection}` : "";
  const actions = report.actions === undefined ? "" : `\nactions: ${Object.entries(report.actions).map(([k, v]) => `${k}=${v}`).join(" ")}`;
  const skipped = Object.entries(report.actions ?? {}).filter(([k, v]) => k.startsWith("skipped_") && v > 0);
  const warn = skipped.length === 0 ? "" : `\nnot carried out: ${skipped.map(([k, v]) => `${v} ${k.slice("skipped_".length).replace(/_/g, " ")}`).join(", ")} (see inspect target=recipes view=reviews)`;
  const text = `draft_review phase=${report.phase} steps=${did}${report.batchId === undefined ? "" : ` batch=${report.batchId}`}${hint}${where}${actions}${warn}` +
    (report.error === undefined ? "" : `\nlast_error: ${report.error}`) +
    (report.parked === undefined ? "" : parkedText(report.parked, report.phase, reviewer, scripted)) +
    (report.unlisted === undefined ? "" : `\nnot captured: ${report.unlisted}`);
  const ok = report.phase !== "failed" && report.phase !== "processing_failed" && report.unlisted === undefined;
  return ok ? success(text, { ...report }) : failure(text, { ...report });
}
