// The `sandbox` recipe field as written, and the check the field table decodes it with. Kept apart
// from the policy (policy.ts), which resolves paths with the template code: the field table
// imports this module, and the template code imports the field table.
/** The field as written: `true`, `false`, or an object. */
export interface SandboxSpec {
  readonly network?: boolean;
  readonly write?: readonly string[];
  readonly read_deny?: readonly string[];
}
export type SandboxField = boolean | SandboxSpec;

const SPEC_KEYS: ReadonlySet<string> = new Set(["network", "write", "read_deny"]);
const isPlain = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u) && (Object.getPrototypeOf(u) === Object.prototype || Object.getPrototypeOf(u) === null);
const isStrings = (u: unknown): boolean => Array.isArray(u) && u.every((s) => typeof s === "string");

/** A valid field. A host list in `network` is refused, never ignored: bubblewrap can cut the
 * network off or leave it, not filter it by host (docs/sandbox.md). Unknown keys are refused too,
 * so that a typo (`netwrok`) cannot widen what a recipe may do. */
export function isSandboxField(u: unknown): u is SandboxField {
  if (typeof u === "boolean") return true;
  if (!isPlain(u)) return false;
  for (const key of Object.keys(u)) if (!SPEC_KEYS.has(key)) return false;
  if (u["network"] !== undefined && typeof u["network"] !== "boolean") return false;
  if (u["write"] !== undefined && !isStrings(u["write"])) return false;
  if (u["read_deny"] !== undefined && !isStrings(u["read_deny"])) return false;
  return true;
}

export const SANDBOX_EXPECTED =
  "true, false or an object with only network (true or false: a list of host names cannot be enforced by bubblewrap), write and read_deny (arrays of paths)";
