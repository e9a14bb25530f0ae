// The recipe survey (one walk per revision) must answer exactly what the separate walks answer:
// validateTemplate, templateRiskLabels, trustedBoundaryWarnings, analyzeArgs, checkRepeatSafety.
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect } from "vitest";
import type { Json, JsonObject } from "../core/model.js";
import { type ArgInput, analyzeArgs, checkRepeatSafety, repeatSafetyOf, surfaceOf } from "../core/args/analysis.js";
import { surveyTemplate } from "../core/recipe/survey.js";
import { templateRiskLabels } from "../core/risk/risk-labels.js";
import { trustedBoundaryWarnings } from "../core/risk/warnings.js";
import { splitWords } from "../core/template/split.js";
import { validateTemplate } from "../core/template/expand.js";

// words aimed at the risk rules, the placeholder forms and the splitter's quoting
const word = fc.oneof(
  fc.constantFrom(
    "bash", "sh", "-c", "-lc", "node", "-e", "python3", "rm", "-rf", "/", "~/x", "mv", "cp", "curl", "git", "push", "npm",
    "publish", "sleep", "tail", "-f", "--watch", "systemctl", "pass", "GITHUB_TOKEN", "/usr/bin/Bash", "C:\\x\\rm",
    "{file}", "{file:path}", "{n:int}", "{lang=ru}", "{a??b}", "{c?x:y}", "{!c?x:y}", "{xs[0]}", "{xs[i]}", "{xs.length}",
    "{index+1}", "{_(index)}", "{__(i+}", "{n-2}", "{}", "{?x:y}", "{a b}", "'{q w}'", '"x y"', "a\\ b", "'", '"', "\\",
    "{mode:enum(a,b)}", "{x:weird}", "{(}", "{c ? a : b}", "{api_key}",
  ),
  fc.stringMatching(/^[a-z0-9_.\/-]{1,6}$/),
  fc.string({ maxLength: 6 }),
);
const leaf = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(" "));
const control = fc.constantFrom<Json | undefined>(undefined, undefined, undefined, undefined, undefined, undefined, 0, 5, -1, "10", "{t}", "x", "{xs.length}", "3", "0", "{n.length}");
const whenValue = fc.constantFrom<Json | undefined>(undefined, undefined, true, "flag", "!flag", "{w}", " x y ", "{a??b}");
const defaults = fc.option(fc.dictionary(fc.constantFrom("file", "lang", "xs", "n", "a", "__proto__"), fc.constantFrom<Json>("v", 1, ["a"], null, "{file}", "{xs[0]}")), { nil: undefined });
const argList = fc.option(fc.array(fc.constantFrom("file:path", "xs:array", "n:int=2", "lang=en", "mode:enum(a,b)", "x:weird", "", "a b:int"), { maxLength: 3 }), { nil: undefined });

const template: fc.Arbitrary<Json> = fc.letrec<{ node: Json; object: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: leaf, weight: 6 },
    { arbitrary: fc.array(tie("node"), { maxLength: 3 }), weight: 2 },
    { arbitrary: tie("object"), weight: 3 },
    { arbitrary: fc.constantFrom<Json>(null, 3, []), weight: 1 },
  ),
  object: fc
    .record({
      template: fc.option(tie("node"), { nil: undefined }),
      recover: fc.option(tie("node"), { nil: undefined }),
      label: fc.option(fc.constantFrom("step", "other"), { nil: undefined }),
      defaults,
      args: argList,
      repeat: control,
      timeout: control,
      delay: control,
      retry: control,
      concurrency: control,
      min_successful: control,
      failure: fc.constantFrom<Json | undefined>(undefined, undefined, undefined, "branch", "nope"),
      when: whenValue,
    })
    .map((r) => {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v as Json;
      return out as JsonObject;
    }),
})).node;

describe("recipe survey", () => {
  test.prop([template, argList, defaults], { numRuns: 1500 })("agrees with the separate walks", (t, args, topDefaults) => {
    const survey = surveyTemplate(t);
    const valid = validateTemplate(t);
    expect(survey.error).toBe(E.isLeft(valid) ? valid.left : undefined);
    if (survey.error !== undefined) return;
    expect(survey.riskLabels).toEqual(templateRiskLabels(t));
    expect(survey.warnings).toEqual(trustedBoundaryWarnings(t));
    const input: ArgInput = { template: t, ...(args === undefined ? {} : { args }), ...(topDefaults === undefined ? {} : { defaults: topDefaults }) };
    expect(surfaceOf(input, survey.facts)).toEqual(analyzeArgs(input));
    expect(repeatSafetyOf(input, survey.repeats, survey.facts)).toEqual(checkRepeatSafety(input));
  });

  test.prop([fc.array(fc.oneof(fc.constantFrom(" ", "\t", "\n", "\v", "\f", "\r", "a", "{x}", "é", "😀"), fc.string({ maxLength: 4 })), { maxLength: 12 })])(
    "splits text without quotes or backslashes at whitespace runs",
    (parts) => {
      const text = parts.join("").replace(/['"\\]/g, "");
      expect(splitWords(text)).toEqual(text.split(/[ \t\n\v\f\r]+/).filter((w) => w !== ""));
    },
  );
});
