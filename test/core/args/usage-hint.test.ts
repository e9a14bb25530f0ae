import { describe, expect, it } from "vitest";
import { analyzeArgs } from "../../support/template-reads.js";
import * as E from "fp-ts/lib/Either.js";
import { formatUsageHint } from "../../../core/args/usage-hint.js";
import { resolveNumericControl } from "../../../core/template/controls.js";
import { invalidTemplate, isArgumentFailure } from "../../../core/template/failure.js";
import { scopeOf, substituteText } from "../../../core/template/substitute.js";
import type { ArgSurface } from "../../../core/tool/tool-spec.js";

describe("formatUsageHint", () => {
  it("check_tool: a required file and an enum with a default, exactly", () => {
    const surface = analyzeArgs({ args: ["file", "mode:enum(check,fix)"], defaults: { mode: "check" }, template: "check {file} {mode}" });
    expect(formatUsageHint("check_tool", surface, "Argument mode must be one of: check, fix.", { async: false })).toBe(
      [
        'Invalid arguments for tool "check_tool": Argument mode must be one of: check, fix.',
        "",
        "Expected call shape for check_tool:",
        "check_tool({",
        '  "file": "<file>",',
        '  "mode": "check"',
        "})",
        "Required: file",
        "Optional: mode",
      ].join("\n"),
    );
  });

  it("sample values per type, required first; a default, inline too, is shown as the caller would type it", () => {
    const surface = analyzeArgs({
      args: ["f:path", "n:int", "s:number", "b:bool", "m:enum(check,fix)", "p:array", "o"],
      defaults: { m: "check" },
      template: "t {f} {n} {s} {b} {m} {p} {o=z}",
    });
    const hint = formatUsageHint("t", surface, "Argument n must be an integer.", { async: false });
    const example = JSON.parse(hint.slice(hint.indexOf("t({") + 2, hint.indexOf("\n})") + 2)) as object;
    expect(JSON.stringify(example)).toBe('{"f":"./f","n":1,"s":1.5,"b":true,"p":["<p>"],"m":"check","o":"z"}');
    expect(hint).toContain("\nRequired: f, n, s, b, p\nOptional: m, o");
  });

  it("key order required then optional", () => {
    const surface = analyzeArgs({
      template: [
        { when: "verbose", template: "a {x}" },
        { recover: "clean {work_dir}", retry: "{tries}", template: "b {y=1} {z??none}" },
      ],
    });
    const hint = formatUsageHint("seq", surface, "Missing retry value: tries", { async: false });
    expect(hint.startsWith('Invalid arguments for tool "seq": Missing retry value: tries\n\nExpected call shape for seq:\nseq({')).toBe(true);
    const keys = [...hint.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1]);
    expect(keys).toEqual(["x", "work_dir", "tries", "verbose", "y", "z"]);
    expect(hint).toContain('"verbose": true');
  });

  it("async tools show run_id in the example and the Optional line; lines are omitted when empty", () => {
    const surface: ArgSurface = { names: [], required: [], types: {}, defaults: {} };
    expect(formatUsageHint("job", surface, "Missing command template value: a", { async: true })).toBe(
      'Invalid arguments for tool "job": Missing command template value: a\n\nExpected call shape for job:\njob({\n  "run_id": "job-1"\n})\nOptional: run_id',
    );
    expect(formatUsageHint("job", surface, "m", { async: false })).toBe('Invalid arguments for tool "job": m\n\nExpected call shape for job:\njob({})');
  });

  it("async: an argument of its own called run_id shows the run_id sample of async tools", () => {
    const surface = analyzeArgs({ template: "x {run_id} {a=1}" });
    const hint = formatUsageHint("job", surface, "m", { async: true });
    expect(hint).toContain('Expected call shape for job:\njob({\n  "run_id": "job-1",\n  "a": "1"\n})\n');
  });

  it("shows typed defaults: 60000 and true, not \"60000\" and \"true\"", () => {
    const surface = analyzeArgs({ args: ["timeout:int", "dry:bool", "speed:number=2.5"], defaults: { timeout: "60000", dry: "yes" }, template: "x {timeout} {dry} {speed}" });
    const hint = formatUsageHint("x", surface, "m", { async: false });
    expect(hint).toContain('"timeout": 60000,');
    expect(hint).toContain('"dry": true,');
    expect(hint).toContain('"speed": 2.5');
  });

  it("uses array defaults as they are", () => {
    const surface = analyzeArgs({ defaults: { items: ["a", "b"] }, template: "x {items}" });
    expect(formatUsageHint("x", surface, "m", { async: false })).toContain('"items": [\n    "a",\n    "b"\n  ]');
  });
});

describe("argument failures are told by their kind, not their text", () => {
  it("an unresolved placeholder is one; a control out of range is not, whatever it says", () => {
    const missing = substituteText("{file}", scopeOf({}));
    expect(E.isLeft(missing) && isArgumentFailure(missing.left)).toBe(true);
    expect(E.isLeft(missing) && missing.left.message).toBe("Missing command template value: file");
    const timeout = resolveNumericControl("timeout", "{t}", scopeOf({ t: "-1" }));
    expect(E.isLeft(timeout) && isArgumentFailure(timeout.left)).toBe(false);
    expect(isArgumentFailure(invalidTemplate("Missing command template value: lookalike"))).toBe(false);
  });
});
