// The terminal's summary table lists the diagnostics the head line counts, capped, and says
// where the rest are.
import { describe, expect, it } from "vitest";
import { tableFor } from "../../host-cli/tables.js";

const summaryWith = (diagnostics: number) => ({
  ok: true as const,
  text: "",
  details: {
    counts: { active: 1, components: 0, drafts: 0, shadowed: 0, invalid: 0, disabled: 0, current_policy: 0, recommendations: 0, diagnostics },
    tools: [{ name: "ok", args: [], description: "fine" }],
    diagnostics: Array.from({ length: diagnostics }, (_u, i) => ({ severity: i % 2 === 0 ? "error" : "warning", message: `finding ${i + 1}` })),
  },
});

describe("the terminal summary's diagnostics", () => {
  const cmd = { verb: "inspect", positional: [], params: { target: "recipes", view: "summary" }, json: false };

  it("lists each one under the tools", () => {
    const text = tableFor(cmd, summaryWith(3))!;
    expect(text).toContain("Diagnostics (3)\n  SEVERITY  MESSAGE\n  error     finding 1\n  warning   finding 2\n  error     finding 3");
  });

  it("shows twenty of many, counts them all, and names the view that has the rest", () => {
    const lines = tableFor(cmd, summaryWith(25))!.split("\n");
    expect(lines).toContain("Diagnostics (25)");
    expect(lines.filter((l) => /^ {2}(error|warning) +finding/.test(l))).toHaveLength(20);
    expect(lines).toContain("  … 5 more: pi-recipes inspect target=recipes view=doctor");
    expect(lines).not.toContain("  error     finding 21");
  });

  it("adds no table when there are none", () => {
    expect(tableFor(cmd, summaryWith(0))).not.toContain("Diagnostics");
  });
});
