// The launch count a recipe written by pi-actors still carries in its own `usage` object. A module
// of its own, without the ledger's transitions: the launch log reads it on every line, and the
// launch log is opened by every session (also one that only lists).
export interface CarriedUsage {
  readonly calls: number;
  readonly last_called?: string;
}

/** The `usage` object pi-actors stored inside a recipe, when it holds a launch count. */
export function carriedUsage(usage: unknown): CarriedUsage | undefined {
  if (typeof usage !== "object" || usage === null || Array.isArray(usage)) return undefined;
  const u = usage as Record<string, unknown>;
  const calls = u["calls"];
  if (typeof calls !== "number" || !Number.isInteger(calls) || calls <= 0) return undefined;
  const last = u["last_called"];
  return { calls, ...(typeof last === "string" && !Number.isNaN(Date.parse(last)) ? { last_called: new Date(last).toISOString() } : {}) };
}
