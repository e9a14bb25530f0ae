// The resolved config: the expanded template, and for a
// recipe that delegates as a whole, the target's fields where the wrapper has none of its own.
import type { Json, RecipeConfig } from "../model.js";
import { CONFIG_KEYS, INHERITED_FIELDS } from "./fields.js";
import { isEmpty, overlay } from "./own.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A field a delegating recipe without its own takes from its target: any it has, except an opt
 *  out of confinement (`sandbox: false`), which only the recipe's own file can say. The target may
 *  be a file anywhere (one an agent's confined command could write), and with
 *  PI_RECIPES_SANDBOX=on a tool that runs unconfined must be a recipe a person wrote so: the
 *  delegating recipe then runs confined unless it says `"sandbox": false` itself. */
export const inheritable = (key: string, value: unknown): boolean => value !== undefined && !(key === "sandbox" && value === false);

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
    for (const key of INHERITED_FIELDS) if (fields[key] === undefined && inheritable(key, target[key])) Object.assign(fields, { [key]: target[key] });
    const defaults = overlay(target.defaults, current.defaults);
    if (isEmpty(defaults)) delete fields.defaults;
    else fields.defaults = defaults;
  }
  // the same key order as a decoded config
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) if ((fields as Record<string, unknown>)[key] !== undefined) out[key] = (fields as Record<string, unknown>)[key];
  return out as unknown as RecipeConfig;
}
