// The executable identity of a tool (spec README ruling 8): what a call would run, and nothing a
// call does not depend on. Two specs with equal fingerprints execute the same way, so a call
// resolved against one may run against the other; the description, usage metadata and the
// file's formatting are left out.
import type { Json, RecipeConfig } from "../model.js";
import type { ToolSpec } from "./types.js";

/** RecipeConfig fields that are not executable content. */
const NOT_EXECUTABLE: ReadonlySet<string> = new Set<keyof RecipeConfig>(["name", "description", "usage", "raw"]);

// object keys sorted at every level, so that key order in the file does not matter
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const obj = value as { readonly [k: string]: Json | undefined };
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`;
}

const cache = new WeakMap<ToolSpec, string>();

/**
 * A string equal for two tools exactly when they execute alike: the resolved template graph
 * (imports expanded, control keys in its envelope), args, defaults, values, imports, async and the
 * control flags. Canonical JSON, so that equal content gives equal strings.
 */
export function toolFingerprint(spec: ToolSpec): string {
  const known = cache.get(spec);
  if (known !== undefined) return known;
  const executable: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec.config)) {
    if (!NOT_EXECUTABLE.has(key) && value !== undefined) executable[key] = value;
  }
  executable["async"] = spec.async;
  const fingerprint = canonical(executable);
  cache.set(spec, fingerprint);
  return fingerprint;
}
