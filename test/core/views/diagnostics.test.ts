import { describe, expect, it } from "vitest";
import { diagnosticAction, diagnosticDetails, diagnosticSeverity } from "../../../core/views/diagnostics.js";
import { buildDiscovery, userOverPackaged } from "../../support/views-discovery.js";

describe("diagnosticSeverity", () => {
  it.each([
    ["Recipe broken is invalid and blocks lower-priority recipes", "error"],
    ["Invalid recipe: /r/x.json: recipe must define template", "error"],
    ["Invalid recipe: /r/x.json", "error"],
    ["Failed to load recipe /r/x.json: Recipe file exceeds size limit 1048576 bytes: /r/x.json", "error"],
    ["Recipe x could not be exposed as a tool: Command template repeat must be a positive integer.", "error"],
    ["Import cycle is cyclic", "error"],
    ["Recipe root is world-writable; review permissions: /r", "warning"],
    ["Recipe root is group-writable; review ownership and permissions: /r", "warning"],
    ["Recipe root grants write access to broad Windows principals; review ACLs: C:\\r", "warning"],
    ["Recipe /r/x.json: rm: removes filesystem paths; verify placeholders and paths before running trusted destructive commands. Mitigation: constrain path placeholders and consider dry-run or explicit confirmation.", "warning"],
    ["Recipe /r/x.json: node: invokes node eval mode; code strings are trusted executable content and are not sandboxed. Mitigation: prefer a checked-in script file or keep eval input fixed and reviewed.", "warning"],
    ["something unsafe happened", "warning"],
    ["Recipe x shadows 2 lower-priority recipe(s)", "info"],
    ["Recipe x is disabled and blocks lower-priority recipes", "info"],
    ["Markdown recipe /r/same.md is shadowed by JSON recipe /r/same.json", "info"],
    ["Something else entirely", "info"],
  ] as const)("%s → %s", (message, severity) => {
    expect(diagnosticSeverity(message)).toBe(severity);
  });

  it("classifies by message shape, not by words inside ids or paths", () => {
    expect(diagnosticSeverity("Recipe invalid-eval shadows 1 lower-priority recipe(s)")).toBe("info");
    expect(diagnosticSeverity("Markdown recipe /r/invalid.md is shadowed by JSON recipe /r/invalid.json")).toBe("info");
    expect(diagnosticSeverity("Recipe eval is disabled and blocks lower-priority recipes")).toBe("info");
  });

  it("treats every shell boundary as a warning, not only bash", () => {
    const sh =
      "Recipe /r/x.json: sh: invokes sh; shell scripts are trusted executable content and are not sandboxed by command-template argv splitting. Mitigation: keep scripts local, reviewed, and parameterized with explicit placeholders.";
    expect(diagnosticSeverity(sh, "shell")).toBe("warning");
    expect(diagnosticAction(sh, "shell")).toBe("audit the trusted shell boundary and keep only if intentional");
  });

  it("classifies a recipe's warning by the kind the compile step tagged it with, not by words in its path", () => {
    // the path holds words the text fallbacks would read as an error or a root-permission problem
    const path = "/r/world-writable-invalid.json";
    const discovery = buildDiscovery([{ path, config: { template: "sh -c {cmd}" } }]);
    const [detail] = diagnosticDetails(discovery).filter((d) => d.path === path);
    expect(detail).toMatchObject({
      severity: "warning",
      action: "audit the trusted shell boundary and keep only if intentional",
    });
    expect(detail?.message).toMatch(/^Recipe \/r\/world-writable-invalid\.json: sh: invokes sh; /);
  });
  it("classifies the registry's own diagnostics by what they are, not by words in a recipe's name", () => {
    // "json" and "eval" in the name would read as a syntax problem and a warning by their words
    const discovery = buildDiscovery([
      { path: "/a/parse-json-eval.json", priority: 0, problem: { kind: "invalid", message: "recipe must define template" } },
      { path: "/b/parse-json-eval.json", priority: 1, config: { template: "echo fallback" } },
    ]);
    const blocks = diagnosticDetails(discovery).find((d) => d.message === "Recipe parse-json-eval is invalid and blocks lower-priority recipes");
    expect(blocks).toMatchObject({
      id: "parse-json-eval",
      severity: "error",
      action: "fix the recipe, or disable/delete/archive it to restore the fallback",
    });
    const shadows = diagnosticDetails(discovery).find((d) => d.message === "Recipe parse-json-eval shadows 1 lower-priority recipe(s)");
    expect(shadows).toMatchObject({ severity: "info", action: "confirm the active override or rename one recipe" });
  });
});

describe("diagnosticAction", () => {
  it("suggests a step per kind of problem", () => {
    expect(diagnosticAction("Recipe root is world-writable; review permissions: /r")).toBe("tighten recipe root permissions");
    expect(diagnosticAction("Invalid recipe: /r/x.json: recipe must define template")).toBe("add a template field or remove the recipe");
    expect(diagnosticAction("Failed to load recipe /r/x.json: Expected ',' in JSON")).toBe("fix recipe syntax or archive the file");
    expect(diagnosticAction("Markdown recipe /r/a.md is shadowed by JSON recipe /r/a.json")).toBe(
      "confirm the active override or rename one recipe",
    );
    expect(diagnosticAction("Invalid recipe: /r/a.md: Markdown recipe frontmatter is not closed")).toBe(
      "fix frontmatter and add a fenced template or recipe block",
    );
    expect(diagnosticAction("Something else entirely")).toBe("inspect the recipe and fix or archive it if unexpected");
  });
});

describe("diagnosticDetails", () => {
  it("sorts by severity then message and attributes messages to their recipe", () => {
    const details = diagnosticDetails(userOverPackaged());
    expect(details.map((d) => d.severity)).toEqual(["error", "error", "warning", "info", "info", "info"]);
    const messages = details.map((d) => d.message);
    expect(messages.slice(0, 2)).toEqual([...messages.slice(0, 2)].sort());
    expect(details.some((d) => d.severity === "error" && d.id === "broken")).toBe(true);
    expect(details.find((d) => d.severity === "warning")).toMatchObject({
      id: "shell-risk",
      risk_labels: ["risk.shell", "risk.eval"],
      action: "audit the trusted shell boundary and keep only if intentional",
    });
  });

  it("includes diagnostics of shadowed entries once, and root diagnostics without an id", () => {
    const discovery = buildDiscovery(
      [{ path: "/r/same.json", config: {} }, { path: "/r/same.md", config: {} }],
      { rootDiagnostics: ["Recipe root is group-writable; review ownership and permissions: /r"] },
    );
    const details = diagnosticDetails(discovery);
    expect(details).toEqual([
      {
        action: "tighten recipe root permissions",
        message: "Recipe root is group-writable; review ownership and permissions: /r",
        severity: "warning",
      },
      {
        id: "same",
        path: "/r/same.md",
        action: "confirm the active override or rename one recipe",
        message: "Markdown recipe /r/same.md is shadowed by JSON recipe /r/same.json",
        severity: "info",
      },
      {
        id: "same",
        path: "/r/same.json",
        action: "confirm the active override or rename one recipe",
        message: "Recipe same shadows 1 lower-priority recipe(s)",
        severity: "info",
      },
    ]);
  });
});
