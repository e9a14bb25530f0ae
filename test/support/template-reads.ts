// The facts tests ask of a template, each read from the one compile step
// (core/compile/compile-template.ts), under the names of the questions they answer.
import * as E from "fp-ts/lib/Either.js";
import type { ArgInput } from "../../core/args/analysis.js";
import { argInputOf, compileTemplate } from "../../core/compile/compile-template.js";
import type { RecipeWarning } from "../../core/compile/recipe-warning.js";
import type { ArgSurface } from "../../core/tool/tool-spec.js";
import type { Json } from "../../core/model.js";
import { recipeRiskLabels, type RiskLabel } from "../../core/risk/risk-labels.js";

export const analyzeArgs = (input: ArgInput): ArgSurface => compileTemplate(input.template, input).surface;

export function checkRepeatSafety(input: ArgInput): E.Either<string, void> {
  const problem = compileTemplate(input.template, input).repeatProblem;
  return problem === undefined ? E.right(undefined) : E.left(problem);
}

export const templateRiskLabels = (template: Json): RiskLabel[] => [...compileTemplate(template).riskLabels];

export const trustedBoundaryWarnings = (template: Json): string[] => compileTemplate(template).warnings.map((w) => w.text);

/** The same warnings with their kinds, as the compile step carries them. */
export const taggedBoundaryWarnings = (template: Json): RecipeWarning[] => [...compileTemplate(template).warnings];

type RecipeLike = { readonly template: Json; readonly async?: boolean; readonly args?: readonly string[] };

export const optionInjectionArgs = (config: RecipeLike): string[] => [...compileTemplate(config.template, argInputOf(config)).optionInjection];

export function riskLabels(config: RecipeLike): string[] {
  const compiled = compileTemplate(config.template, argInputOf(config));
  return [...recipeRiskLabels(compiled.riskLabels, config.async === true, compiled.optionInjection.length > 0)];
}

export function validateTemplate(template: Json): E.Either<string, void> {
  const error = compileTemplate(template).error;
  return error === undefined ? E.right(undefined) : E.left(error);
}
