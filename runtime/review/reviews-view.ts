// Gathers the facts of `inspect target=recipes view=reviews` by reading files only: the admission
// state, the batch evidence and the usage ledgers. No lock, no fold, no write.
import { join } from "node:path";
import { decodeState } from "../../core/review/admission.js";
import type { JsonObject } from "../../core/model.js";
import { draftReviewDetails, LINEAGE_LIMIT, reviewsDetails } from "../../core/review/reviews-view.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../agent-paths.js";
import { ledgerPaths } from "../ledger/index.js";
import { batchDir, EVIDENCE_FILE, statePath } from "./context.js";
import { readJsonOrUndefined } from "./files.js";

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
  return reviewsDetails({ draft: draftReviewDetails(state, evidence), lineageFiles: files, lineages });
}
