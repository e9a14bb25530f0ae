import { describe, expect, it } from "vitest";
import { buildRecipesSummary } from "../../../core/views/registry-summary.js";
import { buildDiscovery, draft, userOverPackaged } from "../../support/views-discovery.js";

const HIGH = "/home/u/.pi/agent/recipes";
const LOW = "/pkg/recipes";

describe("remediations", () => {
  const summary = buildRecipesSummary(userOverPackaged(), { view: "doctor" });

  it("orders kinds by rank, then id, then path", () => {
    expect(summary.remediations.map((r) => r.kind)).toEqual([
      "blocking_invalid",
      "blocking_disabled",
      "risky_shell_boundary",
      "shadowed",
      "shadowed",
    ]);
    expect(summary.remediations.map((r) => r.id)).toEqual(["broken", "disabled-one", "shell-risk", "broken", "disabled-one"]);
  });

  it("top_action is the first remediation, with the blocked fallback", () => {
    expect(summary.top_action).toEqual(summary.remediations[0]);
    expect(summary.top_action).toMatchObject({ id: "broken", severity: "error", kind: "blocking_invalid" });
    expect(summary.top_action?.blocked_fallback).toMatch(/broken\.json$/);
    expect(summary.top_action?.blocked_fallback).toBe(`${LOW}/broken.json`);
  });

  it("risky_shell_boundary carries labels and the first warning as reason", () => {
    const risky = summary.remediations[2];
    expect(risky?.risk_labels).toEqual(["risk.shell", "risk.eval"]);
    expect(risky?.reason).toMatch(/^Recipe .*shell-risk\.json: bash: invokes bash; shell command strings/);
    expect(risky?.action).toBe(
      'audit trusted command boundary; keep only if the recipe is local and intentional; or confine it: add "sandbox": true (no network, writes only under the working directory; docs/sandbox.md)',
    );
  });

  it("shadowed remediations name the active path", () => {
    expect(summary.remediations[3]).toMatchObject({
      path: `${LOW}/broken.json`,
      active_path: `${HIGH}/broken.json`,
      reason: `shadowed by ${HIGH}/broken.json`,
      severity: "info",
    });
  });

  it("risk labels per active entry and the risk summary", () => {
    const byId = new Map(summary.active.map((a) => [a.id, a]));
    expect(byId.get("shell-risk")?.risk_labels).toEqual(["risk.shell", "risk.eval"]);
    expect(byId.get("async-worker")?.risk_labels).toContain("risk.long_running");
    expect(byId.get("broken")).not.toHaveProperty("risk_labels");
    expect(summary.risk_summary).toEqual([
      { label: "risk.eval", count: 1, recipes: ["shell-risk"] },
      { label: "risk.long_running", count: 1, recipes: ["async-worker"] },
      { label: "risk.shell", count: 1, recipes: ["shell-risk"] },
    ]);
  });

  it("unblocked invalid and disabled winners rank as invalid/disabled", () => {
    const s = buildRecipesSummary(
      buildDiscovery([
        { path: "/r/a.json", problem: { kind: "invalid", message: "recipe must define template" } },
        { path: "/r/b.json", config: { disabled: true } },
        { path: "/r/c.json", config: { template: "rm -rf {dir}" } },
      ]),
      { view: "doctor" },
    );
    expect(s.remediations.map((r) => [r.kind, r.id])).toEqual([
      ["invalid", "a"],
      ["risky_shell_boundary", "c"],
      ["disabled", "b"],
    ]);
    expect(s.remediations[0]).not.toHaveProperty("blocked_fallback");
  });
});

describe("entry lists", () => {
  const summary = buildRecipesSummary(userOverPackaged(), { view: "summary" });

  it("active is sorted by id and keeps invalid and disabled winners", () => {
    expect(summary.active.map((a) => a.id)).toEqual(["async-worker", "broken", "disabled-one", "shell-risk"]);
    expect(summary.active[1]).toMatchObject({ id: "broken", name: "broken", format: "json", invalid: true, tool: false });
    expect(summary.active[1]?.shadows).toEqual([`${LOW}/broken.json`]);
  });

  it("shadowed entries carry both shadowedBy and shadowed_by", () => {
    expect(summary.shadowed).toEqual([
      {
        id: "broken",
        name: "broken",
        path: `${LOW}/broken.json`,
        format: "json",
        shadowedBy: `${HIGH}/broken.json`,
        shadowed_by: `${HIGH}/broken.json`,
        diagnostics: [],
      },
      {
        id: "disabled-one",
        name: "disabled-one",
        path: `${LOW}/disabled-one.json`,
        format: "json",
        shadowedBy: `${HIGH}/disabled-one.json`,
        shadowed_by: `${HIGH}/disabled-one.json`,
        diagnostics: [],
      },
    ]);
  });

  it("invalid entries carry diagnostics and errors; disabled entries name, path, format", () => {
    const message = `Failed to load recipe ${HIGH}/broken.json: Expected property name or '}' in JSON at position 2`;
    expect(summary.invalid).toEqual([
      { id: "broken", name: "broken", path: `${HIGH}/broken.json`, format: "json", diagnostics: [message], errors: [message] },
    ]);
    expect(summary.disabled).toEqual([
      { id: "disabled-one", name: "disabled-one", path: `${HIGH}/disabled-one.json`, format: "json" },
    ]);
  });

  it("errors keep only error-severity diagnostics", () => {
    const s = buildRecipesSummary(
      buildDiscovery([
        { path: "/r/x.json", config: {} },
        { path: "/r/x.md", problem: { kind: "invalid", message: "Markdown recipe frontmatter is not closed" } },
      ]),
      { view: "summary" },
    );
    expect(s.invalid[0]?.diagnostics).toHaveLength(2);
    expect(s.invalid[0]?.errors).toEqual(["Invalid recipe: /r/x.md: Markdown recipe frontmatter is not closed"]);
  });

  it("tools list name, path, format, description, async, args, required", () => {
    expect(summary.tools.map((t) => t.name)).toEqual(["async-worker", "shell-risk"]);
    expect(summary.tools[0]).toEqual({
      name: "async-worker",
      path: `${HIGH}/async-worker.json`,
      format: "json",
      description: "Execute template recipe: async-worker",
      async: true,
      args: [],
      required: [],
    });
  });

  it("diagnostics are objects in discovery order; the strings stay in diagnostic_messages", () => {
    expect(summary.diagnostic_messages).toEqual(userOverPackaged().diagnostics);
    expect(summary.diagnostics.map((d) => d.message)).toEqual(userOverPackaged().diagnostics);
    expect(summary.diagnostics[0]).toEqual({
      id: "broken",
      name: "broken",
      path: `${HIGH}/broken.json`,
      format: "json",
      message: "Recipe broken is invalid and blocks lower-priority recipes",
      severity: "error",
    });
    const root = buildRecipesSummary(buildDiscovery([], { rootDiagnostics: ["Recipe root is world-writable; review permissions: /r"] }), {
      view: "summary",
    });
    expect(root.diagnostics).toEqual([{ message: "Recipe root is world-writable; review permissions: /r", severity: "warning" }]);
  });
});

describe("recommendations", () => {
  it("first matching rule per entry, sorted by id then path", () => {
    const s = buildRecipesSummary(userOverPackaged(), { view: "summary" });
    expect(s.recommendations.map((r) => [r.id, r.path, r.reason])).toEqual([
      ["broken", `${HIGH}/broken.json`, "invalid recipe blocks lower-priority entries with the same id"],
      ["broken", `${LOW}/broken.json`, `shadowed by ${HIGH}/broken.json`],
      ["disabled-one", `${HIGH}/disabled-one.json`, "disabled recipe is retained but not exposed as a tool"],
      ["disabled-one", `${LOW}/disabled-one.json`, `shadowed by ${HIGH}/disabled-one.json`],
    ]);
  });

  it("flags unused user tools only when usage data exists", () => {
    const discovery = buildDiscovery([
      { path: "/r/unused.json", config: { usage: { calls: 0 } } },
      { path: "/r/used.json", config: { usage: { calls: 3 } } },
      { path: "/r/unknown.json", config: {} },
      { path: "/r/ledger.json", config: {} },
    ]);
    const s = buildRecipesSummary(discovery, {
      view: "summary",
      usage: (e) => (e.id === "ledger" ? { lifetime_calls: 0 } : undefined),
    });
    expect(s.recommendations).toEqual([
      {
        id: "ledger",
        path: "/r/ledger.json",
        reason: "active user tool has no recorded launches",
        actions: ["keep as tool", "move out of tool root", "delete", "archive"],
      },
      {
        id: "unused",
        path: "/r/unused.json",
        reason: "active user tool has no recorded launches",
        actions: ["keep as tool", "move out of tool root", "delete", "archive"],
      },
    ]);
    expect(s.active.find((a) => a.id === "used")?.usage).toEqual({ calls: 3 });
    expect(s.active.find((a) => a.id === "ledger")?.usage).toEqual({ lifetime_calls: 0 });
  });

  it("user-root components and healthy overrides", () => {
    const discovery = buildDiscovery([
      { path: "/u/comp.json", priority: 0, toolSource: false, mutableUsage: true, config: {} },
      { path: "/u/over.json", priority: 0, config: {} },
      { path: "/p/over.json", priority: 1, toolSource: false, mutableUsage: false, config: {} },
    ]);
    const s = buildRecipesSummary(discovery, { view: "summary" });
    expect(s.recommendations.map((r) => [r.path, r.reason, r.actions])).toEqual([
      ["/u/comp.json", "user recipe is a component, not an active tool", ["keep component", "move into tool root", "merge", "delete", "archive"]],
      ["/p/over.json", "shadowed by /u/over.json", ["merge", "delete", "archive"]],
      ["/u/over.json", "overrides 1 lower-priority recipe(s)", ["keep override", "merge", "delete", "archive"]],
    ]);
  });
});

describe("integrity manifest and drafts", () => {
  it("manifest covers every entry, sorted by id then path, sha256 from the digest", () => {
    const s = buildRecipesSummary(userOverPackaged(), { view: "summary", digest: (p) => `sha:${p.length}` });
    expect(s.integrity_manifest.map((m) => [m.id, m.path])).toEqual([
      ["async-worker", `${HIGH}/async-worker.json`],
      ["broken", `${HIGH}/broken.json`],
      ["broken", `${LOW}/broken.json`],
      ["disabled-one", `${HIGH}/disabled-one.json`],
      ["disabled-one", `${LOW}/disabled-one.json`],
      ["shell-risk", `${HIGH}/shell-risk.json`],
    ]);
    expect(s.integrity_manifest[2]).toEqual({
      active: false,
      disabled: false,
      id: "broken",
      invalid: false,
      path: `${LOW}/broken.json`,
      root: LOW,
      sha256: `sha:${`${LOW}/broken.json`.length}`,
      shadowed: true,
      size: 10,
      tool: false,
    });
    const plain = buildRecipesSummary(userOverPackaged(), { view: "summary" });
    expect(plain.integrity_manifest[0]).not.toHaveProperty("sha256");
  });

  it("drafts carry path, timestamps, fingerprint, validation, description, source run and a 120-char preview", () => {
    const long = "x".repeat(130);
    const discovery = buildDiscovery([], {
      drafts: [
        draft("/u/drafts/d1.json", { description: "Captured from spawn run r-42 today", template_preview: long, async: true }),
        draft("/u/drafts/d2.json", { valid: false, diagnostics: ["Invalid recipe: /u/drafts/d2.json: recipe must define template"] }),
        draft("/u/drafts/d3.json", { sha256: "given", template_preview: "y".repeat(120) }),
      ],
    });
    const s = buildRecipesSummary(discovery, { view: "summary", digest: () => "computed" });
    expect(s.drafts[0]).toEqual({
      id: "d1",
      name: "d1",
      path: "/u/drafts/d1.json",
      format: "json",
      sha256: "computed",
      size: 42,
      created_at: "2024-01-01T00:00:00.000Z",
      modified_at: "2024-01-02T00:00:00.000Z",
      valid: true,
      diagnostics: [],
      description: "Captured from spawn run r-42 today",
      source_run: "r-42",
      async: true,
      template_preview: `${"x".repeat(117)}...`,
    });
    expect(s.drafts[0]?.template_preview).toHaveLength(120);
    expect(s.drafts[1]).toMatchObject({ valid: false, errors: ["Invalid recipe: /u/drafts/d2.json: recipe must define template"] });
    expect(s.drafts[2]).toMatchObject({ sha256: "given", template_preview: "y".repeat(120) });
  });
});

describe("next_actions", () => {
  it("non-doctor views point at the doctor when something is invalid or diagnosed", () => {
    expect(buildRecipesSummary(userOverPackaged(), { view: "summary" }).next_actions).toEqual(["inspect target=recipes view=doctor"]);
    expect(buildRecipesSummary(userOverPackaged(), { view: "status" }).next_actions).toEqual(["inspect target=recipes view=doctor"]);
  });

  it("the doctor view suggests a command about the top action's recipe (its advice is on the top line)", () => {
    expect(buildRecipesSummary(userOverPackaged(), { view: "doctor" }).next_actions).toEqual(["inspect target=tool:broken"]);
  });

  it("drafts add the verbose summary and a spawn of the first draft; at most 4", () => {
    const discovery = buildDiscovery([{ path: "/r/a.json", problem: { kind: "invalid" } }], {
      drafts: [draft("/u/drafts/first.json"), draft("/u/drafts/second.json")],
    });
    expect(buildRecipesSummary(discovery, { view: "summary" }).next_actions).toEqual([
      "inspect target=recipes view=doctor",
      "inspect target=recipes view=summary verbose=true",
      "spawn file=/u/drafts/first.json",
    ]);
    expect(buildRecipesSummary(discovery, { view: "doctor" }).next_actions).toEqual([
      "inspect target=tool:a",
      "inspect target=recipes view=summary verbose=true",
      "spawn file=/u/drafts/first.json",
    ]);
  });

  it("the spawn offered is of the first draft that loads: one that does not (a FIFO, bad JSON) cannot run", () => {
    const broken = draft("/u/drafts/a-pipe.json", { valid: false, diagnostics: ["not a regular file"] });
    const withGood = buildDiscovery([{ path: "/r/a.json", config: {} }], { drafts: [broken, draft("/u/drafts/b-good.json")] });
    expect(buildRecipesSummary(withGood, { view: "summary" }).next_actions).toEqual(["inspect target=recipes view=summary verbose=true", "spawn file=/u/drafts/b-good.json"]);
    const onlyBroken = buildDiscovery([{ path: "/r/a.json", config: {} }], { drafts: [broken] });
    expect(buildRecipesSummary(onlyBroken, { view: "summary" }).next_actions).toEqual(["inspect target=recipes view=summary verbose=true"]);
  });

  it("a healthy registry has none", () => {
    const s = buildRecipesSummary(buildDiscovery([{ path: "/r/a.json", config: {} }]), { view: "summary" });
    expect(s.next_actions).toEqual([]);
    expect(s.remediations).toEqual([]);
    expect(s).not.toHaveProperty("top_action");
  });
});
