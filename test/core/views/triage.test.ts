import { describe, expect, it } from "vitest";
import { idleReviews } from "../../../core/views/render.js";
import { buildRecipesSummary } from "../../../core/views/registry-summary.js";
import { runtimeStatus } from "../../../core/views/tool-status.js";
import { buildTriage, noRuns, triageText, type RunFacts } from "../../../core/views/triage.js";
import { buildDiscovery, draft, userOverPackaged } from "../../support/views-discovery.js";

const runtime = runtimeStatus({
  packageName: "pi-recipes",
  version: "0.1.0",
  packageRoot: "/p",
  entrypoint: "/p/dist/host-pi/index.js",
  recipeRoot: "/r",
  draftRoot: "/r/drafts",
  automaticReview: true,
});

describe("triage", () => {
  it("a healthy registry with no runs needs no attention", () => {
    const summary = buildRecipesSummary(buildDiscovery([{ path: "/r/ok.json", config: { template: "echo ok" } }]), { view: "summary" });
    const t = buildTriage(runtime, summary, noRuns("s1"));
    expect(t.current_session).toBe("s1");
    expect(t.next_actions).toEqual([]);
    expect(triageText(t)).toBe(
      "triage version=0.1.0 mode=dist active_runs=0 other_runs=0 invalid_recipes=0 blocking_recipes=0 high_risk_recipes=0 drafts=0 stale_claims=0 failed_runs=0 attention=0 reviews_needing_action=0",
    );
  });

  it("names the automatic reviews that failed and wait for an operator, and points at the reviews view", () => {
    const summary = buildRecipesSummary(buildDiscovery([{ path: "/r/ok.json", config: { template: "echo ok" } }]), { view: "summary" });
    const reviews = { ...idleReviews(), draft_review: { phase: "completed" }, tool_review: { phase: "processing_failed", last_error: "Reviewed tool changed after capture: t07" } };
    const t = buildTriage(runtime, summary, noRuns(), reviews);
    expect(t.reviews_needing_action).toEqual([{ scope: "tool", phase: "processing_failed", last_error: "Reviewed tool changed after capture: t07" }]);
    expect(t.next_actions[0]).toBe("inspect target=recipes view=reviews");
    expect(triageText(t)).toContain(" reviews_needing_action=1 ");
    expect(buildTriage(runtime, summary, noRuns(), { ...idleReviews(), draft_review: { phase: "failed" } }).reviews_needing_action).toEqual([{ scope: "draft", phase: "failed" }]);
  });

  it("counts invalid, blocking and risky tools; a long-running label alone is no attention; components are not tools", () => {
    const summary = buildRecipesSummary(userOverPackaged(), { view: "summary" });
    const t = buildTriage(runtime, summary, noRuns());
    expect(t.invalid_recipes.map((i) => i.id)).toContain("broken");
    expect(t.blocking_recipes.map((b) => b.kind)).toEqual(["blocking_invalid", "blocking_disabled"]);
    for (const r of t.high_risk_recipes) expect(r.risk_labels.some((l) => l !== "risk.long_running")).toBe(true);
    expect(t.next_actions).toEqual(["inspect target=recipes view=doctor"]);
  });

  it("orders next actions and caps the run lists", () => {
    const summary = buildRecipesSummary(
      buildDiscovery([{ path: "/r/bad.json" }], { drafts: [draft("/r/drafts/d.json")] }),
      { view: "summary" },
    );
    const runs: RunFacts = {
      current_session: "s",
      active_runs: [{ run: "a1", status: "running" }],
      other_session_runs: 3,
      stale_claims: [],
      recent_failed_runs: Array.from({ length: 7 }, (_, i) => ({ run: `f${i}`, status: "failed" })),
      attention_messages: Array.from({ length: 12 }, (_, i) => ({ run: `m${i}`, id: `${i}` })),
    };
    const t = buildTriage(runtime, summary, runs);
    expect(t.recent_failed_runs).toHaveLength(5);
    expect(t.attention_messages.map((m) => m.run)[0]).toBe("m2");
    expect(t.next_actions).toEqual([
      "inspect target=recipes view=doctor",
      "inspect target=recipes view=summary verbose=true",
      "inspect target=run:f0 view=tail lines=80",
      "inspect target=run:m2 view=tail",
      "inspect target=run:a1 view=status",
    ]);
    expect(triageText(t)).toContain(
      "active_runs=1 other_runs=3 invalid_recipes=1 blocking_recipes=0 high_risk_recipes=0 drafts=1 stale_claims=0 failed_runs=5 attention=10 reviews_needing_action=0" +
        " next=inspect_target=recipes_view=doctor|inspect_target=recipes_view=summary_verbose=true|inspect_target=run:f0_view=tail_lines=80|inspect_target=run:m2_view=tail|inspect_target=run:a1_view=status",
    );
  });
});
