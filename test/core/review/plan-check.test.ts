// The executor's own check of a written draft-review plan: an unknown action, a promotion without
// a target, a discard with one, or a target whose digest does not match its content are refused.
import { describe, expect, it } from "vitest";
import { planFaults } from "../../../core/review/plan-check.js";
import type { ExecutionPlan } from "../../../core/review/decide.js";
import { sha256Hex } from "../../../core/ledger/sha256.js";

const content = '{\n  "template": "echo 1"\n}\n';
const item = (position: number, extra: object) => ({ position, source: `/d/${position}.json`, sha256: "s", quarantine: `q${position}`, rationale: "r", ...extra });
const plan = (...items: object[]): ExecutionPlan => ({ batchId: "b", items: items as unknown as ExecutionPlan["items"] });
const target = { name: "t", path: "/r/t.json", content, sha256: sha256Hex(content) };

describe("planFaults", () => {
  it("passes a plan of known actions", () => {
    expect(planFaults(plan(item(1, { action: "discard" }), item(2, { action: "promote", target })))).toEqual([]);
  });

  it("lists every fault in item order", () => {
    expect(
      planFaults(
        plan(
          item(1, { action: "merge", target }),
          item(2, { action: "discard", target }),
          item(3, { action: "promote" }),
          item(4, { action: "promote", target: { ...target, sha256: "0".repeat(64) } }),
          item(5, {}),
        ),
      ),
    ).toEqual([
      'unknown plan action at item 1: "merge"',
      "discard with a target at item 2",
      "promotion without a target at item 3",
      "promotion target digest does not match its content at item 4",
      "unknown plan action at item 5: undefined",
    ]);
  });

  it("an item that is not an object is an unknown action at an unknown position", () => {
    expect(planFaults(plan(null as unknown as object, "promote" as unknown as object))).toEqual(["unknown plan action at item ?: undefined", "unknown plan action at item ?: undefined"]);
    expect(planFaults(plan(item(7, { action: "promote", target: null })))).toEqual(["promotion without a target at item 7"]);
  });
});
