// Capturing an inline spawn as a draft: the template (and the values it ran with, as defaults)
// saved under `<recipe root>/drafts/` with a zero-call lineage, so an automatic review or an
// operator can later make it a tool. A template that touches secrets is not captured; the spawn
// result says why. Drafts are never tools.
import * as E from "fp-ts/lib/Either.js";
import { join } from "node:path";
import { lineageName, pathKey } from "../../core/ledger/keys.js";
import type { Json, JsonObject } from "../../core/model.js";
import { executableFingerprint } from "../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../core/recipe/load.js";
import { recipeProblem } from "../../core/recipe/recipe-error.js";
import { labelsAsWritten } from "../../core/compile/compile-template.js";
import { secretReason } from "../../core/review/unsafe.js";
import { isDefaultReference } from "../../core/template/context.js";
import { hasCode, writeFileAtomicExclusive, type FileSystem } from "../../adapters/fs/FileSystem.js";
import type { Lock } from "../../adapters/lock/Lock.js";
import type { AgentPaths } from "../agent-paths.js";
import { closeLedger, openLedger, seedObserved } from "../ledger/index.js";
import { ensureDir } from "../journal/apply.js";

export interface InlineDraft {
  readonly template: Json;
  readonly values: Readonly<Record<string, unknown>>;
  /** the run this spawn is, when it has an id */
  readonly runId?: string;
}

export type DraftCaptured =
  | { readonly captured: true; readonly path: string; readonly diagnostics: readonly string[] }
  | { readonly captured: false; readonly reason: string };

/** Values that describe the run rather than the recipe are not kept as defaults. */
const RUN_KEYS = new Set(["actor_address", "communication_file", "default_room", "run_id", "state_dir"]);

export function draftRecipe(input: InlineDraft, runId: string): JsonObject {
  const defaults: Record<string, Json> = {};
  for (const [k, v] of Object.entries(input.values)) if (!RUN_KEYS.has(k) && v !== undefined) defaults[k] = v as Json;
  return {
    description: `Draft recipe captured from spawn run ${runId}`,
    ...(Object.keys(defaults).length === 0 ? {} : { defaults }),
    template: input.template,
  };
}

const safeId = (id: string): string => id.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "") || "spawn";

export interface CaptureContext {
  readonly fs: FileSystem;
  readonly lock: Lock;
  readonly paths: AgentPaths;
  readonly now: () => number;
}

export async function captureDraft(ctx: CaptureContext, input: InlineDraft): Promise<DraftCaptured> {
  const at = ctx.now();
  const runId = safeId(input.runId ?? `spawn-${at}`);
  const recipe = draftRecipe(input, runId);
  const text = `${JSON.stringify(recipe, null, 2)}\n`;
  const bytes = new TextEncoder().encode(text);
  const loaded = loadRecipe({ path: join(ctx.paths.draftRoot, `${runId}.json`), size: bytes.length, mtimeMs: at, birthtimeMs: at, bytes }, runId, "json");
  if (E.isLeft(loaded)) return { captured: false, reason: `not a valid recipe: ${recipeProblem(loaded.left).message}` };
  const secret = secretReason(recipe, labelsAsWritten(loaded.right));
  if (secret !== undefined) return { captured: false, reason: `touches secrets (${secret})` };
  // a value written exactly as a placeholder (`x={y}`) would be stored as a default that reads
  // as a reference to another value: the draft would run another command than this spawn did
  const referring = Object.entries(input.values).find(([k, v]) => !RUN_KEYS.has(k) && isDefaultReference(v as Json));
  if (referring !== undefined)
    return { captured: false, reason: `the value of ${referring[0]} (${JSON.stringify(referring[1])}) would read as a reference to another value when the draft runs, so the draft could not run what this spawn ran` };
  await ensureDir(ctx.fs, ctx.paths.draftRoot);
  // create-only: a draft of another run with the same id is never overwritten, and a crash
  // leaves no draft or the whole draft, never a short one that reviews would then read
  let path = "";
  for (let n = 1; ; n++) {
    path = join(ctx.paths.draftRoot, `${n === 1 ? runId : `${runId}-${n}`}.json`);
    try {
      await writeFileAtomicExclusive(ctx.fs, path, text);
      break;
    } catch (e) {
      if (!(hasCode(e, "EEXIST") && e.syscall === "link") || n >= 100) throw e;
    }
  }
  // the draft folder lies in the recipe root (agent-paths.ts), so the draft's key is its path
  // from the root, and its lineage is named after the file
  const key = pathKey(ctx.paths.recipeRoot, path)!;
  const name = lineageName(key);
  const ledger = openLedger({ fs: ctx.fs, lock: ctx.lock, recipeRoot: ctx.paths.recipeRoot, now: ctx.now });
  try {
    const seeded = await seedObserved(ledger, [{ key, name, fingerprint: executableFingerprint(loaded.right) }]);
    return { captured: true, path, diagnostics: seeded.diagnostics };
  } finally {
    await closeLedger(ledger);
  }
}
