// The executable fingerprint of a recipe (ruling 8): what the tool does, not how it is described.
// It covers every field discovery reads except the name (a rename is not a revision), the
// description, inline usage and the raw text: so the template graph (the envelope with the
// control keys given at top level), args, defaults, values, imports, async and the control flags.
// Reformatting a file or reordering its keys changes nothing.
//
// core/discovery/fingerprint.ts (`toolFingerprint`, used to tell which live tools changed) picks
// the same content; this is its digest form, and for any tool spec
// `executableFingerprint(spec.config) === sha256Hex(toolFingerprint(spec))` (tested), so the
// ledger and the live registry agree on what a revision is.
import type { Json, RecipeConfig } from "../model.js";
import { canonicalJson } from "./canonical.js";
import { sha256Hex } from "./sha256.js";

const NOT_EXECUTABLE: ReadonlySet<string> = new Set<keyof RecipeConfig>(["name", "description", "usage", "raw"]);

/** The executable part of a recipe as one JSON object; `async` is always a boolean. */
export function executableContent(config: RecipeConfig): { readonly [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const [key, value] of Object.entries(config)) {
    if (!NOT_EXECUTABLE.has(key) && value !== undefined) out[key] = value as Json;
  }
  out["async"] = config.async === true;
  return out;
}

const cache = new WeakMap<RecipeConfig, string>();

/** Lowercase hex sha256 of the canonical JSON of the executable content. */
export function executableFingerprint(config: RecipeConfig): string {
  const known = cache.get(config);
  if (known !== undefined) return known;
  const fingerprint = sha256Hex(canonicalJson(executableContent(config)));
  cache.set(config, fingerprint);
  return fingerprint;
}
