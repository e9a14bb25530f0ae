// A template graph with its recipe-level `args` and `defaults`, compiled: the structural error,
// the argument surface, the risk labels and trusted-boundary warnings, and whether its `repeat`
// values are safe, all read from one walk (./template-survey.ts). compileRecipe uses it for a
// recipe file; spawn and run reports use it for an inline template.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { OPTION_PRONE } from "../risk/option-injection.js";
import { type ArgInput, repeatSafetyOf, surfaceNames, surfaceOf, unsafeRepeatText } from "../args/analysis.js";
import { recipeRiskLabels, type RiskLabel } from "../risk/risk-labels.js";
import type { RecipeConfig } from "../model.js";
import { surveyTemplate, type TemplateSurvey } from "./template-survey.js";
import { compact } from "../compact.js";
import type { RecipeWarning } from "./recipe-warning.js";

export interface CompiledTemplate {
  /** the first structural error */
  readonly error?: string;
  /** the leaf the structural error belongs to (its label, else its text), when it is a leaf's */
  readonly errorStep?: string;
  readonly surface: ArgSurface;
  /** the names the template's placeholders mention (the surface's names when there are no explicit args) */
  readonly placeholderNames: readonly string[];
  /** the argument names the template's texts read, declarations left out (leaves, controls, a bare `when`) */
  readonly namesRead: readonly string[];
  readonly riskLabels: readonly RiskLabel[];
  readonly warnings: readonly RecipeWarning[];
  /** why a `repeat` is not safe to expose on a tool, if one is not */
  readonly repeatProblem?: string;
  /** string arguments that can become an option of a command (core/risk/option-injection.ts) */
  readonly optionInjection: readonly string[];
}

/** The `args` and `defaults` of a recipe that shape its argument surface. */
export function argInputOf(config: { readonly args?: readonly string[]; readonly defaults?: JsonObject; readonly template: Json }): ArgInput {
  const { args, defaults, template } = config;
  return args === undefined
    ? defaults === undefined ? { template } : { defaults, template }
    : defaults === undefined ? { args, template } : { args, defaults, template };
}

/** `descriptions`: the recipe's `arg_descriptions`, carried on the surface. */
export function compileTemplate(
  template: Json, input: ArgInput = { template }, survey: TemplateSurvey = surveyTemplate(template), descriptions?: Readonly<Record<string, string>>,
): CompiledTemplate {
  const safe = repeatSafetyOf(input, survey.repeats, survey.facts);
  const surface = surfaceOf(input, survey.facts, descriptions);
  // an explicit or inline type other than string (path, int, enum...) makes the value safe
  const optionInjection = survey.freeTextWords.length === 0 ? survey.freeTextWords : compact(survey.freeTextWords.filter((name) => { const type = argTypeOf(surface, name); return type === undefined || OPTION_PRONE.has(type.kind); }));
  const placeholderNames = input.args === undefined ? surface.names : surfaceNames({ template }, survey.facts);
  // built by assignment, in the key order of the interface: this runs for every recipe
  const compiled: { -readonly [K in keyof CompiledTemplate]: CompiledTemplate[K] } = survey.error === undefined
    ? { placeholderNames, namesRead: survey.facts.names, surface, optionInjection, riskLabels: survey.riskLabels, warnings: survey.warnings }
    : { error: survey.error, placeholderNames, namesRead: survey.facts.names, surface, optionInjection, riskLabels: survey.riskLabels, warnings: survey.warnings };
  if (survey.errorStep !== undefined) compiled.errorStep = survey.errorStep;
  if (E.isLeft(safe)) compiled.repeatProblem = unsafeRepeatText(safe.left);
  return compiled;
}


/** The risk labels of a recipe from its template as written (imports not resolved), the way a
 * disabled recipe is labelled: for a recipe that is not compiled from a file yet. */
export function labelsAsWritten(config: RecipeConfig): readonly RiskLabel[] {
  const compiled = compileTemplate(config.template, argInputOf(config));
  return recipeRiskLabels(compiled.riskLabels, config.async === true, compiled.optionInjection.length > 0);
}
