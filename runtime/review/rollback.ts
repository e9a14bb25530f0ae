// Snapshot rollback, the operator's `pi-recipes rollback tool=<name> revision=<n>` (never an agent
// tool): the tool's file gets the exact bytes of revision n's snapshot back, and its lineage
// records a rollback (a new revision whose calls start at zero; lifetime calls go on;
// `rollback_of_revision` names n). Both go in ONE journal plan, written (hash-authenticated)
// before the recipe or the lineage changes, inside the recipe-root fence and the ledger store
// lock: an interrupted rollback rolls forward when the next command opens the store. Asking for
// the same rollback again changes nothing.
import { dirname, join } from "node:path";
import type { StepInput } from "../../core/journal/plan.js";
import { otherFormat, pathKey } from "../../core/ledger/keys.js";
import { rolledBack } from "../../core/ledger/transitions.js";
import { Working } from "../../core/ledger/working.js";
import { snapshotBytes, snapshotPath, type RevisionSnapshot } from "../../core/review/snapshot.js";
import type { LedgerRecord } from "../../core/ledger/codec.js";
import { newPlanId, runSteps } from "../journal/index.js";
import { isoAt } from "../ledger/ledger-context.js";
import { seedLineages, sha256Bytes, withRootFence } from "../ledger/index.js";
import { discoverThroughFs } from "../fs-discovery.js";
import { foldLocked } from "../ledger/fold-logs.js";
import { commitSteps, readIndex, readLedgers, withStore } from "../ledger/ledger-store.js";
import type { ReviewContext } from "./review-context.js";
import { fileSha, readJsonOrUndefined } from "./files.js";
import { realRoot, rootChanged, stepPaths, symlinkBelowRoot, symlinkOnPlan } from "./root-guard.js";

export type RollbackResult =
  | {
      readonly ok: true;
      readonly tool: string;
      readonly path: string;
      readonly restored_revision: number;
      readonly revision: number;
      readonly changed: boolean;
      /** false (else absent) when no new revision was recorded: the file was written back with
       *  the content the lineage already had (a deleted file restored, other bytes of the same
       *  recipe), so its revision's calls go on */
      readonly new_revision?: false;
    }
  | { readonly ok: false; readonly error: string };

const withExtension = (path: string, extension: string): string => {
  const dot = path.lastIndexOf(".");
  return `${dot > path.lastIndexOf("/") ? path.slice(0, dot) : path}${extension}`;
};

/** The lineage's revision `revision` as a snapshot: in the ring of its name, else of each name it
 *  had before (newest first: a rename, by hand or by a review, leaves the older snapshots in the
 *  ring of the name they were taken under). A snapshot is this lineage's only when its
 *  fingerprint is the one the lineage recorded for that revision (a name can be reused by
 *  another lineage, whose ring then holds its own revisions); without that record (older than
 *  the kept history) only the current name's ring is trusted. Else why not, for the current name. */
async function findSnapshot(ctx: ReviewContext, record: LedgerRecord, revision: number): Promise<{ readonly at: string; readonly snap: { bytes: Uint8Array; snapshot: RevisionSnapshot } } | string> {
  const tool = record.lineage_name;
  const recorded = record.revisions.find((r) => r.revision === revision)?.fingerprint;
  const names = recorded === undefined ? [tool] : [...new Set([tool, ...[...record.former_names].reverse()])];
  let first: string | undefined;
  for (const name of names) {
    const at = snapshotPath(ctx.paths.usageRoot, name, revision);
    // a snapshot is trusted only as the file the activation wrote: a symlink (to the file or
    // its ring folder) could hand any bytes that carry a matching digest to the recipe root
    for (const p of [dirname(at), at]) if ((await ctx.fs.lstat(p).catch(() => undefined))?.kind === "symlink") return `Recipe revision snapshot symlink is not allowed: ${p}`;
    const snap = snapshotBytes(await readJsonOrUndefined(ctx.fs, at), name, revision, sha256Bytes);
    if (typeof snap !== "string" && (recorded === undefined || snap.snapshot.fingerprint === recorded)) return { at, snap };
    first ??= `${typeof snap === "string" ? snap : "Invalid or rotated recipe revision snapshot."} (${tool} revision ${revision})`;
  }
  return first!;
}

/** Whether no lineage of that name has its file there (read without the store's lock: it only
 *  decides whether to seed first, which takes the lock and reads again). */
async function stale(ctx: ReviewContext, tool: string): Promise<boolean> {
  const { index } = await readIndex(ctx.ledger);
  const ledgers = await readLedgers(ctx.ledger, Object.values(index.paths).map((e) => e.ledger));
  const named = [...ledgers].filter(([, r]) => r.lineage_name === tool);
  return named.length === 0 || (await firstLive(ctx, named)) === undefined;
}

/** The first of `named` whose recipe file is there. */
async function firstLive<T extends readonly [string, LedgerRecord]>(ctx: ReviewContext, named: readonly T[]): Promise<T | undefined> {
  for (const entry of named) if ((await ctx.fs.lstat(join(ctx.paths.recipeRoot, entry[1].current_path)).catch(() => undefined)) !== undefined) return entry;
  return undefined;
}

/** Why no lineage is named `tool`: when one had that name before (renamed, merged), which tool it is now. */
function unavailable(tool: string, records: readonly LedgerRecord[]): string {
  const now = records.filter((r) => r.former_names.includes(tool)).map((r) => r.lineage_name);
  if (now.length === 0) return `Recipe revision rollback lineage is unavailable: ${tool} (no tool of that name has a usage lineage)`;
  return `Recipe revision rollback lineage is unavailable: ${tool} is ${now.map((n) => `"${n}"`).join(", ")} now (renamed or merged); roll back with rollback tool=${now[0]} revision=<n>`;
}

export async function rollbackTool(ctx: ReviewContext, tool: string, revision: number): Promise<RollbackResult> {
  if (!Number.isSafeInteger(revision) || revision < 1) return { ok: false, error: `revision must be a positive integer (got ${revision})` };
  try {
    // the folder the rollback began in is the folder it writes: taken before anything is read
    const root = await realRoot(ctx.fs, ctx.paths.recipeRoot);
    if (root === undefined) return { ok: false, error: `Recipe revision rollback lineage is unavailable: ${tool} (the recipe root ${ctx.paths.recipeRoot} is missing)` };
    // a lineage of that name whose file is gone may have moved since the last launch or view (a
    // hand rename, a change of format): the lineages first follow the recipes as they are now,
    // so that the answer never depends on whether a view ran before
    if (await stale(ctx, tool)) await seedLineages(ctx.ledger, await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot));
    return await withRootFence(ctx.ledger, () =>
      withStore(ctx.ledger, async (): Promise<RollbackResult> => {
        await foldLocked(ctx.ledger);
        const { index } = await readIndex(ctx.ledger);
        const ids = Object.values(index.paths).map((e) => e.ledger);
        const ledgers = await readLedgers(ctx.ledger, ids);
        const named = [...ledgers].filter(([, r]) => r.lineage_name === tool);
        // two lineages of one name (a tool deleted, then written again as a new recipe): the
        // one whose file is there is the tool
        const found = named.length < 2 ? named[0] : ((await firstLive(ctx, named)) ?? named[0]);
        if (found === undefined) return { ok: false, error: unavailable(tool, [...ledgers.values()]) };
        const [, record] = found;
        const key = record.current_path;
        // a demoted tool is a draft now: writing the revision there would answer "rolled back"
        // while no tool changed
        if (key.startsWith("drafts/"))
          return { ok: false, error: `Tool ${tool} is a draft now (${join(ctx.paths.recipeRoot, key)}), not an active tool: promote it with register_tool name=${tool} draft=${key}, then roll it back` };
        const path = join(ctx.paths.recipeRoot, key);
        const located = await findSnapshot(ctx, record, revision);
        if (typeof located === "string") return { ok: false, error: located };
        const { at, snap } = located;
        if (pathKey(ctx.paths.recipeRoot, path) !== key) return { ok: false, error: `Recipe revision rollback lineage is unavailable: ${tool}` };
        const present = await ctx.fs.lstat(path).catch(() => undefined);
        // a tool whose file was deleted gets the revision back as a new file; anything else
        // where its file was (a folder, a link) is not overwritten
        const current = present === undefined ? null : await fileSha(ctx.fs, path);
        if (current === undefined) return { ok: false, error: `Recipe revision rollback cannot replace ${path}: it is not a regular file (${tool})` };
        // the revision's own format comes back: a .json revision of a tool that is a .md file now
        // (or the other way round) is written beside it and the current file goes, so the tool is
        // one recipe file again, and its lineage moves with it
        const target = withExtension(path, snap.snapshot.extension);
        // beside the lineage's file, whose key was checked above, with a .json or .md extension
        // (snapshotBytes accepts no other): a key of the root too
        const targetKey = pathKey(ctx.paths.recipeRoot, target)!;
        if (target !== path && (await ctx.fs.lstat(target).catch(() => undefined)) !== undefined)
          return { ok: false, error: `Recipe revision rollback would replace another recipe file: ${target} (${tool} is ${path} now)` };
        // a deleted tool written again in its other format is another recipe of that name now
        const twin = otherFormat(target);
        if (current === null && (await ctx.fs.lstat(twin).catch(() => undefined)) !== undefined)
          return { ok: false, error: `Recipe revision rollback would put a second recipe beside ${twin}: ${tool}'s file ${path} was deleted and ${twin} is another tool of that name now` };
        // the tool holds that revision already: it is the current revision, or the one a rollback
        // to it made; nothing is recorded (a rollback event would restart the revision's calls)
        if (target === path && current === snap.snapshot.sha256 && record.fingerprint === snap.snapshot.fingerprint && (record.rollback_of_revision === revision || record.revision === revision))
          return { ok: true, tool, path, restored_revision: revision, revision: record.revision, changed: false };
        const when = isoAt(ctx.now());
        const w = new Working({ index, ledgers, missing: new Set() });
        // to the revision's file: the same key gives the record back as it is (core/ledger/transitions.ts moved)
        const base = w.relocate(key, targetKey, record.lineage_name, when, "moved");
        const next = rolledBack(base.record, { revision, fingerprint: snap.snapshot.fingerprint, at: when });
        w.put(targetKey, base.id, next);
        const [ledgerWrites = [], ...rest] = await commitSteps(ctx.ledger, w.plan());
        const recipe: StepInput[] =
          current === null
            ? [{ op: "write", path: target, before: null, content: snap.bytes }]
            : target !== path
            ? [{ op: "write", path: target, before: null, content: snap.bytes }, { op: "unlink", path, before: { hash: current } }]
            : current === snap.snapshot.sha256
              ? []
              : [{ op: "write", path, before: { hash: current }, content: snap.bytes }];
        // right before the plan is written: the same root, and nothing it touches (nor the
        // snapshot it restores) behind a symlinked folder
        const moved = await rootChanged(ctx.fs, ctx.paths.recipeRoot, root, "rollback");
        if (moved !== undefined) return { ok: false, error: moved };
        const link = await symlinkBelowRoot(ctx.fs, ctx.paths.recipeRoot, [at, ...stepPaths([...recipe, ...ledgerWrites, ...rest.flat()])]);
        if (link !== undefined) return { ok: false, error: symlinkOnPlan(ctx.paths.recipeRoot, link, "rollback") };
        await runSteps(ctx.fs, ctx.ledger.paths.journals, { id: newPlanId(ctx.now()), kind: "revision-rollback", phases: [[...recipe, ...ledgerWrites], ...rest], root: ctx.paths.recipeRoot });
        return { ok: true, tool, path: target, restored_revision: revision, revision: next.revision, changed: true, ...(next.revision === base.record.revision ? { new_revision: false } : {}) };
      }),
    );
  } catch (e) {
    return { ok: false, error: `Recipe revision rollback failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}
