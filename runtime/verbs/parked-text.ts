// What `review` says when the batch (drafts) or the portfolio (tools) it would review failed as
// often as it may: it is parked, no reply is read and no reviewer asked until a `review.retry`.
// A reply file given then is not read, and the answer says so with the command that unblocks it.
import { renderWord } from "../../core/template/report.js";
import type { Parked } from "../review/cycle.js";
import type { Reviewer } from "../review/reviewer.js";

/** A stored next action (`message to=... body={...}`) as a command line to type: a word holding
 *  anything a shell would read is single-quoted after its `key=`. */
export function commandLine(action: string): string {
  const words = action.split(" ").map((w) => {
    const eq = w.indexOf("=");
    return /^[A-Za-z0-9_=:.,/-]*$/.test(w) || eq < 0 ? w : `${w.slice(0, eq + 1)}'${w.slice(eq + 1).replace(/'/g, "'\\''")}'`;
  });
  return `pi-recipes ${words.join(" ")}`;
}

/** Why a review that failed as often as it may was not done now, and what unblocks it. `what`
 *  names it ("batch", "portfolio"); `review` is the command that reviews it again. */
export function parkedText(
  parked: Parked, phase: string, reviewer: Reviewer | undefined, scripted: string | undefined, what: string, review: string,
): string {
  const retry = commandLine(parked.retry);
  const times = `${parked.attempts} time${parked.attempts === 1 ? "" : "s"}`;
  if (!parked.before) return `\nretry: ${retry} (the ${what} failed ${times}: it is not reviewed again until then)`;
  const why = phase === "processing_failed"
    ? `its decisions are written and carrying them out failed ${times}; a retry resumes them, and reads no reply`
    : `the review of this ${what} failed ${times}, and no reply is read until a retry`;
  const unread = scripted !== undefined ? `not read: ${scripted} (${why})` : reviewer !== undefined ? `reviewer not asked (${why})` : `nothing reviewed (${why})`;
  // the file as a shell would retype it: a path with a quote, a space or `$(...)` pastes whole
  const then = phase === "processing_failed" ? review : `${review}${scripted === undefined ? "" : ` --scripted ${renderWord(scripted)}`}`;
  return `\n${unread}\nretry: ${retry}, then ${then}`;
}

/** The note on a cycle that ran without a reviewer: how to give one. Not on a review that was
 *  parked already, which reads no reply: pointing at --scripted would send the operator in
 *  circles. */
export const noReviewerHint = (reviewer: Reviewer | undefined, parked: Parked | undefined): string =>
  reviewer === undefined && parked?.before !== true ? " reviewer=none (set PI_RECIPES_REVIEWER or pass --scripted FILE)" : "";
