// The facts tests ask of a template, each read from the one compile step
// (core/compile/compile-template.ts), under the names of the questions they answer.
import * as E from "fp-ts/lib/Either.js";
import type { ArgInput } from "../../core/args/analysis.js";
import { compileTemplate } from "../../core/compile/compile-template.js";
import type { ArgSurface } from "../../core/discovery/types.js";
import type { Json } from "../../core/model.js";
import { recipeRiskLabels, type RiskLabel } from "../../core/risk/risk-labels.js";

export const analyzeArgs = (input: ArgInput): ArgSurface => compileTemplate(input.template, input).surface;

export function checkRepeatSafety(input: ArgInput): E.Either<string, void> {
  const problem = compileTemplate(input.template, input).repeatProblem;
  return problem === undefined ? E.right(undefined) : E.left(problem);
}

export const templateRiskLabels = (template: Json): RiskLabel[] => [...compileTemplate(template).riskLabels];

export const trustedBoundaryWarnings = (template: Json): string[] => [...compileTemplate(template).warnings];

export const riskLabels = (config: { readonly template: Json; readonly async?: boolean }): string[] =>
  [...recipeRiskLabels(compileTemplate(config.template).riskLabels, config.async === true)];

export function validateTemplate(template: Json): E.Either<string, void> {
  const error = compileTemplate(template).error;
  return error === undefined ? E.right(undefined) : E.left(error);
}
