import { describe, expect, it } from "vitest";
import { preview } from "../../../core/views/compact-text.js";
import { doctorText } from "../../../core/views/doctor.js";
import { buildRecipesSummary } from "../../../core/views/registry-summary.js";
import { buildDiscovery, userOverPackaged } from "../../support/views-discovery.js";

describe("preview72", () => {
  it("replaces whitespace runs with _ and keeps short values whole", () => {
    expect(preview("keep  disabled\tintentionally")).toBe("keep_disabled_intentionally");
    expect(preview("x".repeat(72))).toBe("x".repeat(72));
  });

  it("cuts values over 72 chars to 71 + …", () => {
    expect(preview("fix recipe syntax/config, or disable/delete/archive it to restore fallback")).toBe(
      "fix_recipe_syntax/config,_or_disable/delete/archive_it_to_restore_fallb…",
    );
    expect(preview("x".repeat(73))).toBe(`${"x".repeat(71)}…`);
    expect(preview("x".repeat(73))).toHaveLength(72);
  });
});

describe("doctorText", () => {
  it("compact doctor: counts of the findings it lists, advice as written, next commands last", () => {
    expect(doctorText(buildRecipesSummary(userOverPackaged(), { view: "doctor" }))).toBe(
      [
        "recipes doctor errors=1 warnings=2 info=2 actions=5 recommendations=4 risks=3 top_risks=risk.eval:1,risk.long_running:1,risk.shell:1",
        "top severity=error kind=blocking_invalid id=broken blocked=/pkg/recipes/broken.json: fix recipe syntax/config, or disable/delete/archive it to restore fallback",
        "error kind=blocking_invalid id=broken blocked=/pkg/recipes/broken.json: fix recipe syntax/config, or disable/delete/archive it to restore fallback",
        "warning kind=blocking_disabled id=disabled-one blocked=/pkg/recipes/disabled-one.json: keep disabled intentionally, re-enable, or delete/archive the file",
        "warning kind=risky_shell_boundary id=shell-risk labels=risk.shell,risk.eval: audit trusted command boundary; keep only if the recipe is local and intentional; or confine it: add \"sandbox\": true (no network, writes only under the working directory; docs/sandbox.md)",
        "info kind=shadowed id=broken: keep as fallback/component, merge, rename, delete, or archive",
        "info kind=shadowed id=disabled-one: keep as fallback/component, merge, rename, delete, or archive",
        "next: inspect target=tool:broken",
      ].join("\n"),
    );
  });

  it("a healthy registry is a single line without top or next", () => {
    const text = doctorText(buildRecipesSummary(buildDiscovery([{ path: "/r/a.json", config: {} }]), { view: "doctor" }));
    expect(text).toBe("recipes doctor errors=0 warnings=0 info=0 actions=0 recommendations=0 risks=0");
  });

  it("shows at most 8 remediation lines, 4 top risks and 4 labels per line", () => {
    const specs = Array.from({ length: 10 }, (_, i) => ({
      path: `/r/r${i}.json`,
      config: { template: ["bash -c x", "rm -rf {d}", "cp {a} /b", "gh pr create", "curl {api_key}", "sleep 1"] },
    }));
    const summary = buildRecipesSummary(buildDiscovery(specs), { view: "doctor" });
    const lines = doctorText(summary).split("\n").slice(0);
    expect(summary.remediations).toHaveLength(10);
    expect(lines).toHaveLength(1 + 1 + 8 + 1 + 1);
    expect(lines[0]).toMatch(/ actions=10 /);
    expect(lines[10]).toBe("… +2 more (inspect target=recipes view=doctor verbose=true gives every finding, as JSON)");
    // nine labels per recipe: `curl {api_key}` also lets a string value become an option of curl
    expect(lines[0]).toMatch(/ risks=90 top_risks=([a-z._]+:10,){3}[a-z._]+:10$/);
    expect(lines[2]).toBe(
      "warning kind=risky_shell_boundary id=r0 labels=risk.shell,risk.eval,risk.destructive_fs,risk.broad_fs_write: audit trusted command boundary; keep only if the recipe is local and intentional; or confine it: add \"sandbox\": true (no network, writes only under the working directory; docs/sandbox.md)",
    );
    expect(lines[9]).toMatch(/ id=r7 /);
  });

  it("lists and counts a recipe root's diagnostics as findings of their own", () => {
    const summary = buildRecipesSummary(
      buildDiscovery([], { rootDiagnostics: ["Recipe root is world-writable; review permissions: /r", "Recipe root is group-writable; review ownership and permissions: /r"] }),
      { view: "doctor" },
    );
    expect(doctorText(summary).split("\n")).toEqual([
      "recipes doctor errors=0 warnings=2 info=0 actions=2 recommendations=0 risks=0",
      "top severity=warning kind=diagnostic id=-: Recipe root is group-writable; review ownership and permissions: /r: tighten recipe root permissions",
      "warning kind=diagnostic id=-: Recipe root is group-writable; review ownership and permissions: /r: tighten recipe root permissions",
      "warning kind=diagnostic id=-: Recipe root is world-writable; review permissions: /r: tighten recipe root permissions",
    ]);
  });
});
