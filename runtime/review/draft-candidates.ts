// The drafts as a review sees them: for each direct `.json`/`.md` child of the drafts folder, its
// bytes digest, whether it loads, its risk labels, its raw recipe and its lineage (seeded with
// zero calls when it has none yet, so launch counts are always there to compare).
import * as E from "fp-ts/lib/Either.js";
import { join } from "node:path";
import { recipeFileName } from "../../core/discovery/paths.js";
import { userRecipeNames, type Discovery } from "../../core/discovery/discovery-result.js";
import { unlistedDrafts } from "../../core/discovery/diagnostic-texts.js";
import { pathKey } from "../../core/ledger/keys.js";
import type { DraftCandidate, LineageUsage } from "../../core/review/batch.js";
import { executableFingerprint } from "../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../core/recipe/load.js";
import type { Observation } from "../../core/ledger/seed.js";
import { discoverThroughFs } from "../fs-discovery.js";
import { readIndex, readLedgers, withStore } from "../ledger/ledger-store.js";
import { foldLocked } from "../ledger/fold-logs.js";
import { seedObserved } from "../ledger/index.js";
import { sha256Bytes } from "../ledger/index.js";
import type { ReviewContext } from "./review-context.js";

export interface Candidates {
  readonly drafts: readonly DraftCandidate[];
  /** names of the tools that exist now */
  readonly activeTools: readonly string[];
  /** names whose lineage outlives their tool (Batch.formerNames) */
  readonly formerNames?: readonly string[];
  readonly diagnostics: readonly string[];
  /** the drafts folder is there but could not be listed (its diagnostic): the drafts it holds are
   *  unknown, so none can be taken into a batch */
  readonly unlisted?: string;
}

export async function listCandidates(ctx: ReviewContext): Promise<Candidates> {
  const discovery = await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot, { digested: true });
  const folder = discovery.unlisted.find((u) => u.kind === "drafts");
  if (folder !== undefined) return { drafts: [], activeTools: userRecipeNames(discovery), diagnostics: [], unlisted: unlistedDrafts(folder.dir, folder.error) };
  const { promoted, formerNames } = await lineageFacts(ctx, discovery);
  const found: Array<{ candidate: Omit<DraftCandidate, "usage">; key: string; fingerprint?: string }> = [];
  for (const entry of discovery.drafts) {
    let bytes: Uint8Array;
    try {
      bytes = await ctx.fs.readFile(entry.path);
    } catch {
      continue; // gone since the listing: not a candidate this time
    }
    const sha256 = sha256Bytes(bytes);
    // discovery's verdict (valid, risk labels) is of the bytes it read: a draft changed since is
    // judged on its next listing, never with the verdict of other bytes
    if (sha256 !== entry.sha256) continue;
    const loaded = loadRecipe({ path: entry.path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, entry.id, entry.format);
    const config = E.isRight(loaded) ? loaded.right : undefined;
    // valid: discovery compiled these very bytes without a problem
    const recipe = entry.valid ? config?.raw : undefined;
    // the draft folder lies in the recipe root (agent-paths.ts): a draft's key is its path from it
    const key = pathKey(ctx.paths.recipeRoot, entry.path)!;
    if (promoted.has(key)) continue; // a tool already: never reviewed again
    found.push({
      candidate: { path: entry.path, stem: entry.id, sha256, valid: recipe !== undefined, riskLabels: entry.risk_labels, ...(recipe === undefined ? {} : { recipe }) },
      key,
      ...(config === undefined ? {} : { fingerprint: executableFingerprint(config) }),
    });
  }
  const observations: Observation[] = found.flatMap((f) => (f.fingerprint === undefined ? [] : [{ key: f.key, name: f.candidate.stem, fingerprint: f.fingerprint }]));
  const seeded = await seedObserved(ctx.ledger, observations);
  const usage = await usageByKey(ctx, found.map((f) => f.key));
  return {
    drafts: found.map((f) => {
      const u = usage.get(f.key);
      return u === undefined ? f.candidate : { ...f.candidate, usage: u };
    }),
    // a promotion or rename onto any recipe name of the root would be skipped when carried out
    activeTools: userRecipeNames(discovery),
    ...(formerNames.length === 0 ? {} : { formerNames }),
    diagnostics: seeded.diagnostics,
  };
}

/** The former paths of every lineage that now lives outside the drafts folder: a draft key among
 *  them is a draft whose lineage was promoted (register_tool draft= keeps the draft file and moves
 *  its lineage). The caller asks only about draft keys. */
export async function promotedKeys(ctx: ReviewContext): Promise<ReadonlyMap<string, string>> {
  return (await lineageFacts(ctx)).promoted;
}

/** promotedKeys, and with `discovery` the names of the root whose lineage outlives their tool (a
 *  recipe deleted, its key still indexed): a promotion to one would continue that history. */
async function lineageFacts(ctx: ReviewContext, discovery?: Discovery): Promise<{ promoted: ReadonlyMap<string, string>; formerNames: string[] }> {
  // former draft key -> where its lineage lives now
  const out = new Map<string, string>();
  const formerNames: string[] = [];
  try {
    await withStore(ctx.ledger, async () => {
      // launches not folded yet may hold a lineage of their own (a tool called, then deleted)
      if (discovery !== undefined) await foldLocked(ctx.ledger);
      const { index } = await readIndex(ctx.ledger);
      const ids = [...new Set(Object.values(index.paths).map((e) => e.ledger))];
      for (const record of (await readLedgers(ctx.ledger, ids)).values()) {
        if (record.current_path.startsWith("drafts/")) continue;
        for (const former of record.former_paths) out.set(former, record.current_path);
      }
      if (discovery === undefined) return;
      const present = new Set(discovery.entries.filter((e) => e.priority === 0).map((e) => e.path));
      for (const key of Object.keys(index.paths)) {
        const name = key.includes("/") ? undefined : recipeFileName(key)?.id;
        if (name !== undefined && !present.has(join(ctx.paths.recipeRoot, key))) formerNames.push(name);
      }
    });
  } catch {
    // without readable ledgers no draft is known as promoted
  }
  return { promoted: out, formerNames };
}

async function usageByKey(ctx: ReviewContext, keys: readonly string[]): Promise<Map<string, LineageUsage>> {
  const out = new Map<string, LineageUsage>();
  try {
    await withStore(ctx.ledger, async () => {
      const { index } = await readIndex(ctx.ledger);
      const ledgers = await readLedgers(ctx.ledger, keys.flatMap((k) => index.paths[k]?.ledger ?? []));
      for (const k of keys) {
        const r = ledgers.get(index.paths[k]?.ledger ?? "");
        if (r === undefined) continue;
        const demoted = (r as unknown as { demoted_fingerprint?: unknown }).demoted_fingerprint;
        out.set(k, {
          lifetime_calls: r.lifetime_calls,
          revision: r.revision,
          revision_calls: r.revision_calls,
          fingerprint: r.fingerprint,
          ...(typeof demoted === "string" ? { demoted_fingerprint: demoted } : {}),
        });
      }
    });
  } catch {
    // without readable ledgers the counts are zero; validation compares against the same zeros
  }
  return out;
}
