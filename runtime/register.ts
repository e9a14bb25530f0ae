// register_tool's effects: lock every file the call may target (keyed by canonical path, so a
// symlink alias of the root serializes with the real path), read, let core decide, write
// atomically or delete, refresh the host, unlock. The whole check/read/write/refresh window is
// under the locks. A delete that removes a `.md` and a `.json` is one journal plan
// (docs/journal.md), so a crash never leaves half a tool.
import { dirname, join } from "node:path";
import { planLocks, planRegister } from "../core/register/plan-register.js";
import type { RegisterFacts, RegisterPlan } from "../core/register/register-plan.js";
import { deleteFailed, deletedUnread, deletePairUnreadable, draftSymlink, lockTimedOut, persistFailed, recipeNotAFile, recipeSymlink } from "../core/register/texts.js";
import { draftPathOf } from "../core/register/promote.js";
import { failure, success, type CommandResult } from "../core/result.js";
import { hasCode, isFsError, writeFileAtomic, type FileSystem } from "../adapters/fs/FileSystem.js";
import type { StepInput } from "../core/journal/plan.js";
import { currentBytes, newPlanId, PlanFailed, recoverJournals, runSteps, type RecoveryOutcome } from "./journal/index.js";
import { canonicalLockPath } from "../adapters/lock/canonical-path.js";
import { LockTimeoutError, type Lock, type LockOptions } from "../adapters/lock/Lock.js";
import type { AgentPaths } from "./agent-paths.js";
import { registerJournalDir } from "./register-journal.js";
import { setAsideNote } from "../core/journal/journal-suffix.js";
import { discoverThroughFs } from "./fs-discovery.js";
import { makeCachingReader, readRecipeFile, settle } from "./fs-reader.js";
import { listTools } from "./verbs/list.js";
import { toolListOf } from "../core/views/list-view.js";
import { closeLedger, openLedger, promoteLineage, seedObserved } from "./ledger/index.js";
import * as E from "fp-ts/lib/Either.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { pathKey } from "../core/ledger/keys.js";
import type { Observation } from "../core/ledger/seed.js";
import { loadRecipe } from "../core/recipe/load.js";
import { formatOfPath, idOfPath } from "../core/recipe/posix.js";
import { RecipeRootError } from "./root-lock.js";
import { draftsNotAFolder } from "../core/discovery/diagnostic-texts.js";
import { sandboxModeOf } from "../core/sandbox/policy.js";

export interface RegisterContext {
  readonly paths: AgentPaths;
  readonly fs: FileSystem;
  readonly lock: Lock;
  /** called after a write or delete, still under the locks (e.g. the host's tool-set refresh) */
  readonly refresh?: () => void | Promise<void>;
  /** the packaged component root, searched last for bare recipe names */
  readonly packagedRoot?: string;
  readonly lockOptions?: LockOptions;
  /** the host's environment: `PI_RECIPES_SANDBOX=on` refuses a tool that runs unconfined */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type RegisterParams = Readonly<Record<string, unknown>>;

/** Nested acquisition in canonical order, one lock per canonical path: two calls that share
 * paths take them in the same order and cannot deadlock, and a lock is never taken twice. */
async function withLocks<A>(ctx: RegisterContext, paths: readonly string[], run: () => Promise<A>): Promise<A> {
  const keyed = new Map<string, string>();
  for (const path of paths) {
    const key = await canonicalLockPath(ctx.fs, path);
    if (!keyed.has(key)) keyed.set(key, path);
  }
  const ordered = [...keyed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, path]) => path);
  const nest = (i: number): Promise<A> => {
    const path = ordered[i];
    return path === undefined ? run() : ctx.lock.withLock(path, () => nest(i + 1), ctx.lockOptions);
  };
  return nest(0);
}

const quarantined = (outcomes: readonly RecoveryOutcome[]): string[] =>
  outcomes.flatMap((o) => (o.outcome === "quarantined" ? [setAsideNote("register_tool", o)] : []));

/** A recipe file this process may not read: EACCES or EPERM. */
interface Unreadable {
  readonly path: string;
  readonly reason: string;
}

/** What a delete did: the notes of recovery, and the file it removed without reading, if any. */
interface Deleted {
  readonly notes: readonly string[];
  readonly unread?: Unreadable;
}

/** Why a delete removed nothing: of the tool's two files, these cannot be read (deletePairUnreadable);
 *  `other` is the one that can, when one can. */
interface PairUnreadable {
  readonly _tag: "PairUnreadable";
  readonly unreadable: readonly Unreadable[];
  readonly other?: string;
  readonly notes: readonly string[];
}

/** The file's bytes, null when absent, or why this process may not read it. */
async function bytesOrUnreadable(fs: FileSystem, path: string): Promise<Uint8Array | null | Unreadable> {
  try {
    return await currentBytes(fs, path);
  } catch (e) {
    if (!isFsError(e) || (e.code !== "EACCES" && e.code !== "EPERM")) throw e;
    return { path, reason: e.code === "EACCES" ? "EACCES: permission denied" : "EPERM: operation not permitted" };
  }
}

/** Removes the tool's files. Two files go as one journal plan, one phase per file in the plan's
 *  order (a reader between them sees the old tool); the journal keeps each file's bytes, so a file
 *  that cannot be read is refused then (PairUnreadable), never removed apart from the other. One
 *  file is removed by itself: a single unlink is all or nothing, so the one that cannot be read is
 *  unlinked without reading it (and its folder synced), as `rm` would. */
async function deleteFiles(ctx: RegisterContext, paths: readonly string[]): Promise<E.Either<PairUnreadable, Deleted>> {
  const dir = registerJournalDir(ctx.paths);
  return ctx.lock.withLock(
    dir,
    async () => {
      const notes = quarantined(await recoverJournals(ctx.fs, dir));
      const phases: StepInput[][] = [];
      const present: string[] = [];
      const unreadable: Unreadable[] = [];
      for (const path of paths) {
        const bytes = await bytesOrUnreadable(ctx.fs, path);
        if (bytes === null) continue;
        present.push(path);
        if ("reason" in bytes) unreadable.push(bytes);
        else phases.push([{ op: "unlink", path, before: bytes }]);
      }
      const unread = unreadable[0];
      if (unread !== undefined) {
        if (present.length > 1) {
          const other = present.find((p) => unreadable.every((u) => u.path !== p));
          return E.left({ _tag: "PairUnreadable", unreadable, ...(other === undefined ? {} : { other }), notes });
        }
        await ctx.fs.unlink(unread.path);
        await ctx.fs.fsyncDir(dirname(unread.path));
        return E.right({ notes, unread });
      }
      if (phases.length > 0) await runSteps(ctx.fs, dir, { id: newPlanId(Date.now()), kind: "register-delete", phases });
      return E.right({ notes });
    },
    ctx.lockOptions,
  );
}

async function decide(params: RegisterParams, ctx: RegisterContext): Promise<RegisterPlan> {
  const reader = makeCachingReader(ctx.fs);
  const { paths } = ctx;
  const facts: RegisterFacts = {
    readFile: reader.readFile,
    agentDir: paths.agentDir,
    home: paths.home,
    cwd: paths.cwd,
    userRoot: paths.recipeRoot,
    draftRoot: paths.draftRoot,
    ...(ctx.packagedRoot === undefined ? {} : { packagedRoot: ctx.packagedRoot }),
    sandboxMode: sandboxModeOf(ctx.env ?? process.env),
  };
  return settle(reader, () => planRegister(params, facts));
}

async function refreshed(ctx: RegisterContext, result: CommandResult): Promise<CommandResult> {
  if (ctx.refresh === undefined) return result;
  try {
    await ctx.refresh();
    return result;
  } catch (e) {
    // the file is written; a host that failed to pick it up is told, not the write undone
    return { ...result, details: { ...result.details, refresh_error: e instanceof Error ? e.message : String(e) } };
  }
}

async function apply(plan: RegisterPlan, ctx: RegisterContext): Promise<CommandResult> {
  switch (plan.kind) {
    case "list":
      return listTools(toolListOf(await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot)));
    case "answer":
      return plan.result;
    case "write": {
      // a promotion writes its tool and moves the draft's lineage in one journal plan
      const promoted = await promoteWithLineage(plan, ctx);
      if (promoted !== undefined && "moved" in promoted) return refreshed(ctx, success(plan.text, promoted.moved));
      // a lineage that could not move (a target with a lineage of its own, a busy ledger) is said:
      // the tool is written all the same, and the draft keeps its launches
      const notMoved = promoted?.notMoved;
      const written = notMoved === undefined ? plan : { ...plan, text: `${plan.text}\n${notMoved} (the tool is written; the draft keeps its usage)`, details: { ...plan.details, lineage: "not_moved", lineage_diagnostic: notMoved } };
      try {
        await ctx.fs.mkdir(dirname(plan.path), { recursive: true });
        await writeFileAtomic(ctx.fs, plan.path, plan.content);
      } catch (e) {
        if (!isFsError(e)) throw e;
        return failure(persistFailed(e.message), { tool: plan.name, config: plan.path });
      }
      return refreshed(ctx, success(written.text, written.details));
    }
    case "delete":
      let deleted: E.Either<PairUnreadable, Deleted>;
      try {
        deleted = await deleteFiles(ctx, plan.paths);
      } catch (e) {
        if (!isFsError(e) && !(e instanceof PlanFailed)) throw e;
        return failure(deleteFailed(e.message), { tool: plan.name });
      }
      if (E.isLeft(deleted)) {
        const { unreadable, other, notes } = deleted.left;
        return failure(deletePairUnreadable(unreadable, other), {
          tool: plan.name,
          // the first, as before; all of them in `unreadable_files`
          unreadable: unreadable[0]!.path,
          unreadable_files: unreadable.map((u) => u.path),
          ...(notes.length === 0 ? {} : { journal_diagnostics: notes }),
        });
      }
      const { notes, unread } = deleted.right;
      const text = unread === undefined ? plan.text : `${plan.text}\n${deletedUnread(unread.path, unread.reason)}`;
      const details = {
        ...plan.details,
        ...(unread === undefined ? {} : { removed_unread: unread.path }),
        ...(notes.length === 0 ? {} : { journal_diagnostics: notes }),
      };
      return refreshed(ctx, success(text, details));
  }
}

/** A promoted draft's lineage (its launches and history) moves to the new tool, written in the
 *  same journal plan; the draft file stays. A draft the ledger has not seen yet gets its
 *  zero-call lineage first, so that every promotion leaves the draft's path among the tool's
 *  former paths: that is how a review batch knows never to offer the draft again. Undefined when
 *  the lineage cannot move (a target with a lineage of its own): the caller writes plainly. */
async function promoteWithLineage(
  plan: Extract<RegisterPlan, { kind: "write" }>, ctx: RegisterContext,
): Promise<{ readonly moved: Readonly<Record<string, unknown>> } | { readonly notMoved: string } | undefined> {
  const draft = plan.details["draft"];
  if (plan.details["promoted"] !== true || typeof draft !== "string") return undefined;
  const ledger = openLedger({ fs: ctx.fs, lock: ctx.lock, recipeRoot: ctx.paths.recipeRoot });
  try {
    const observed = await draftObservation(ctx, draft);
    const seeded = observed === undefined ? undefined : await seedObserved(ledger, [observed]);
    const moved = await promoteLineage(ledger, { from: draft, to: plan.path, writeTarget: plan.content });
    if (moved.ok) return { moved: { ...plan.details, lineage: "moved" } };
    // a target that has a lineage of its own keeps it: no news for an update of a tool there now;
    // for a new file, the lineage is that of a former tool of the name (deleted, its history
    // kept), and the draft's launches do not come along: said, never passed off as moved
    const formerTool = plan.details["updated"] !== true && / already has its own usage lineage /.test(moved.diagnostic);
    const why = [...(seeded?.diagnostics ?? []), moved.diagnostic].filter((d) => /failed|Timed out|could not/i.test(d) || (formerTool && d === moved.diagnostic));
    if (formerTool) why[why.length - 1] = `${moved.diagnostic}, that of a former tool of this name: the tool continues that history`;
    return why.length === 0 ? undefined : { notMoved: why.join("; ") };
  } finally {
    await closeLedger(ledger);
  }
}

/** What stands where register_tool would write or remove one of the tool's recipe files (the
 *  JSON and Markdown file of each name it locks) and is no regular file, if anything: a symlink
 *  (no tool, as discovery says, and never written through, replaced or removed on the way: a
 *  dotfiles manager's link must not be turned into a copy, nor its target changed), or a folder
 *  or special file (which the journal's plans, replacing regular files only, cannot take). */
async function notAFileAtRecipe(fs: FileSystem, userRoot: string, locked: readonly string[]): Promise<{ readonly text: string; readonly details: Readonly<Record<string, string>> } | undefined> {
  for (const path of locked) {
    // (the draft a promotion locks is checked by draftPathProblem and the plan)
    if (dirname(path) !== userRoot || !path.endsWith(".json")) continue;
    for (const at of [path, `${path.slice(0, -".json".length)}.md`]) {
      let kind;
      try {
        kind = (await fs.lstat(at)).kind;
      } catch (e) {
        if (!hasCode(e, "ENOENT", "ENOTDIR")) throw e;
        continue;
      }
      if (kind === "symlink") return { text: recipeSymlink(at), details: { symlink: at } };
      if (kind === "dir" || kind === "other") return { text: recipeNotAFile(at, kind), details: { path: at } };
    }
  }
  return undefined;
}

/** Why `draft` cannot be promoted before it is even read, if so: the first symlink from the
 *  drafts folder (itself included) down to it (a draft is promoted only from a regular file
 *  reached through real folders, as review batches list drafts: a symlink would make a file from
 *  outside the agent dir a tool), or a drafts folder that is no folder (a file there holds no
 *  draft, which is said of the folder rather than as a draft not found). */
async function draftPathProblem(fs: FileSystem, draftRoot: string, draft: string): Promise<CommandResult | undefined> {
  if (!draft.startsWith(`${draftRoot}/`)) return undefined; // refused as outside by the plan
  const below = draft.slice(draftRoot.length + 1).split("/");
  const steps = below.map((_, i) => join(draftRoot, below.slice(0, i + 1).join("/")));
  for (const at of [draftRoot, ...steps]) {
    let kind;
    try {
      kind = (await fs.lstat(at)).kind;
    } catch (e) {
      if (hasCode(e, "ENOENT", "ENOTDIR")) return undefined; // not there: the plan says so
      throw e;
    }
    if (kind === "symlink") return failure(draftSymlink(at), { draft, symlink: at });
    if (at === draftRoot && (kind === "file" || kind === "other")) return failure(draftsNotAFolder(draftRoot, kind), { draft, drafts_folder: draftRoot });
  }
  return undefined;
}

const draftParam = (params: RegisterParams): string | undefined => {
  const draft = params["draft"];
  return typeof draft === "string" && draft.trim() !== "" ? draft : undefined;
};

async function draftObservation(ctx: RegisterContext, draft: string): Promise<Observation | undefined> {
  const key = pathKey(ctx.paths.recipeRoot, draft);
  const file = await readRecipeFile(ctx.fs, draft);
  if (key === undefined || file === undefined) return undefined;
  const loaded = loadRecipe(file, idOfPath(draft), formatOfPath(draft));
  return E.isRight(loaded) ? { key, name: idOfPath(draft), fingerprint: executableFingerprint(loaded.right) } : undefined;
}

/** register_tool: list, create, update, delete or promote a draft (README, "Command line"). */
export async function registerTool(params: RegisterParams, ctx: RegisterContext): Promise<CommandResult> {
  const roots = { userRoot: ctx.paths.recipeRoot, cwd: ctx.paths.cwd };
  const locks = planLocks(params, roots);
  if (locks.kind === "answer") return locks.result;
  if (locks.kind === "list") return apply({ kind: "list" }, ctx);
  const draft = draftParam(params);
  try {
    return await withLocks(ctx, locks.paths, async () => {
      const draftPath = draft === undefined ? undefined : draftPathOf(draft, roots);
      const draftProblem = draftPath === undefined ? undefined : await draftPathProblem(ctx.fs, ctx.paths.draftRoot, draftPath);
      if (draftProblem !== undefined) return draftProblem;
      const notAFile = await notAFileAtRecipe(ctx.fs, ctx.paths.recipeRoot, locks.paths);
      if (notAFile !== undefined) return failure(notAFile.text, notAFile.details);
      return apply(await decide(params, ctx), ctx);
    });
  } catch (e) {
    if (e instanceof LockTimeoutError) return failure(lockTimedOut(e.canonicalPath, e.message), { lock: e.canonicalPath, timeout_ms: e.timeoutMs });
    // a recipe root that is no folder: an answer naming it, to every host alike (runtime/root-lock.ts)
    if (e instanceof RecipeRootError) return failure(e.message, { recipe_root: e.root });
    throw e;
  }
}

export { recoverRegisterJournals, registerJournalDir } from "./register-journal.js";
