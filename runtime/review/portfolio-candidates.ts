// The active user tools as the portfolio review sees them: each with its bytes digest, raw recipe,
// risk labels and lineage (seeded first, so every tool has one and a content revision is recorded
// before eligibility is judged).
import * as E from "fp-ts/lib/Either.js";
import { userRecipeNames } from "../../core/discovery/discovery-result.js";
import type { ToolCandidate, ToolUsage } from "../../core/review/portfolio.js";
import { readersOf } from "../../core/review/portfolio-decide.js";
import { pathKey } from "../../core/ledger/keys.js";
import { loadRecipe } from "../../core/recipe/load.js";
import { discoverThroughFs } from "../fs-discovery.js";
import { readIndex, readLedgers, withStore } from "../ledger/ledger-store.js";
import { seedLineages, sha256Bytes } from "../ledger/index.js";
import type { ReviewContext } from "./review-context.js";

export interface ToolCandidates {
  readonly tools: readonly ToolCandidate[];
  /** every tool name that exists now (packaged ones included) */
  readonly activeTools: readonly string[];
  readonly diagnostics: readonly string[];
}

export async function listToolCandidates(ctx: ReviewContext): Promise<ToolCandidates> {
  const reads = new Map<string, readonly string[]>();
  const discovery = await discoverThroughFs(ctx.fs, ctx.paths, ctx.packagedRoot, { digested: true, reads });
  const readers = readersOf(discovery.entries, reads);
  const seeded = await seedLineages(ctx.ledger, discovery);
  const found: Array<{ candidate: Omit<ToolCandidate, "usage">; key: string }> = [];
  for (const entry of discovery.entries) {
    // discovery exposes as a tool only the winner of its id in the user recipe root (the one
    // source whose usage is counted), valid and enabled: a packaged recipe, a draft, a shadowed,
    // invalid or disabled one never is. That root is listed one level deep, so every key is a
    // file name of the root.
    if (!entry.tool) continue;
    const key = pathKey(ctx.paths.recipeRoot, entry.path);
    if (key === undefined) continue;
    let bytes: Uint8Array;
    try {
      bytes = await ctx.fs.readFile(entry.path);
    } catch {
      continue;
    }
    const sha256 = sha256Bytes(bytes);
    // discovery's verdict (a tool, its risk labels) is of the bytes it read: a tool changed since
    // is judged on its next listing, never with the verdict of other bytes
    if (sha256 !== entry.sourceSha256) continue;
    const loaded = loadRecipe({ path: entry.path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, entry.id, entry.format);
    const valid = E.isRight(loaded);
    found.push({
      candidate: {
        name: entry.id, path: entry.path, sha256, valid, riskLabels: entry.riskLabels, ...(valid ? { recipe: loaded.right.raw } : {}),
        ...(readers(entry.path).length > 0 ? { referenced: true } : {}),
      },
      key,
    });
  }
  const usage = new Map<string, ToolUsage>();
  await withStore(ctx.ledger, async () => {
    const { index } = await readIndex(ctx.ledger);
    const ledgers = await readLedgers(ctx.ledger, found.flatMap((f) => index.paths[f.key]?.ledger ?? []));
    for (const f of found) {
      const r = ledgers.get(index.paths[f.key]?.ledger ?? "");
      if (r === undefined) continue;
      usage.set(f.key, {
        lifetime_calls: r.lifetime_calls,
        revision: r.revision,
        revision_calls: r.revision_calls,
        fingerprint: r.fingerprint,
        first_seen: r.first_seen,
        reviewed_fingerprints: r.reviewed_fingerprints,
      });
    }
  });
  return {
    tools: found.map((f) => (usage.has(f.key) ? { ...f.candidate, usage: usage.get(f.key)! } : f.candidate)),
    // a promotion or rename onto any recipe name of the root would be skipped when carried out
    activeTools: userRecipeNames(discovery),
    diagnostics: seeded.diagnostics,
  };
}
