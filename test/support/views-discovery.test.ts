// The hand-built discovery model the view tests use must agree with the real discovery on what
// the views read: winners, shadowing, blocking, tools and the registry diagnostics in order.
// Checked on generated registries of two layers (a tool root over a lower non-tool root) with
// valid, invalid and disabled JSON and Markdown recipes sharing a few ids.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { discover } from "../../core/discovery/discover.js";
import type { RecipeEntry } from "../../core/discovery/discovery-result.js";
import { buildDiscovery, type EntrySpec } from "./views-discovery.js";
import { root, snapshot } from "./snapshot.js";

type Kind = "valid" | "invalid" | "disabled";
interface FileCase {
  readonly layer: 0 | 1;
  readonly id: string;
  readonly format: "json" | "md";
  readonly kind: Kind;
}

const LAYERS = ["/A/recipes", "/P"] as const;

const content = (c: FileCase): string | object => {
  if (c.format === "json") return c.kind === "valid" ? { template: "echo ok" } : c.kind === "disabled" ? { disabled: true, template: "echo off" } : { description: "no template" };
  if (c.kind === "invalid") return "---\ndescription: no fence\n---\n\nprose only\n";
  return `---\ndescription: md\n${c.kind === "disabled" ? "disabled: true\n" : ""}---\n\n\`\`\`template\necho md\n\`\`\`\n`;
};

const fileCase: fc.Arbitrary<FileCase> = fc.record({
  layer: fc.constantFrom<0 | 1>(0, 1),
  id: fc.constantFrom("a", "b", "c"),
  format: fc.constantFrom<"json" | "md">("json", "md"),
  kind: fc.constantFrom<Kind>("valid", "invalid", "disabled"),
});
const pathOf = (c: FileCase): string => `${LAYERS[c.layer]}/${c.id}.${c.format}`;
const registry = fc.uniqueArray(fileCase, { selector: pathOf, maxLength: 8 });

const shape = (e: RecipeEntry) => ({
  path: e.path, priority: e.priority, active: e.active, shadowed: e.shadowed, shadowedBy: e.shadowedBy, shadows: e.shadows, invalid: e.invalid, disabled: e.disabled, tool: e.tool, diagnostics: e.diagnostics,
});
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

describe("the view tests' discovery model", () => {
  test.prop([registry])("agrees with the real discovery", (cases) => {
    const real = discover(
      snapshot(
        LAYERS.map((dir, layer) =>
          root(dir, Object.fromEntries(cases.filter((c) => c.layer === layer).map((c) => [`${c.id}.${c.format}`, content(c)])), layer === 0 ? { tool: true, mutableUsage: true } : {}),
        ),
      ),
    );
    const specs: EntrySpec[] = cases.map((c) => {
      const path = pathOf(c);
      const found = real.entries.find((e) => e.path === path);
      return {
        path,
        priority: c.layer,
        toolSource: c.layer === 0,
        mutableUsage: c.layer === 0,
        ...(found?.config === undefined ? {} : { config: { template: found.config.template, ...(found.config.disabled === true ? { disabled: true } : {}) } }),
        ...(found?.problem === undefined ? {} : { problem: found.problem }),
      };
    });
    const model = buildDiscovery(specs);
    expect(model.entries.map(shape).sort(byPath)).toEqual(real.entries.map(shape).sort(byPath));
    expect([...model.active.keys()].sort()).toEqual([...real.active.keys()].sort());
    expect(model.tools.map((t) => [t.name, t.path])).toEqual(real.tools.map((t) => [t.name, t.path]));
    expect([...model.diagnostics].sort()).toEqual([...real.diagnostics].sort());
  });
});
