// Gathers the facts of `inspect target=recipes view=reviews` by reading files only: the admission
// state, the batch evidence and the usage ledgers. No lock, no fold, no write.
import { join } from "node:path";
import { decodeState } from "../../core/review/admission.js";
import type { JsonObject } from "../../core/model.js";
import { draftReviewDetails, LINEAGE_LIMIT, reviewsDetails } from "../../core/review/reviews-view.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../agent-paths.js";
import { ledgerPaths } from "../ledger/index.js";
import { batchDir, EVIDENCE_FILE, statePath } from "./review-context.js";
import { readJsonOrUndefined } from "./files.js";
import { decodeToolState } from "../../core/review/tool-admission.js";
import { toolReviewDetails } from "../../core/review/tool-reviews-view.js";
import { ACTIVATED_FILE, ACTIVATION_KIND } from "./activate.js";
import { toolReviewDir, toolStatePath } from "./portfolio-cycle.js";

const MAX_BYTES = 1024 * 1024;

async function small(fs: FileSystem, path: string): Promise<JsonObject | undefined> {
  try {
    if ((await fs.stat(path)).size > MAX_BYTES) return undefined;
  } catch {
    return undefined;
  }
  const raw = await readJsonOrUndefined(fs, path).catch(() => undefined);
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as JsonObject) : undefined;
}

/** Whether an activation's journal plan waits in the ledger store's journal folder (a crash
 *  interrupted it; the next command that opens the store finishes it). Only each journal's head
 *  is read: the plan's kind comes before its steps. */
async function activationPending(fs: FileSystem, paths: AgentPaths): Promise<boolean> {
  const dir = ledgerPaths(paths.recipeRoot).journals;
  const names = (await fs.readdir(dir).catch(() => [])).filter((e) => e.kind === "file" && e.name.endsWith(".journal.json")).map((e) => e.name).sort().slice(0, LINEAGE_LIMIT);
  for (const n of names) {
    const head = new TextDecoder().decode(await fs.readAt(join(dir, n), 0, 1024).catch(() => new Uint8Array()));
    if (new RegExp(`"kind":\\s*"${ACTIVATION_KIND}"`).test(head)) return true;
  }
  return false;
}

/** The tool review's state, its activation record and the retained revision snapshots. */
async function gatherToolReview(fs: FileSystem, paths: AgentPaths) {
  const state = decodeToolState(await small(fs, toolStatePath(paths)));
  const activated = state === undefined ? undefined : await small(fs, join(toolReviewDir(paths, state.reviewId), ACTIVATED_FILE));
  const rings = join(paths.usageRoot, "revisions");
  let revisionSnapshots = 0;
  const dirs = (await fs.readdir(rings).catch(() => [])).filter((e) => e.kind === "dir").map((e) => e.name).sort().slice(0, LINEAGE_LIMIT);
  for (const d of dirs) revisionSnapshots += (await fs.readdir(join(rings, d)).catch(() => [])).filter((e) => e.kind === "file" && e.name.endsWith(".json")).length;
  const pending = activated === undefined ? false : await activationPending(fs, paths);
  return { tool: toolReviewDetails(state, activated, pending), revisionSnapshots };
}

export async function gatherReviews(fs: FileSystem, paths: AgentPaths) {
  const state = decodeState(await small(fs, statePath(paths)));
  const evidence = state === undefined ? undefined : await small(fs, join(batchDir(paths, state.batchId), EVIDENCE_FILE));
  const ledgers = ledgerPaths(paths.recipeRoot).ledgers;
  const files = (await fs.readdir(ledgers).catch(() => []))
    .filter((e) => e.kind === "file" && e.name.endsWith(".json") && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  const lineages = [];
  for (const file of files.slice(0, LINEAGE_LIMIT)) {
    const record = await small(fs, join(ledgers, file));
    lineages.push(record === undefined ? { file } : { file, record });
  }
  const tool = await gatherToolReview(fs, paths);
  return reviewsDetails({ draft: draftReviewDetails(state, evidence), lineageFiles: files, lineages, ...tool });
}
