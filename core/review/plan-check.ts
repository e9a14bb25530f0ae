// The executor's own check of a written plan, before it touches a file. Validation already
// refuses unknown actions, but the plan on disk is what runs: a plan whose item names an action
// the executor does not know, a promotion without a target, a discard with one, or a target whose
// digest does not match its content is refused whole, so nothing is moved on a guess.
import type { ExecutionPlan } from "./decide.js";
import { sha256Hex } from "../ledger/sha256.js";

export const KNOWN_ACTIONS: ReadonlySet<string> = new Set(["promote", "discard"]);

/** Every reason the plan must not run, in item order; empty when it may. */
export function planFaults(plan: ExecutionPlan): string[] {
  const faults: string[] = [];
  for (const item of plan.items as readonly unknown[]) {
    const i = (typeof item === "object" && item !== null ? item : {}) as { [k: string]: unknown };
    const at = typeof i["position"] === "number" ? String(i["position"]) : "?";
    const action = i["action"];
    const target = i["target"] as { content?: unknown; sha256?: unknown } | undefined;
    if (typeof action !== "string" || !KNOWN_ACTIONS.has(action)) {
      faults.push(`unknown plan action at item ${at}: ${JSON.stringify(action) ?? "undefined"}`);
      continue;
    }
    if (action === "discard" && target !== undefined) faults.push(`discard with a target at item ${at}`);
    if (action === "promote") {
      if (typeof target !== "object" || target === null || typeof target.content !== "string") faults.push(`promotion without a target at item ${at}`);
      else if (target.sha256 !== sha256Hex(target.content)) faults.push(`promotion target digest does not match its content at item ${at}`);
    }
  }
  return faults;
}
