// Gathers the facts of `inspect target=recipes view=reviews` by reading files only: the admission
// state, the batch evidence and the usage ledgers. No lock, no fold, no write.
import { join } from "node:path";
import { decodeState } from "../../core/review/admission.js";
import type { JsonObject } from "../../core/model.js";
import { draftReviewDetails, LINEAGE_LIMIT, reviewsDetails } from "../../core/review/reviews-view.js";
import { hasCode, readJson, type FileSystem } from "../../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../agent-paths.js";
import { ledgerPaths } from "../ledger/index.js";
import { batchDir, EVIDENCE_FILE, statePath } from "./review-context.js";
import { decodeToolState } from "../../core/review/tool-admission.js";
import { toolReviewDetails } from "../../core/review/tool-reviews-view.js";
import { ACTIVATED_FILE, ACTIVATION_KIND } from "./activate.js";
import { toolReviewDir, toolStatePath } from "./portfolio-cycle.js";
import { readStateFile, ReviewStateUnreadable, unreadableStateLine } from "./files.js";

const MAX_BYTES = 1024 * 1024;

/** Where a usage ledger or a revision folder could not be read (a permission, a damaged disk):
 *  the counts the view would show are then not the store's. */
type Unreadable = (path: string, e: unknown) => void;

/** Whether `e` says a file or folder is not there (or not a folder), which the views show as none. */
const absent = (e: unknown): boolean => hasCode(e, "ENOENT", "ENOTDIR");

/** A JSON object file of at most MAX_BYTES; anything else (missing, unreadable, bigger, not
 *  JSON, not an object) reads as absent; `unreadable` hears of one that is there but could not be
 *  read. */
async function small(fs: FileSystem, path: string, unreadable?: Unreadable): Promise<JsonObject | undefined> {
  try {
    if ((await fs.stat(path)).size > MAX_BYTES) return undefined;
    const raw = await readJson(fs, path);
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) return raw as JsonObject;
  } catch (e) {
    if (unreadable !== undefined && !absent(e) && !(e instanceof SyntaxError)) unreadable(path, e);
  }
  return undefined;
}

/** The names of `dir`'s entries of `kind` whose names end in `suffix`, in name order; none when
 *  the folder cannot be listed (it is missing, or not a folder). */
async function listed(fs: FileSystem, dir: string, kind: "file" | "dir", suffix = "", unreadable?: Unreadable): Promise<string[]> {
  try {
    return (await fs.readdir(dir))
      .filter((e) => e.kind === kind && e.name.endsWith(suffix))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    if (unreadable !== undefined && !absent(e)) unreadable(dir, e);
    return [];
  }
}

/** Whether an activation's journal plan waits in the ledger store's journal folder (a crash
 *  interrupted it; the next command that opens the store finishes it). Only each journal's head
 *  is read: the plan's kind comes before its steps. */
async function activationPending(fs: FileSystem, paths: AgentPaths): Promise<boolean> {
  const dir = ledgerPaths(paths.recipeRoot).journals;
  for (const n of (await listed(fs, dir, "file", ".journal.json")).slice(0, LINEAGE_LIMIT)) {
    const head = new TextDecoder().decode(await fs.readAt(join(dir, n), 0, 1024).catch(() => undefined));
    if (new RegExp(`"kind":\\s*"${ACTIVATION_KIND}"`).test(head)) return true;
  }
  return false;
}

/** The tool review's state, its activation record and the retained revision snapshots. */
async function gatherToolReview(fs: FileSystem, paths: AgentPaths, unreadable: Unreadable) {
  const state = decodeToolState(await small(fs, toolStatePath(paths)));
  const activated = state === undefined ? undefined : await small(fs, join(toolReviewDir(paths, state.reviewId), ACTIVATED_FILE));
  const rings = join(paths.usageRoot, "revisions");
  let revisionSnapshots = 0;
  for (const d of (await listed(fs, rings, "dir", "", unreadable)).slice(0, LINEAGE_LIMIT)) revisionSnapshots += (await listed(fs, join(rings, d), "file", ".json", unreadable)).length;
  // read whether or not a record exists: only a record's evidence shows it
  return { tool: toolReviewDetails(state, activated, await activationPending(fs, paths)), revisionSnapshots };
}

/** The reviews view's details; `unreadable`: why the ledgers are known not to be whole already (a
 *  fold that could not run), which then stands for the counts as one found here would. */
export async function gatherReviews(fs: FileSystem, paths: AgentPaths, unreadable?: string) {
  const state = decodeState(await small(fs, statePath(paths)));
  const evidence = state === undefined ? undefined : await small(fs, join(batchDir(paths, state.batchId), EVIDENCE_FILE));
  const ledgers = ledgerPaths(paths.recipeRoot).ledgers;
  // the first ledger or revision folder that is there but could not be read: the counts are then
  // not known, and the view says so rather than showing what it could read as the whole
  let cannot = unreadable;
  const couldNotRead: Unreadable = (path, e) => {
    cannot ??= `Usage ledgers could not be read: ${path}: ${e instanceof Error ? e.message : String(e)}`;
  };
  const files = (await listed(fs, ledgers, "file", ".json", couldNotRead)).filter((name) => !name.startsWith("."));
  const lineages = [];
  for (const file of files.slice(0, LINEAGE_LIMIT)) lineages.push({ file, record: await small(fs, join(ledgers, file), couldNotRead) });
  const tool = await gatherToolReview(fs, paths, couldNotRead);
  const gathered = reviewsDetails({ draft: draftReviewDetails(state, evidence), lineageFiles: files, lineages, ...tool });
  // a state file that does not read is not an idle review: its phase is not known
  const states = await unreadableReviewStates(fs, paths);
  const unknown = (path: string): boolean => states.some((e) => e.path === path);
  const details = states.length === 0 ? gathered : {
    ...gathered,
    ...(unknown(statePath(paths)) ? { draft_review: { phase: "unknown" } } : {}),
    ...(unknown(toolStatePath(paths)) ? { tool_review: { phase: "unknown" } } : {}),
    state_unreadable: states.map(unreadableStateLine),
  };
  return cannot === undefined ? details : { ...details, lineage_count: null, revision_snapshots: null, usage_unreadable: cannot };
}

/** Each review state file that is there but does not read (runtime/review/files.ts): the views
 *  say it (unreadableStateLine), where the review would otherwise show as idle. */
export async function unreadableReviewStates(fs: FileSystem, paths: AgentPaths): Promise<ReviewStateUnreadable[]> {
  const out: ReviewStateUnreadable[] = [];
  const check = async <S>(path: string, decode: (raw: unknown) => S | undefined): Promise<void> => {
    try {
      await readStateFile(fs, path, decode);
    } catch (e) {
      if (e instanceof ReviewStateUnreadable) out.push(e);
    }
  };
  await check(statePath(paths), decodeState);
  await check(toolStatePath(paths), decodeToolState);
  return out;
}
