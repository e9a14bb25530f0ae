// Zero-call lineage for every active user recipe discovery found (no launch is fabricated), a
// new revision for one whose executable content changed, and an unambiguous external rename or
// move followed by fingerprint. Cheap when nothing changed: one read of the index, no lock.
import type { Discovery, RecipeEntry } from "../../core/discovery/discovery-result.js";
import type { RecipeConfig } from "../../core/model.js";
import { executableFingerprint } from "../../core/ledger/recipe-fingerprint.js";
import { relocationCandidates } from "../../core/ledger/fold.js";
import { pathKey } from "../../core/ledger/keys.js";
import { carriedUsage, seedIsCurrent, seedObservations, type Observation } from "../../core/ledger/seed.js";
import { isoAt, type LedgerContext } from "./ledger-context.js";
import { foldLocked, idsOf, missingKeys } from "./fold-logs.js";
import { commit, readIndex, readLedgers, withStore } from "./ledger-store.js";

// Seeding runs after every discovery; a recipe's config object lives as long as its revision, so
// its fingerprint is hashed once per revision, not once per pass.
const fingerprints = new WeakMap<RecipeConfig, string>();

function fingerprintOf(config: RecipeConfig): string {
  let known = fingerprints.get(config);
  if (known === undefined) {
    known = executableFingerprint(config);
    fingerprints.set(config, known);
  }
  return known;
}

/** The entries that get a ledger: winners of the user root that load (disabled ones included). */
export function lineageObservations(recipeRoot: string, entries: readonly RecipeEntry[]): Observation[] {
  const out: Observation[] = [];
  for (const e of entries) {
    if (!e.mutableUsage || !e.active || e.config === undefined) continue;
    const key = pathKey(recipeRoot, e.path);
    const carried = carriedUsage(e.config.usage);
    if (key !== undefined) out.push({ key, name: e.id, fingerprint: fingerprintOf(e.config), ...(carried === undefined ? {} : { carried }) });
  }
  return out;
}

export interface SeedResult {
  /** false when the ledgers were already current */
  readonly changed: boolean;
  readonly diagnostics: readonly string[];
}

/** One seeding pass under the store lock: fold, then give each observation its lineage. */
function seedInStore(ctx: LedgerContext, observations: readonly Observation[]): Promise<SeedResult> {
  return withStore(ctx, async (recovered) => {
    // pending launches first, so a launch before a rename lands on the old lineage
    const diagnostics = [...recovered, ...(await foldLocked(ctx))];
    const { index } = await readIndex(ctx);
    const candidates = relocationCandidates({ index }, observations);
    const missing = await missingKeys(ctx, candidates);
    // the candidates' ledgers, present or not: a shadowed other format's lineage may be followed
    const ledgers = await readLedgers(ctx, idsOf(index, [...observations.map((o) => o.key), ...candidates]));
    const plan = seedObservations({ index, ledgers, missing }, observations, isoAt(ctx.now()));
    const notes = await commit(ctx, plan);
    return { changed: plan.changed, diagnostics: [...diagnostics, ...plan.diagnostics, ...notes] };
  });
}

export async function seedLineages(ctx: LedgerContext, discovery: Pick<Discovery, "entries">): Promise<SeedResult> {
  const observations = lineageObservations(ctx.paths.recipeRoot, discovery.entries);
  try {
    const first = await readIndex(ctx);
    if (!first.rebuilt && seedIsCurrent(first, observations)) return { changed: false, diagnostics: [] };
    return await seedInStore(ctx, observations);
  } catch (e) {
    return { changed: false, diagnostics: [`Usage lineage seeding failed: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

/** Zero-call lineage for recipes outside the active set (drafts): each observation gets its
 *  lineage, or a new revision when its content changed. Nothing is counted as a launch. */
export async function seedObserved(ctx: LedgerContext, observations: readonly Observation[]): Promise<SeedResult> {
  if (observations.length === 0) return { changed: false, diagnostics: [] };
  try {
    return await seedInStore(ctx, observations);
  } catch (e) {
    return { changed: false, diagnostics: [`Usage lineage seeding failed: ${e instanceof Error ? e.message : String(e)}`] };
  }
}
