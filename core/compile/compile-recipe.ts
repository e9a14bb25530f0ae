// The one compile step: a recipe file becomes everything the registry needs to know about it, or
// the problem that keeps it from being a recipe. Discovery, register_tool's last check before a
// write, the draft listing and spawn all call this function, so a file means the same thing to
// each of them. The result is plain data (no closures, no class instances): a caller may keep it
// between passes or store it.
//
// Steps: load (bytes -> decoded recipe) -> unless disabled: resolve imports and delegation ->
// survey the template once (structure, argument facts, risk labels, warnings) -> check the
// argument declarations -> derive the argument surface and whether it can be a tool. The tool's
// parameter schema and usage hint are built from this result on demand (./tool.ts).
//
// A disabled recipe (file or draft alike) is loaded and decoded only: its imports are not
// resolved and its template is not checked, because it is reported as disabled whatever they
// would say; its risk labels and warnings come from its template as written.
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { RecipeConfig, RecipeFormat, RecipeProblem, SnapshotFile } from "../model.js";
import type { ArgSurface } from "../discovery/types.js";
import { problemDiagnostic } from "../discovery/problem.js";
import { loadRecipe } from "../recipe/load.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { checkArgs } from "../recipe/check.js";
import { recipeRiskLabels } from "../risk/risk-labels.js";
import { authoringWarnings } from "../recipe/lint.js";
import { argInputOf, compileTemplate, type CompiledTemplate } from "./compile-template.js";
import { surveyTemplate } from "./template-survey.js";
import { warningDiagnostic, type RecipeWarning } from "./recipe-warning.js";

export interface RecipeSource {
  readonly file: SnapshotFile;
  /** the recipe's name: its file name without the extension */
  readonly id: string;
  readonly format: RecipeFormat;
}

export interface CompileContext extends ResolveContext {
  /** sha256 of a file's bytes; when given, the result carries the source digest */
  readonly digest?: (file: SnapshotFile) => string | undefined;
}

interface CompiledBase {
  readonly id: string;
  readonly path: string;
  readonly format: RecipeFormat;
  /** the entry's own diagnostics: its problem, or its trusted-boundary warnings, each naming the file */
  readonly diagnostics: readonly string[];
}

/** The file is not a recipe: it failed to load, decode, resolve or check. */
export interface CompiledProblem extends CompiledBase {
  readonly kind: "problem";
  readonly problem: RecipeProblem;
}

export interface CompiledConfig extends CompiledBase {
  readonly kind: "recipe";
  /** sha256 of the file's bytes, when the caller supplied a digest */
  readonly sourceSha256?: string;
  /** the resolved config (as loaded, for a disabled recipe) */
  readonly config: RecipeConfig;
  readonly disabled: boolean;
  /** trusted-boundary and authoring warnings, tagged with their kind; `diagnostics` holds their texts naming the file */
  readonly warnings: readonly RecipeWarning[];
  readonly riskLabels: readonly string[];
  /** the public argument surface of the tool it would be */
  readonly surface: ArgSurface;
  /** string arguments that can become an option of a command (core/risk/option-injection.ts) */
  readonly optionInjection: readonly string[];
  /** why the recipe loads but cannot be exposed as a tool; absent when it can */
  readonly toolProblem?: string;
}

export type CompiledRecipe = CompiledProblem | CompiledConfig;

const NO_TEXTS: readonly string[] = Object.freeze([]);

const invalidTemplate = (message: string): RecipeProblem => ({ kind: "invalid", field: "template", message });

/** The resolved and checked config with its one template survey, or the problem. */
function resolveAndCheck(loaded: RecipeConfig, path: string, ctx: ResolveContext): E.Either<RecipeProblem, { config: RecipeConfig; template: CompiledTemplate }> {
  return pipe(
    resolveRecipe(loaded, path, ctx),
    E.flatMap((config) => {
      const survey = surveyTemplate(config.template);
      return survey.error !== undefined
        ? E.left(invalidTemplate(survey.error))
        : pipe(checkArgs(config), E.map((checked) => ({ config: checked, template: compileTemplate(checked.template, argInputOf(checked), survey) })));
    }),
  );
}

export function compileRecipe(source: RecipeSource, ctx: CompileContext): CompiledRecipe {
  const path = source.file.path;
  const base = { id: source.id, path, format: source.format };
  const compiled = pipe(
    loadRecipe(source.file, source.id, source.format),
    E.flatMap((loaded) =>
      loaded.disabled === true
        ? E.right({ config: loaded, template: compileTemplate(loaded.template, argInputOf(loaded)) })
        : resolveAndCheck(loaded, path, ctx),
    ),
  );
  if (E.isLeft(compiled)) return { kind: "problem", ...base, problem: compiled.left, diagnostics: [problemDiagnostic(path, compiled.left)] };
  const { config, template } = compiled.right;
  // trusted-boundary warnings of the template, then authoring mistakes (an unknown field, an
  // undeclared placeholder, an unclosed brace, an output naming no step)
  const warnings = [...template.warnings, ...authoringWarnings(config, template.placeholderNames, template.surface.names)];
  const descriptions = config.raw["arg_descriptions"] as Readonly<Record<string, string>> | undefined;
  const sha = ctx.digest?.(source.file);
  return {
    kind: "recipe",
    ...base,
    ...(sha === undefined ? {} : { sourceSha256: sha }),
    diagnostics: warnings.length === 0 ? NO_TEXTS : warnings.map((w) => warningDiagnostic(path, w)),
    config,
    disabled: config.disabled === true,
    warnings,
    riskLabels: recipeRiskLabels(template.riskLabels, config.async === true, template.optionInjection.length > 0),
    optionInjection: template.optionInjection,
    surface: descriptions === undefined ? template.surface : { ...template.surface, descriptions },
    ...(template.repeatProblem === undefined ? {} : { toolProblem: template.repeatProblem }),
  };
}
