// The compile step walks a template once; it must answer exactly what separate walks answer (the
// reference models in props/support/reference-walks.ts): the structural error, risk labels and
// trusted-boundary warnings, the argument surface, option injection and the repeat-safety check, for every
// template, valid or not.
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect } from "vitest";
import type { Json, JsonObject } from "../core/model.js";
import type { ArgInput } from "../core/args/analysis.js";
import { compileTemplate } from "../core/compile/compile-template.js";
import { splitWords } from "../core/template/split.js";
import { analyzeArgs, checkRepeatSafety, optionInjectionArgs, templateRiskLabels, trustedBoundaryWarnings, validateTemplate } from "./support/reference-walks.js";
import { numRuns } from "./support/runs.js";

// words aimed at the risk rules, the placeholder forms and the splitter's quoting
const word = fc.oneof(
  fc.constantFrom(
    "bash", "sh", "-c", "-lc", "node", "-e", "python3", "rm", "-rf", "/", "~/x", "mv", "cp", "curl", "git", "push", "npm",
    "publish", "sleep", "tail", "-f", "--watch", "systemctl", "pass", "GITHUB_TOKEN", "/usr/bin/Bash", "C:\\x\\rm",
    "{file}", "{file:path}", "{n:int}", "{lang=ru}", "{a??b}", "{c?x:y}", "{!c?x:y}", "{xs[0]}", "{xs[i]}", "{xs.length}",
    "{index+1}", "{_(index)}", "{__(i+}", "{n-2}", "{}", "{?x:y}", "{a b}", "'{q w}'", '"x y"', "a\\ b", "'", '"', "\\",
    "{mode:enum(a,b)}", "{x:weird}", "{(}", "{c ? a : b}", "{api_key}",
    "|", "&&", ";", ">", "2>&1", ">out", "a;", "'|'", "\\;", "-exec",
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
  test.prop([template, argList, defaults], { numRuns: numRuns(1500) })("agrees with the separate walks", (t, args, topDefaults) => {
    const input: ArgInput = { template: t, ...(args === undefined ? {} : { args }), ...(topDefaults === undefined ? {} : { defaults: topDefaults }) };
    const compiled = compileTemplate(t, input);
    const valid = validateTemplate(t);
    expect(compiled.error).toBe(E.isLeft(valid) ? valid.left : undefined);
    expect(compiled.riskLabels).toEqual(templateRiskLabels(t));
    expect(compiled.warnings).toEqual(trustedBoundaryWarnings(t));
    expect(compiled.surface).toEqual(analyzeArgs(input));
    expect(compiled.optionInjection).toEqual(optionInjectionArgs(input));
    const safe = checkRepeatSafety(input);
    expect(compiled.repeatProblem).toBe(E.isLeft(safe) ? safe.left : undefined);
  });

  test.prop([fc.array(fc.oneof(fc.constantFrom(" ", "\t", "\n", "\v", "\f", "\r", "a", "{x}", "é", "😀"), fc.string({ maxLength: 4 })), { maxLength: 12 })])(
    "splits text without quotes or backslashes at whitespace runs",
    (parts) => {
      const text = parts.join("").replace(/['"\\]/g, "");
      expect(splitWords(text)).toEqual(text.split(/[ \t\n\v\f\r]+/).filter((w) => w !== ""));
    },
  );
});
