// The resolved config: the expanded template, and for a
// recipe that delegates as a whole, the target's fields where the wrapper has none of its own.
import type { Json, RecipeConfig } from "../model.js";
import { INHERITED_FIELDS } from "./fields.js";
import { isEmpty, overlay } from "./own.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Step 7 key order; `template` and `raw` are always present. */
const KEY_ORDER: readonly (keyof RecipeConfig)[] = [
  "name", "description", "disabled", "async", "imports", "template", "args", "arg_descriptions", "defaults", "parallel", "concurrency",
  "min_successful", "label", "when", "timeout", "delay", "accept_output", "output", "artifacts", "mailbox",
  "retire_when", "retry", "failure", "recover", "repeat", "values", "usage", "actor_context", "sandbox", "raw",
];


/**
 * `original` is the recipe as loaded (its `imports` and `raw` are kept as written), `current` the
 * same recipe after import references were substituted, `target` the recipe it delegates to,
 * `borrowed` the argument descriptions of the recipes placed in its template (the target's
 * included): its own `arg_descriptions` win name by name.
 */
export function finishConfig(
  original: RecipeConfig, current: RecipeConfig, template: Json, target?: RecipeConfig, borrowed?: Readonly<Record<string, string>>,
): RecipeConfig {
  const fields: Partial<Mutable<RecipeConfig>> = { ...current, template, raw: original.raw };
  if (borrowed !== undefined) fields.arg_descriptions = { ...borrowed, ...current.arg_descriptions };
  if (original.imports === undefined) delete fields.imports;
  else fields.imports = original.imports;
  if (target !== undefined) {
    for (const key of INHERITED_FIELDS) if (fields[key] === undefined && target[key] !== undefined) Object.assign(fields, { [key]: target[key] });
    const defaults = overlay(target.defaults, current.defaults);
    if (isEmpty(defaults)) delete fields.defaults;
    else fields.defaults = defaults;
  }
  const out: Partial<Mutable<RecipeConfig>> = {};
  for (const key of KEY_ORDER) if (fields[key] !== undefined) Object.assign(out, { [key]: fields[key] });
  return out as RecipeConfig;
}
