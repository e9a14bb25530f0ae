import { describe, expect, it } from "vitest";
import { inspectRecipes, UNKNOWN_RECIPES_VIEW } from "../../../core/views/summary.js";
import { buildDiscovery, draft, userOverPackaged } from "../../support/views-discovery.js";

const H = "/home/u/.pi/agent/recipes";
const STATUS =
  "recipes active=2 components=0 drafts=0 shadowed=2 invalid=1 disabled=1 current_policy=0 recommendations=4 diagnostics=6 next=inspect_target=recipes_view=doctor";

describe("inspectRecipes", () => {
  it("view=status is the single counts line", () => {
    const r = inspectRecipes(userOverPackaged(), { view: "status", verbose: false });
    expect(r.ok).toBe(true);
    expect(r.text).toBe(STATUS);
  });

  it("view=summary adds per-entry lines after the counts line", () => {
    const r = inspectRecipes(userOverPackaged(), { view: "summary", verbose: false });
    expect(r.text.split("\n")).toEqual([
      STATUS,
      "  tools: async-worker, shell-risk",
      `  shadowed: /pkg/recipes/broken.json (by ${H}/broken.json)`,
      `  shadowed: /pkg/recipes/disabled-one.json (by ${H}/disabled-one.json)`,
      `  invalid: broken: Failed to load recipe ${H}/broken.json: Expected property name or '}' in JSON at position 2`,
      `  disabled: ${H}/disabled-one.json`,
      "  diagnostic error: Recipe broken is invalid and blocks lower-priority recipes",
      "  diagnostic info: Recipe broken shadows 1 lower-priority recipe(s)",
      `  diagnostic error: Failed to load recipe ${H}/broken.json: Expected property name or '}' in JSON at position 2`,
      "  diagnostic info: Recipe disabled-one is disabled and blocks lower-priority recipes",
      "  diagnostic info: Recipe disabled-one shadows 1 lower-priority recipe(s)",
      `  diagnostic warning: Recipe ${H}/shell-risk.json: bash: invokes bash; shell command strings are trusted executable content and are not sandboxed by command-template argv splitting. Mitigation: keep scripts local, reviewed, and parameterized with explicit placeholders.`,
    ]);
  });

  it("counts drafts and caps long lists", () => {
    const specs = Array.from({ length: 60 }, (_, i) => ({ path: `/r/t${String(i).padStart(2, "0")}.json`, config: {} }));
    const discovery = buildDiscovery(specs, { drafts: [draft("/u/drafts/a.json"), draft("/u/drafts/b.json")] });
    const r = inspectRecipes(discovery, { view: "summary", verbose: false });
    const lines = r.text.split("\n");
    expect(lines[0]).toBe(
      "recipes active=60 components=0 drafts=2 shadowed=0 invalid=0 disabled=0 current_policy=0 recommendations=0 diagnostics=0 next=inspect_target=recipes_view=summary_verbose=true|spawn_file=/u/drafts/a.json",
    );
    expect(lines[1]).toMatch(/^ {2}tools: t00, t01, .*, t49, … \+10 more$/);
    expect(lines[2]).toBe("  drafts: 2");
    expect(lines).toHaveLength(3);
  });

  it("an empty registry is one line", () => {
    const r = inspectRecipes(buildDiscovery([]), { view: "summary", verbose: false });
    expect(r.text).toBe(
      "recipes active=0 components=0 drafts=0 shadowed=0 invalid=0 disabled=0 current_policy=0 recommendations=0 diagnostics=0",
    );
  });

  it("verbose returns the pretty JSON of the same details", () => {
    for (const view of ["status", "summary", "doctor", "imports"]) {
      const r = inspectRecipes(userOverPackaged(), { view, verbose: true });
      expect(r.text).toBe(JSON.stringify(r.details, null, 2));
    }
    const r = inspectRecipes(userOverPackaged(), { view: "summary", verbose: true, digest: () => "abc" });
    expect(JSON.parse(r.text).integrity_manifest[0].sha256).toBe("abc");
  });

  it("view=doctor renders the doctor text with doctor next_actions", () => {
    const r = inspectRecipes(userOverPackaged(), { view: "doctor", verbose: false });
    expect(r.text.split("\n")[0]).toMatch(/^recipes doctor errors=1 warnings=2 info=2 actions=5 /);
    expect(r.details["next_actions"]).toEqual(["inspect target=tool:broken"]);
  });

  it("view=imports lists one line per import of an active recipe", () => {
    const discovery = buildDiscovery([
      { path: "/r/b.json", config: { imports: { base: "./base.json", lint: { from: "~/lint.md" } } } },
      { path: "/r/a.json", config: { imports: { x: "pkg:x" } } },
    ]);
    expect(inspectRecipes(discovery, { view: "imports", verbose: false }).text).toBe(
      "recipe=a alias=x from=pkg:x\nrecipe=b alias=base from=./base.json\nrecipe=b alias=lint from=~/lint.md",
    );
    expect(inspectRecipes(buildDiscovery([{ path: "/r/a.json", config: {} }]), { view: "imports", verbose: false }).text).toBe("(no recipe imports)");
  });

  it("view=imports names each recipe that does not load: its imports are not known, and the list does not read as empty", () => {
    const lines = inspectRecipes(userOverPackaged(), { view: "imports", verbose: false }).text.split("\n");
    expect(lines[0]).toBe("(no recipe imports among the recipes that load)");
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^invalid: broken: .+ \(its imports are not known\)$/);
  });

  it("view=reviews is idle for now, without a leading newline", () => {
    const r = inspectRecipes(userOverPackaged(), { view: "reviews", verbose: false });
    expect(r.text).toBe("automatic_reviews draft=idle tool=idle\nlineages=0 revision_snapshots=0");
    expect(r.details).toEqual({
      draft_review: { phase: "idle" },
      lineage_count: 0,
      lineages: [],
      revision_snapshots: 0,
      tool_review: { phase: "idle" },
    });
  });

  it("other views are an error with the exact text", () => {
    const r = inspectRecipes(userOverPackaged(), { view: "triage", verbose: false });
    expect(r.ok).toBe(false);
    expect(r.text).toBe("inspect recipes supports view=status, view=summary, view=doctor, view=imports, or view=reviews.");
    expect(r.text).toBe(UNKNOWN_RECIPES_VIEW);
  });

  it("details carry the issue's arrays alongside the older keys", () => {
    const d = inspectRecipes(userOverPackaged(), { view: "summary", verbose: false }).details;
    for (const key of ["tools", "shadowed", "invalid", "disabled", "drafts", "diagnostics"]) expect(Array.isArray(d[key])).toBe(true);
    for (const key of ["active", "risk_summary", "recommendations", "remediations", "top_action", "diagnostic_messages", "diagnostic_details", "integrity_manifest", "next_actions"])
      expect(d).toHaveProperty(key);
  });
});
