// End to end: real discovery feeding the doctor view.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { inspectRecipes } from "../../../core/views/summary.js";
import { root, snapshot, userRoot } from "../../support/snapshot.js";

describe("remediations from discovery", () => {
  const d = discover(
    snapshot([
      userRoot({
        "broken.json": "{ nope",
        "disabled-one.json": { disabled: true, template: "echo off" },
        "shell-risk.json": { template: "bash -c 'echo risky'" },
        "async-worker.json": { async: true, template: "sleep 1" },
      }),
      root("/P", { "broken.json": { template: "echo low" }, "disabled-one.json": { template: "echo low" } }),
    ]),
  );
  const doctor = inspectRecipes(d, { view: "doctor", verbose: false });
  const details = doctor.details as {
    remediations: { kind: string; id: string; blocked_fallback?: string }[];
    top_action: { id: string; blocked_fallback?: string };
    active: { id: string; risk_labels?: string[] }[];
  };

  it("orders remediation kinds by rank", () => {
    expect(details.remediations.map((r) => r.kind)).toEqual([
      "blocking_invalid",
      "blocking_disabled",
      "risky_shell_boundary",
      "shadowed",
      "shadowed",
    ]);
  });

  it("top_action is the first remediation, pointing at the blocked fallback", () => {
    expect(details.top_action.id).toBe("broken");
    expect(details.top_action.blocked_fallback?.endsWith("broken.json")).toBe(true);
    expect(details.top_action.blocked_fallback).toBe("/P/broken.json");
  });

  it("labels risks", () => {
    expect(details.active.find((a) => a.id === "shell-risk")?.risk_labels).toEqual(["risk.shell", "risk.eval"]);
    expect(details.active.find((a) => a.id === "async-worker")?.risk_labels).toContain("risk.long_running");
  });

  it("the compact doctor names the top action first", () => {
    expect(doctor.text.split("\n")[1]).toMatch(/^top severity=error kind=blocking_invalid id=broken blocked=\S+: fix recipe syntax\/config, or disable/);
  });
});
