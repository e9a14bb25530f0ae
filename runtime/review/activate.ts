// Activation of an approved portfolio plan at a safe boundary: Pi's `session_start`, an MCP
// server's start, or `pi-recipes activate`. Never in the middle of a session: tools change only
// when no agent holds them. Everything happens in ONE journal plan, inside the recipe-root fence
// (no launch checks its source or counts meanwhile) and the ledger store lock: the renames
// (evolve, demote, the merge survivor), the quarantine of merged-away members, the lineage
// records (core/review/portfolio-lineage.ts), a revision snapshot of every surviving tool, and an
// activation record. After a crash anywhere the next command that opens the ledger store rolls the
// plan forward, so the recipes and their lineages are always both before or both after, and
// activation never stops half-way. See docs/lifecycle.md.
import * as E from "fp-ts/lib/Either.js";
import { join } from "node:path";
import type { StepInput } from "../../core/journal/plan.js";
import { pathKey } from "../../core/ledger/keys.js";
import { lineageErrorText, portfolioLineage } from "../../core/review/portfolio-lineage.js";
import { planBreaks, readersOf } from "../../core/review/portfolio-decide.js";
import { snapshotOf, snapshotPath } from "../../core/review/snapshot.js";
import { TOOL_RECAPTURE_ACTION, toolFailed, toolMoved, type ToolReviewState } from "../../core/review/tool-admission.js";
import { discoverThroughFs } from "../fs-discovery.js";
import { currentState, newPlanId, runSteps } from "../journal/index.js";
import { seedLineages, sha256Bytes, withRootFence } from "../ledger/index.js";
import { isoAt } from "../ledger/ledger-context.js";
import { foldLocked } from "../ledger/fold-logs.js";
import { commitSteps, readIndex, readLedgers, withStore } from "../ledger/ledger-store.js";
import { isoNow, type ReviewContext } from "./review-context.js";
import { exists, readJsonOrUndefined, writeJson } from "./files.js";
import { readApproved, readToolState, toolReviewDir, toolStatePath } from "./portfolio-cycle.js";
import { rootChanged, stepPaths, symlinkBelowRoot, symlinkOnPlan } from "./root-guard.js";

export const ACTIVATED_FILE = "activated.json";
export const TOOL_QUARANTINE_DIR = "quarantine";
/** the kind of the activation's journal plan (the view tells a pending one by it) */
export const ACTIVATION_KIND = "tool-review-activation";

export interface ActivationReport {
  /** none: nothing approved; activated: this call carried the plan out; completed: it was
   *  already; failed: it could not run (the state says why; nothing was changed) */
  readonly outcome: "none" | "activated" | "completed" | "failed";
  readonly phase: string;
  readonly reviewId?: string;
  readonly actions?: Readonly<Record<string, number>>;
  readonly error?: string;
  /** the plan had been carried out already (an activation a crash cut short, finished when the
   *  ledger store was next opened): this call only recorded the review as completed */
  readonly recovered?: boolean;
}

/** Test-only breakage, for showing the crash property catches it: `lineageFirst` commits the
 *  lineages in a plan of their own before the files move (the split this design rules out). */
export interface ActivationFaults {
  readonly lineageFirst?: boolean;
}

const write = (ctx: ReviewContext, s: ToolReviewState): Promise<void> => writeJson(ctx.fs, toolStatePath(ctx.paths), s);

const base = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

async function sameRoot(ctx: ReviewContext, state: ToolReviewState): Promise<void> {
  const moved = state.root === undefined ? undefined : await rootChanged(ctx.fs, ctx.paths.recipeRoot, state.root, "activation");
  if (moved !== undefined) throw new Error(moved);
}

/** Runs the plan's one journal plan unless its activation record shows it already ran. */
async function carryOut(ctx: ReviewContext, state: ToolReviewState, faults: ActivationFaults): Promise<{ readonly actions: Record<string, number>; readonly already: boolean }> {
  const plan = await readApproved(ctx, state);
  if (plan === undefined) throw new Error(`approved plan of review ${state.reviewId} is missing or changed`);
  const actions: Record<string, number> = {};
  for (const s of plan.sources) actions[s.action] = (actions[s.action] ?? 0) + 1;
  const dir = toolReviewDir(ctx.paths, state.reviewId);
  const marker = join(dir, ACTIVATED_FILE);
  // a plan a crash interrupted is finished first (the store lock recovers the ledger's journals)
  await withStore(ctx.ledger, async () => undefined);
  const done = (await readJsonOrUndefined(ctx.fs, marker)) as { approvedSha256?: string } | undefined;
  if (done?.approvedSha256 === state.approvedSha256) return { actions, already: true };
  // nothing is written (not even a seeded lineage) into a root that is not the one captured
  await sameRoot(ctx, state);
  // the lineages must know every tool's current content first (a revision is recorded by seeding)
  const reads = new Map<string, readonly string[]>();
  const discovery = await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot, { reads });
  // a recipe written since approval that imports a tool the plan moves away stops the plan here,
  // where the files move (approval checked the recipes there were then)
  const breaks = planBreaks(plan.sources, readersOf(discovery.entries, reads));
  if (breaks.length > 0) throw new Error(breaks.join("; "));
  await seedLineages(ctx.ledger, discovery);
  const at = isoAt(ctx.now());
  await withRootFence(ctx.ledger, () =>
    withStore(ctx.ledger, async () => {
      await foldLocked(ctx.ledger);
      const bytes = new Map<string, Uint8Array>();
      for (const s of plan.sources) {
        const b = await ctx.fs.readFile(s.path).catch(() => undefined);
        if (b === undefined || sha256Bytes(b) !== s.sha256) throw new Error(`Reviewed tool changed after approval: ${s.name}`);
        bytes.set(s.path, b);
      }
      // a file that appeared at a target since approval is someone's: the plan never replaces it,
      // nor puts a tool beside the .md or .json of the same name (the two would shadow each other)
      const sourcePaths = new Set(plan.sources.map((s) => s.path));
      for (const { to } of plan.sources) {
        if (to === undefined) continue;
        const stem = to.replace(/\.(json|md)$/, "");
        for (const p of [to, `${stem}.json`, `${stem}.md`]) if (!sourcePaths.has(p) && (await exists(ctx.fs, p))) throw new Error(`Tool review target appeared after approval: ${p}`);
      }
      const { index } = await readIndex(ctx.ledger);
      const keyOf = (p: string): string | undefined => pathKey(ctx.paths.recipeRoot, p);
      // the lineage plan reads only the sources' ledgers (a target's key receives one of them)
      const keys = plan.sources.flatMap((s) => keyOf(s.path) ?? []);
      const ledgers = await readLedgers(ctx.ledger, keys.flatMap((k) => index.paths[k]?.ledger ?? []));
      const lineage = portfolioLineage({ index, ledgers, missing: new Set() }, plan, { keyOf }, at);
      if (E.isLeft(lineage)) throw new Error(lineageErrorText(lineage.left));
      const files: StepInput[] = [];
      plan.sources.forEach((s, i) => {
        if (s.move === "rename") files.push({ op: "rename", from: s.path, to: s.to!, before: { hash: s.sha256 }, replaced: null });
        if (s.move === "quarantine")
          files.push({ op: "rename", from: s.path, to: join(dir, TOOL_QUARANTINE_DIR, `${String(i + 1).padStart(4, "0")}-${base(s.path)}`), before: { hash: s.sha256 }, replaced: null });
      });
      const snapshots: StepInput[] = [];
      for (const { record, source } of lineage.right.survivors.values()) {
        const path = snapshotPath(ctx.paths.usageRoot, record.lineage_name, record.revision);
        const content = `${JSON.stringify(snapshotOf({ record, bytes: bytes.get(source.path)!, path: source.path, sha256: source.sha256, reviewId: plan.reviewId, at }), null, 2)}\n`;
        snapshots.push({ op: "write", path, before: await currentState(ctx.fs, path), content });
      }
      const record: StepInput = { op: "write", path: marker, before: await currentState(ctx.fs, marker), content: `${JSON.stringify({ reviewId: plan.reviewId, approvedSha256: state.approvedSha256, at, actions })}\n` };
      const [ledgerWrites = [], ...rest] = await commitSteps(ctx.ledger, lineage.right.plan);
      // and again right before the plan is written, inside the fence: every path it touches
      // lies in the captured root's own folders
      await sameRoot(ctx, state);
      const link = await symlinkBelowRoot(ctx.fs, ctx.paths.recipeRoot, stepPaths([...files, ...ledgerWrites, ...snapshots, record, ...rest.flat()]));
      if (link !== undefined) throw new Error(symlinkOnPlan(ctx.paths.recipeRoot, link, "activation"));
      if (faults.lineageFirst === true) {
        await runSteps(ctx.fs, ctx.ledger.paths.journals, { id: newPlanId(ctx.now()), kind: ACTIVATION_KIND, phases: [ledgerWrites, ...rest], root: ctx.paths.recipeRoot });
        await runSteps(ctx.fs, ctx.ledger.paths.journals, { id: newPlanId(ctx.now()), kind: ACTIVATION_KIND, phases: [[...files, ...snapshots, record]], root: ctx.paths.recipeRoot });
        return;
      }
      await runSteps(ctx.fs, ctx.ledger.paths.journals, {
        id: newPlanId(ctx.now()),
        kind: ACTIVATION_KIND,
        phases: [[...files, ...ledgerWrites, ...snapshots, record], ...rest],
        // the journal engine checks the root's folders again right before it writes, and before
        // a recovery replays the plan after a crash
        root: ctx.paths.recipeRoot,
      });
    }),
  );
  return { actions, already: false };
}

/** Removes a completed review's quarantine (the merged-away members); repeatable. */
async function collect(ctx: ReviewContext, state: ToolReviewState): Promise<void> {
  await ctx.fs.rm(join(toolReviewDir(ctx.paths, state.reviewId), TOOL_QUARANTINE_DIR), { recursive: true, force: true });
}

async function activateLocked(ctx: ReviewContext, faults: ActivationFaults): Promise<ActivationReport> {
  const state = await readToolState(ctx);
  if (state === undefined) return { outcome: "none", phase: "idle" };
  if (state.phase === "completed") {
    await collect(ctx, state);
    return { outcome: "completed", phase: "completed", reviewId: state.reviewId };
  }
  if (state.phase !== "approved") return { outcome: "none", phase: state.phase, reviewId: state.reviewId };
  let carried: { readonly actions: Record<string, number>; readonly already: boolean };
  try {
    carried = await carryOut(ctx, state, faults);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // a recipe that reads a moved tool keeps failing a retry until it changes; a new capture
    // leaves that tool out
    const next = toolFailed(state, "processing_failed", "activation", message, isoNow(ctx), message.startsWith("Tool review would break ") ? TOOL_RECAPTURE_ACTION : undefined);
    await write(ctx, next);
    return { outcome: "failed", phase: next.phase, reviewId: state.reviewId, error: next.lastError! };
  }
  await write(ctx, toolMoved(state, "completed", isoNow(ctx)));
  await collect(ctx, state);
  const { actions, already } = carried;
  return already
    ? { outcome: "completed", phase: "completed", reviewId: state.reviewId, actions, recovered: true }
    : { outcome: "activated", phase: "completed", reviewId: state.reviewId, actions };
}

/** Carries out an approved portfolio plan, if there is one. */
export function activatePortfolio(ctx: ReviewContext, faults: ActivationFaults = {}): Promise<ActivationReport> {
  return ctx.lock.withLock(toolStatePath(ctx.paths), () => activateLocked(ctx, faults), { timeoutMs: ctx.lockTimeoutMs });
}
