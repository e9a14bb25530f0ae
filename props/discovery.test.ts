// Discovery properties: any recipe set discovers without throwing, and the winner of an id is
// decided by the priority order alone (source priority, then JSON before Markdown), never by
// content, validity or listing order.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { discover } from "../core/discovery/discover.js";
import type { SnapshotFile, SourceListing } from "../core/model.js";
import { file, snapshot } from "../test/support/snapshot.js";

const enc = new TextEncoder();

const content = fc.oneof(
  fc.constant({ template: "echo {x}" }),
  fc.constant({ template: "" }),
  fc.constant({ disabled: true, template: "echo off" }),
  fc.constant({ description: 3, template: "echo bad field" }),
  fc.constant({ template: ["a {x:int}", { parallel: true, template: ["b", "c"] }] }),
  fc.constant({ template: { name: "missing_alias" } }),
  fc.constant({ imports: { self: "self" }, template: { name: "self" } }),
  fc.constant("{ broken"),
  fc.constant("---\ndescription: md\n---\n```template\necho {y=1}\n```\n"),
  fc.constant("# no frontmatter"),
  fc.constant(new Uint8Array([0xff, 0xfe, 0x00])),
  fc.jsonValue(),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }),
);

const bytesOf = (c: unknown): Uint8Array =>
  c instanceof Uint8Array ? c : typeof c === "string" ? enc.encode(c) : enc.encode(JSON.stringify(c) ?? "null");

const ids = fc.constantFrom("a", "b", "docs-review", "Mixed Case", "x.y", "bash", "__proto__", "constructor", "é");
const format = fc.constantFrom("json", "md");

interface FileSpec {
  readonly source: number;
  readonly id: string;
  readonly format: "json" | "md";
  readonly content: unknown;
}

const fileSpecs = fc.uniqueArray(fc.record({ source: fc.integer({ min: 0, max: 2 }), id: ids, format, content }), {
  selector: (f) => `${f.source}/${f.id}.${f.format}`,
  maxLength: 14,
});

const ROOTS = ["/A/recipes", "/adhoc", "/P"];

function sources(specs: readonly FileSpec[], order: (files: SnapshotFile[]) => SnapshotFile[] = (f) => f): SourceListing[] {
  return ROOTS.map((root, i) => ({
    kind: "root" as const,
    root,
    present: true,
    tool: i === 0,
    mutableUsage: i === 0,
    files: order(
      specs.filter((s) => s.source === i).map((s) => {
        const bytes = bytesOf(s.content);
        return file(`${root}/${s.id}.${s.format}`, bytes);
      }),
    ),
  }));
}

describe("discovery properties", () => {
  test.prop([fileSpecs])("any recipe set discovers without throwing, and every tool is a valid winner of the user root", (specs) => {
    const d = discover(snapshot(sources(specs)));
    for (const tool of d.tools) {
      const winner = d.active.get(tool.name);
      expect(winner?.path).toBe(tool.path);
      expect(winner?.invalid).toBe(false);
      expect(winner?.disabled).toBe(false);
      expect(tool.path.startsWith("/A/recipes/")).toBe(true);
    }
    expect(new Set(d.entries.map((e) => e.path)).size).toBe(specs.length);
    for (const e of d.entries) if (e.invalid) expect(e.diagnostics.length).toBeGreaterThan(0);
  });

  test.prop([fileSpecs, fc.integer()])("the winner of each id is the highest-priority source, JSON before Markdown", (specs, seed) => {
    const rank = (s: FileSpec): number => s.source * 2 + (s.format === "json" ? 0 : 1);
    const shuffle = (files: SnapshotFile[]): SnapshotFile[] => {
      const out = [...files];
      let x = seed | 1;
      for (let i = out.length - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) | 0;
        const j = Math.abs(x) % (i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const d = discover(snapshot(sources(specs, shuffle)));
    const byId = new Map<string, FileSpec[]>();
    for (const s of specs) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
    for (const [id, group] of byId) {
      const expected = [...group].sort((a, b) => rank(a) - rank(b))[0]!;
      expect(d.active.get(id)?.path).toBe(`${ROOTS[expected.source]}/${id}.${expected.format}`);
      const shadowed = d.entries.filter((e) => e.id === id && e.shadowed).map((e) => e.path).sort();
      expect(shadowed).toEqual(group.filter((g) => g !== expected).map((g) => `${ROOTS[g.source]}/${id}.${g.format}`).sort());
    }
  });

  test.prop([fileSpecs])("content never changes who wins: the same files with other contents pick the same winners", (specs) => {
    const valid = specs.map((s) => ({ ...s, content: { template: "echo ok" } }));
    const a = discover(snapshot(sources(specs)));
    const b = discover(snapshot(sources(valid)));
    expect([...a.active].map(([id, e]) => [id, e.path])).toEqual([...b.active].map(([id, e]) => [id, e.path]));
  });
});
