// The summary of `npm run mutate`: scores from Stryker's report, and the surviving mutants paired
// with the list of equivalent mutants (docs/equivalent-mutants.md), whose shape it also checks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  EquivalentsFormatError,
  globToRegExp,
  originalOf,
  parseEquivalents,
  reviewReport,
  scoreOf,
  unmeasured,
  type MutationReport,
  type ReportMutant,
} from "../../scripts/mutation/mutation-report.js";
import { repoRoot } from "../support/cli.js";

const source = ["export const f = (k: string) =>", '  k === "a" ? 1 : 2;', "export const g = (k: string) =>", '  k === "a" ? 3 : 4;', ""].join("\n");

let ids = 0;
function mutant(status: string, mutatorName: string, start: [number, number], end: [number, number], replacement: string): ReportMutant {
  return { id: String(ids++), mutatorName, replacement, status, location: { start: { line: start[0], column: start[1] }, end: { line: end[0], column: end[1] } } };
}

const report = (mutants: ReportMutant[], file = "core/x.ts"): MutationReport => ({ files: { [file]: { source, mutants } } });

describe("originalOf", () => {
  it("takes the text between 1-based start and end positions, across lines", () => {
    expect(originalOf(source, mutant("Survived", "EqualityOperator", [2, 3], [2, 12], ""))).toBe('k === "a"');
    expect(originalOf(source, mutant("Survived", "ConditionalExpression", [1, 32], [2, 12], ""))).toBe('\n  k === "a"');
  });
});

describe("scoreOf", () => {
  it("is detected over detected and undetected, compile errors and ignored mutants aside", () => {
    const r = reviewReport(
      report([
        mutant("Killed", "A", [2, 3], [2, 4], "x"),
        mutant("Killed", "A", [2, 3], [2, 4], "y"),
        mutant("Timeout", "A", [2, 3], [2, 4], "z"),
        mutant("Survived", "B", [2, 3], [2, 4], "w"),
        mutant("CompileError", "C", [2, 3], [2, 4], "v"),
        mutant("Ignored", "C", [2, 3], [2, 4], "u"),
      ]),
      [],
    );
    expect(r.total).toMatchObject({ killed: 2, timeout: 1, survived: 1, compileError: 1, ignored: 1 });
    expect(scoreOf(r.total)).toBe(75);
    expect(scoreOf(reviewReport(report([mutant("CompileError", "C", [2, 3], [2, 4], "v")]), []).total)).toBeUndefined();
  });

  it("refuses a status it does not know, rather than miscount", () => {
    expect(() => reviewReport(report([mutant("Mystery", "A", [2, 3], [2, 4], "x")]), [])).toThrow(/unknown mutant status "Mystery"/);
  });
});

describe("parseEquivalents", () => {
  const doc = [
    "# Equivalent mutants",
    "",
    "```",
    "### <file>:<line>",
    "- <Mutator> `original` → `replacement`",
    "```",
    "",
    "## core/x.ts",
    "",
    "### core/x.ts:2",
    '- EqualityOperator `k === "a"` → `k !== "a"`',
    "- ConditionalExpression `` a`b `` → `true`",
    "- Why equivalent: because.",
  ].join("\n");

  it("reads one entry per mutant bullet, with its section's file and line, skipping the fenced example", () => {
    expect(parseEquivalents(doc)).toEqual([
      { file: "core/x.ts", line: 2, mutator: "EqualityOperator", original: 'k === "a"', replacement: 'k !== "a"', docLine: 11 },
      { file: "core/x.ts", line: 2, mutator: "ConditionalExpression", original: "a`b", replacement: "true", docLine: 12 },
    ]);
  });

  it("names the line of a heading or a bullet it cannot read", () => {
    expect(() => parseEquivalents("### core/x.ts line 2")).toThrow(EquivalentsFormatError);
    expect(() => parseEquivalents("### core/x.ts line 2")).toThrow(/^line 1: a heading is/);
    expect(() => parseEquivalents("- StringLiteral `a` → `b`")).toThrow(/^line 1: a mutant is listed outside/);
    expect(() => parseEquivalents("### core/x.ts:3\n- StringLiteral `a` becomes b")).toThrow(/^line 2: a mutant is "- <Mutator>/);
  });

  it("the repository's own list has the shape", () => {
    const entries = parseEquivalents(readFileSync(join(repoRoot, "docs", "equivalent-mutants.md"), "utf8"));
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.original, `docs/equivalent-mutants.md line ${e.docLine}`).not.toBe("");
  });
});

describe("reviewReport", () => {
  const entry = (line: number, mutator: string, original: string, replacement: string, file = "core/x.ts") => ({ file, line, mutator, original, replacement, docLine: 1 });

  it("pairs a survivor with the entry of the same file, mutator and texts; the rest are gaps or stale", () => {
    const survivor = mutant("Survived", "EqualityOperator", [2, 3], [2, 12], 'k !== "a"');
    const uncovered = mutant("NoCoverage", "EqualityOperator", [4, 3], [4, 12], 'k !== "a"');
    const r = reviewReport(report([survivor, uncovered, mutant("Killed", "BooleanLiteral", [2, 3], [2, 4], "x")]), [
      entry(2, "EqualityOperator", 'k === "a"', 'k !== "a"'),
      entry(9, "StringLiteral", '"a"', '""'),
    ]);
    expect(r.equivalent.map((u) => u.mutant.id)).toEqual([survivor.id]);
    expect(r.unlisted.map((u) => u.mutant.id)).toEqual([uncovered.id]);
    expect(r.stale.map((e) => e.mutator)).toEqual(["StringLiteral"]);
  });

  it("tells equal texts apart by the nearest line, one mutant per entry", () => {
    const first = mutant("Survived", "EqualityOperator", [2, 3], [2, 12], 'k !== "a"');
    const second = mutant("Survived", "EqualityOperator", [4, 3], [4, 12], 'k !== "a"');
    const r = reviewReport(report([first, second]), [entry(5, "EqualityOperator", 'k === "a"', 'k !== "a"')]);
    expect(r.equivalent.map((u) => u.mutant.id)).toEqual([second.id]);
    expect(r.unlisted.map((u) => u.mutant.id)).toEqual([first.id]);
  });

  it("compares code with runs of white space as one space, so a multi-line original fits on one line", () => {
    const m = mutant("Survived", "ConditionalExpression", [1, 32], [2, 12], "true");
    expect(reviewReport(report([m]), [entry(1, "ConditionalExpression", 'k === "a"', "true")]).equivalent).toHaveLength(1);
  });

  it("does not match another mutator, file or replacement", () => {
    const m = mutant("Survived", "EqualityOperator", [2, 3], [2, 12], 'k !== "a"');
    for (const e of [entry(2, "ConditionalExpression", 'k === "a"', 'k !== "a"'), entry(2, "EqualityOperator", 'k === "a"', "false"), entry(2, "EqualityOperator", 'k === "a"', 'k !== "a"', "core/y.ts")])
      expect(reviewReport(report([m]), [e]).unlisted).toHaveLength(1);
  });

  it("a timed-out mutant the list explains counts as not detected, and its entry is not stale", () => {
    const slow = mutant("Timeout", "EqualityOperator", [2, 3], [2, 12], 'k !== "a"');
    const hang = mutant("Timeout", "BlockStatement", [4, 3], [4, 12], "{}");
    const r = reviewReport(report([slow, hang, mutant("Killed", "A", [2, 3], [2, 4], "x")]), [entry(2, "EqualityOperator", 'k === "a"', 'k !== "a"')]);
    expect(r.timedOut.map((u) => u.mutant.id)).toEqual([slow.id]);
    expect(r.equivalent.map((u) => u.mutant.id)).toEqual([slow.id]);
    expect(r.unlisted).toEqual([]);
    expect(r.stale).toEqual([]);
    expect(r.total).toMatchObject({ killed: 1, timeout: 1, survived: 1 });
    expect(r.perFile.get("core/x.ts")).toMatchObject({ killed: 1, timeout: 1, survived: 1 });
  });

  it("an entry of a file in scope that has no results yet is not stale", () => {
    const r = reviewReport({ files: { "core/args/a.ts": { source, mutants: [mutant("Killed", "A", [2, 3], [2, 4], "x")] } } }, [entry(2, "A", "k", "x", "core/args/b.ts"), entry(2, "A", "k", "y", "core/args/a.ts")], ["core/args/**/*.ts"]);
    expect(r.stale.map((e) => e.file)).toEqual(["core/args/a.ts"]);
  });

  it("scores only the files in scope, and leaves other files' entries alone", () => {
    const r = reviewReport(
      { files: { "core/args/a.ts": { source, mutants: [mutant("Killed", "A", [2, 3], [2, 4], "x")] }, "core/other.ts": { source, mutants: [mutant("Survived", "A", [2, 3], [2, 4], "x")] } } },
      [entry(2, "A", "k", "x", "core/other.ts")],
      ["core/args/**/*.ts"],
    );
    expect([...r.perFile.keys()]).toEqual(["core/args/a.ts"]);
    expect(r.unlisted).toEqual([]);
    expect(r.stale).toEqual([]);
  });
});

describe("globToRegExp", () => {
  it("reads ** as any folders, * as a name part", () => {
    const args = globToRegExp("core/args/**/*.ts");
    expect(["core/args/a.ts", "core/args/x/y.ts"].filter((f) => args.test(f))).toEqual(["core/args/a.ts", "core/args/x/y.ts"]);
    expect(["core/argsx/a.ts", "core/args/a.tsx", "xcore/args/a.ts"].filter((f) => args.test(f))).toEqual([]);
    expect(globToRegExp("host-mcp/gate.ts").test("host-mcp/gateXts")).toBe(false);
  });
});

describe("unmeasured", () => {
  it("names each area pattern that matches no file of the results", () => {
    const areas = [
      { name: "args", files: ["core/args/**/*.ts"] },
      { name: "locks", files: ["adapters/lock/**/*.ts", "adapters/fs/FileSystem.ts"] },
      { name: "gate", files: ["host-mcp/gate.ts"] },
    ];
    expect(unmeasured(["core/args/a.ts", "adapters/lock/x/y.ts", "host-mcp/gate.ts"], areas)).toEqual([{ area: "locks", patterns: ["adapters/fs/FileSystem.ts"] }]);
    expect(unmeasured([], areas.slice(2))).toEqual([{ area: "gate", patterns: ["host-mcp/gate.ts"] }]);
    expect(unmeasured(["core/args/a.ts", "adapters/lock/l.ts", "adapters/fs/FileSystem.ts", "host-mcp/gate.ts"], areas)).toEqual([]);
  });
});
