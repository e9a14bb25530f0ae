// The executable fingerprint of a recipe: what the tool does, not how it is described. It covers
// the fields the recipe-field table (core/recipe/fields.ts) marks executable, so the template
// graph (the envelope with the control keys given at top level), args, defaults, values, imports,
// async and the control flags, and leaves out the name (a rename is not a revision), the
// description, `disabled` (whether the tool is offered), inline usage and the raw text. Reformatting a file or reordering its keys changes
// nothing. The live registry compares `executableText` to tell which tools changed; the ledger
// stores its digest, `executableFingerprint`, so both agree on what a revision is.
import type { Json, RecipeConfig } from "../model.js";
import { NOT_EXECUTABLE_FIELDS } from "../recipe/fields.js";
import { canonicalJson } from "./canonical-json.js";
import { sha256Hex } from "./sha256.js";

/** The executable part of a recipe as one JSON object; `async` is always a boolean. */
export function executableContent(config: RecipeConfig): { readonly [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const [key, value] of Object.entries(config)) {
    if (!NOT_EXECUTABLE_FIELDS.has(key) && value !== undefined) out[key] = value as Json;
  }
  out["async"] = config.async === true;
  return out;
}

/** Canonical JSON of the executable content: equal for two recipes exactly when they execute alike. */
export const executableText = (config: RecipeConfig): string => canonicalJson(executableContent(config));

/** Lowercase hex sha256 of `executableText`. */
export const executableFingerprint = (config: RecipeConfig): string => sha256Hex(executableText(config));
