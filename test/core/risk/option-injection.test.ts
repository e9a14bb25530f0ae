import { describe, expect, it } from "vitest";
import type { Json, RecipeConfig } from "../../../core/model.js";
import { optionInjectionArgs, riskLabels } from "../../support/template-reads.js";
import { remediations } from "../../../core/views/remediations.js";
import { buildDiscovery } from "../../support/views-discovery.js";

const recipe = (template: Json, extra: Partial<RecipeConfig> = {}): RecipeConfig => ({ name: "r", template, raw: {}, ...extra });

describe("option injection", () => {
  it("flags a string argument that is a whole argv word before any --", () => {
    expect(optionInjectionArgs(recipe("grep {pattern} notes.txt"))).toEqual(["pattern"]);
    expect(optionInjectionArgs(recipe(["git log {ref}", "git show {ref} {path??.}"]))).toEqual(["ref", "path"]);
    expect(optionInjectionArgs(recipe("grep {pattern:string} f"))).toEqual(["pattern"]);
    expect(riskLabels(recipe("grep {pattern} notes.txt"))).toEqual(["risk.option_injection"]);
  });

  it("flags an array's elements, one by one or all of them", () => {
    expect(optionInjectionArgs(recipe("ls {files[0]}", { args: ["files:array"] }))).toEqual(["files"]);
    expect(optionInjectionArgs(recipe("ls {files}", { args: ["files:array"] }))).toEqual(["files"]);
    expect(optionInjectionArgs(recipe("ls -- {files[0]}", { args: ["files:array"] }))).toEqual([]);
  });

  it("does not flag what cannot start an option", () => {
    // after --, inside a larger word, a typed argument, a literal ternary, the command itself
    expect(optionInjectionArgs(recipe("grep -- {pattern} f"))).toEqual([]);
    expect(optionInjectionArgs(recipe("grep -e{pattern} --file=x{name}"))).toEqual([]);
    expect(optionInjectionArgs(recipe("cat {file:path} {n:int} {m:enum(a,b)} {on:bool} {all?--all:}"))).toEqual([]);
    expect(optionInjectionArgs(recipe("cat {file}", { args: ["file:path"] }))).toEqual([]);
    expect(optionInjectionArgs(recipe("{tool} x"))).toEqual([]);
    expect(riskLabels(recipe("grep -- {pattern} f"))).toEqual([]);
  });

  it("gives the doctor a remediation naming the arguments: add -- or type them", () => {
    const discovery = buildDiscovery([{ path: "/r/find.json", config: { template: "grep {pattern} {file}" } }]);
    expect(remediations(discovery)).toEqual([
      expect.objectContaining({
        id: "find",
        kind: "option_injection",
        severity: "warning",
        risk_labels: ["risk.option_injection"],
        reason: expect.stringContaining("pattern, file"),
        action: expect.stringMatching(/"--".*type/),
      }),
    ]);
  });
});
