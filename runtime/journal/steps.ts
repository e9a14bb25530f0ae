// Small helpers for callers that build a plan from what is on disk now.
import { randomUUID } from "node:crypto";
import * as E from "fp-ts/lib/Either.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import { buildPlan, planErrorText, type ContentHash, type PlanInput } from "../../core/journal/plan.js";
import { observe } from "./apply.js";
import { runPlan } from "./run-plan.js";

/** A file's state for a step's `before`: its hash (content not kept: the step is one-way),
 *  or null when absent. A folder or special file there is an error: plans replace files only. */
export async function currentState(fs: FileSystem, path: string): Promise<{ readonly hash: ContentHash } | null> {
  const state = await observe(fs, path);
  if (state === null) return null;
  if (state === "dir" || state === "other") throw new Error(`${path} is not a regular file`);
  return { hash: state };
}

/** A file's current bytes for a step's `before`, so that the step can be undone; null: absent. */
export async function currentBytes(fs: FileSystem, path: string): Promise<Uint8Array | null> {
  if ((await currentState(fs, path)) === null) return null;
  return fs.readFile(path);
}

/** Plan ids that sort by creation time and never collide. */
export const newPlanId = (nowMs: number): string => `${nowMs.toString(36).padStart(9, "0")}-${randomUUID()}`;

/** buildPlan + runPlan; a malformed plan is a programming error and throws. */
export async function runSteps(fs: FileSystem, journalDir: string, input: PlanInput): Promise<void> {
  const plan = buildPlan(input);
  if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
  await runPlan(fs, journalDir, plan.right);
}
