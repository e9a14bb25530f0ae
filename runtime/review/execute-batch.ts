// Executing a reviewed batch through the journal engine. Each round observes what every item's
// files hold, turns what is still to do into one journal plan (targets written and the quarantine
// folder made first, then the drafts renamed into quarantine) and runs it. A crash anywhere is
// finished or undone by the engine's recovery, and the next round observes again, so the
// executor converges from any point and never overwrites or deletes a file it did not plan for:
// a draft changed or moved by someone since the capture is left alone (the batch shrinks), and a
// target that appeared meanwhile is never replaced.
import { join } from "node:path";
import { buildPlan, planErrorText, type StepInput } from "../../core/journal/plan.js";
import type { ExecutionPlan, PlanItem } from "../../core/review/decide.js";
import { planFaults } from "../../core/review/plan-check.js";
import { canonicalLockPath } from "../../adapters/lock/canonical-path.js";
import { PlanFailed, recoverJournals, runPlan } from "../../runtime/journal/index.js";
import { promoteLineage } from "../ledger/index.js";
import { journalDirOf, QUARANTINE_DIR, type ReviewContext } from "./review-context.js";
import { exists, fileSha } from "./files.js";
import { stepPaths, symlinkBelowRoot, symlinkOnPlan } from "./root-guard.js";
import { pathKey } from "../../core/ledger/keys.js";

export type Outcome = "promoted" | "discarded" | "skipped_source_changed" | "skipped_source_moved" | "skipped_source_promoted" | "skipped_target_taken" | "pending";

export interface ItemOutcome {
  readonly position: number;
  readonly action: "promote" | "discard";
  readonly source: string;
  readonly outcome: Outcome;
  readonly target?: string;
}

type SourceState = "original" | "changed" | "quarantined" | "gone";
type TargetState = "absent" | "intended" | "other";

interface Observed {
  readonly item: PlanItem;
  readonly source: SourceState;
  readonly target?: TargetState;
  /** the draft was promoted by hand (register_tool draft=) since the capture: its lineage lives
   *  on as a tool, and promoting it again would make a second tool of it */
  readonly promotedAway?: boolean;
}

const quarantinePath = (dir: string, item: PlanItem): string => join(dir, QUARANTINE_DIR, item.quarantine);

async function observe(ctx: ReviewContext, dir: string, item: PlanItem): Promise<Observed> {
  const at = await fileSha(ctx.fs, item.source);
  let source: SourceState;
  if (at === item.sha256) source = "original";
  // already moved by an earlier round: a file saved at the draft's path since is a new draft,
  // left alone, and the item stays done
  else if ((await fileSha(ctx.fs, quarantinePath(dir, item))) === item.sha256) source = "quarantined";
  else source = at === undefined ? "gone" : "changed";
  if (item.target === undefined) return { item, source };
  const t = await fileSha(ctx.fs, item.target.path);
  // a target whose bytes could not be read is looked at again only to tell absent from a folder
  const target: TargetState = t !== undefined ? (t === item.target.sha256 ? "intended" : "other") : (await exists(ctx.fs, item.target.path)) ? "other" : "absent";
  return { item, source, target };
}

function outcomeOf(o: Observed): Outcome {
  const { item, source, target } = o;
  if (item.action === "discard") {
    return source === "quarantined" ? "discarded" : source === "original" ? "pending" : source === "changed" ? "skipped_source_changed" : "skipped_source_moved";
  }
  if (target === "intended" && source !== "original") return "promoted";
  if (source === "quarantined") return "promoted";
  if (o.promotedAway === true && target !== "intended") return "skipped_source_promoted";
  if (source === "changed") return "skipped_source_changed";
  if (source === "gone") return "skipped_source_moved";
  return target === "other" ? "skipped_target_taken" : "pending";
}

/** The steps still to do, as engine input: targets and the quarantine folder, then renames. */
async function remaining(ctx: ReviewContext, dir: string, observed: readonly Observed[]): Promise<StepInput[][]> {
  const first: StepInput[] = [];
  const second: StepInput[] = [];
  for (const o of observed) {
    if (outcomeOf(o) !== "pending") continue;
    const { item } = o;
    if (item.target !== undefined && o.target === "absent") first.push({ op: "write", path: item.target.path, before: null, content: item.target.content });
    second.push({ op: "rename", from: item.source, to: quarantinePath(dir, item), before: { hash: item.sha256 }, replaced: null });
  }
  if (second.length === 0) return [];
  const folder = join(dir, QUARANTINE_DIR);
  if (!(await exists(ctx.fs, folder))) first.unshift({ op: "mkdir", path: folder });
  // an empty first phase is fine: the engine runs no operation for it
  return [first, second];
}

async function withTargetLocks<A>(ctx: ReviewContext, paths: readonly string[], run: () => Promise<A>): Promise<A> {
  const keys = [...new Set(await Promise.all(paths.map((p) => canonicalLockPath(ctx.fs, p))))].sort();
  const nest = (i: number): Promise<A> => (i >= keys.length ? run() : ctx.lock.withLock(keys[i]!, () => nest(i + 1), { timeoutMs: ctx.lockTimeoutMs }));
  return nest(0);
}

const ROUNDS = 4;

const NONE_PROMOTED: ReadonlyMap<string, string> = new Map();

/**
 * Brings every item of the plan to its end state and reports each item's outcome; `promoted`:
 * the draft keys promoted by hand since the capture (their promotions are skipped). Throws when
 * the engine keeps refusing (for example a journal it had to set aside): the caller records a
 * processing failure and a later tick tries again; nothing has been lost.
 */
export async function executePlan(ctx: ReviewContext, dir: string, plan: ExecutionPlan, promoted: ReadonlyMap<string, string> = NONE_PROMOTED): Promise<ItemOutcome[]> {
  // defence in depth: an action the executor does not know is never read as a promotion
  const faults = planFaults(plan);
  if (faults.length > 0) throw new Error(`Draft review plan refused: ${faults.join("; ")}`);
  const journals = journalDirOf(dir);
  let observed: Observed[] = [];
  for (let round = 0; ; round++) {
    const recovered = await recoverJournals(ctx.fs, journals);
    for (const r of recovered) if (r.outcome === "quarantined") throw new Error(`Draft review journal set aside (${r.reason}): ${r.quarantinedAs}`);
    observed = [];
    for (const item of plan.items) {
      const o = await observe(ctx, dir, item);
      // promoted elsewhere: its lineage lives at another path than this item's own target (a
      // lineage at the target is this batch's own promotion, recorded before a crash)
      const key = pathKey(ctx.paths.recipeRoot, item.source);
      const now = key === undefined ? undefined : promoted.get(key);
      const away = item.action === "promote" && now !== undefined && now !== (item.target === undefined ? undefined : pathKey(ctx.paths.recipeRoot, item.target.path));
      observed.push(away ? { ...o, promotedAway: true } : o);
    }
    const phases = await remaining(ctx, dir, observed);
    if (phases.length === 0) break;
    if (round >= ROUNDS) throw new Error(`Draft review of batch ${plan.batchId} did not settle after ${ROUNDS} rounds`);
    const built = buildPlan({ id: `${plan.batchId}-r${round}`, kind: "draft-review", phases });
    if (built._tag === "Left") throw new Error(`Draft review plan rejected: ${planErrorText(built.left)}`);
    // as the tool review: nothing is written through a symlinked folder below the recipe root
    // (a linked drafts/ would have the review move files out of some other folder)
    const link = await symlinkBelowRoot(ctx.fs, ctx.paths.recipeRoot, stepPaths(phases.flat()));
    if (link !== undefined) throw new Error(symlinkOnPlan(ctx.paths.recipeRoot, link, "draft review"));
    const targets = plan.items.flatMap((i) => (i.target === undefined ? [] : [i.target.path]));
    try {
      await withTargetLocks(ctx, targets, () => runPlan(ctx.fs, journals, built.right));
    } catch (e) {
      // a file changed between observing and running: observe again
      if (!(e instanceof PlanFailed)) throw e;
    }
  }
  return observed.map((o) => ({
    position: o.item.position,
    action: o.item.action,
    source: o.item.source,
    outcome: outcomeOf(o),
    ...(o.item.target === undefined ? {} : { target: o.item.target.name }),
  }));
}

/** Moves the lineage of every promoted draft to its tool; repeating a finished move is a no-op. */
export async function moveLineages(ctx: ReviewContext, plan: ExecutionPlan, outcomes: readonly ItemOutcome[]): Promise<string[]> {
  const diagnostics: string[] = [];
  for (const o of outcomes) {
    const item = plan.items.find((i) => i.position === o.position);
    if (o.outcome !== "promoted" || item?.target === undefined) continue;
    const moved = await promoteLineage(ctx.ledger, { from: item.source, to: item.target.path, moveFile: false });
    if (!moved.ok) diagnostics.push(moved.diagnostic);
  }
  return diagnostics;
}
