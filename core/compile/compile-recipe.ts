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
import { bind, bindTo, chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { RecipeConfig, RecipeFormat, RecipeProblem, SnapshotFile } from "../model.js";
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { argKindLabel, isValidDefault } from "../args/arg-type.js";
import { eachPlaceholder, parsePlaceholder } from "../template/placeholder.js";
import { problemDiagnostic } from "../discovery/problem.js";
import { loadRecipeWithWarnings } from "../recipe/load.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { checkArgs } from "../recipe/check.js";
import { type RecipeError, recipeProblem } from "../recipe/recipe-error.js";
import { recipeRiskLabels, type RiskLabel } from "../risk/risk-labels.js";
import { authoringWarnings } from "../recipe/lint.js";
import { argInputOf, compileTemplate, type CompiledTemplate } from "./compile-template.js";
import { surveyTemplate, type TemplateSurvey } from "./template-survey.js";
import { warningDiagnostic, type RecipeWarning } from "./recipe-warning.js";
import { RUN_PARAMS } from "../args/call-check.js";

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
const NO_LABELS: readonly RiskLabel[] = Object.freeze([]);

interface Compiled {
  readonly config: RecipeConfig;
  readonly template: CompiledTemplate;
}

/** The template's one survey, or its first structural error. */
const surveyed = (config: RecipeConfig): E.Either<RecipeError, TemplateSurvey> => {
  const survey = surveyTemplate(config.template);
  return survey.error === undefined ? E.right(survey) : E.left({ _tag: "InvalidTemplate", message: survey.error });
};

/** The resolved and checked config with its one template survey, or the error. */
const resolveAndCheck = (loaded: RecipeConfig, path: string, ctx: ResolveContext): E.Either<RecipeError, Compiled> =>
  pipe(
    resolveRecipe(loaded, path, ctx),
    bindTo("resolved"),
    bind("survey", ({ resolved }) => surveyed(resolved)),
    bind("config", ({ resolved }) => checkArgs(resolved)),
    E.map(({ config, survey }) => ({ config, template: compileTemplate(config.template, argInputOf(config), survey, descriptionsOf(config)) })),
    chain((compiled) => {
      const bad = defaultTypeError(compiled.template.surface) ?? sandboxNameError(compiled.config, compiled.template.surface);
      return bad === undefined ? E.right(compiled) : E.left(bad);
    }),
  );

/** A `sandbox` path whose placeholder names no argument of the recipe (`"write": ["{out}"]` with
 *  no `out`): no call could ever give it (an unknown argument is refused), so every call would
 *  fail. A recipe error instead, naming the field and the argument to declare. A placeholder
 *  with a default or a fallback needs no argument. */
function sandboxNameError(config: RecipeConfig, surface: ArgSurface): RecipeError | undefined {
  const field = config.sandbox;
  if (typeof field !== "object" || field === null) return undefined;
  for (const [key, texts] of [["write", field.write], ["read_deny", field.read_deny]] as const) {
    for (const text of texts ?? []) {
      const missing = eachPlaceholder(text, (content) => {
        const p = parsePlaceholder(content);
        const needs = (p.kind === "simple" && p.default === undefined) || p.kind === "index" || p.kind === "length";
        return needs && !surface.names.includes(p.name) ? p.name : undefined;
      });
      if (missing !== undefined)
        return { _tag: "InvalidTemplate", message: `field "sandbox.${key}": ${JSON.stringify(text)} names the argument ${missing}, which the recipe does not take: declare it in "args" (${missing}:path)` };
    }
  }
  return undefined;
}

/** A default written in the template (`{n:int=abc}`) or a node's `args` that the argument's
 *  type refuses: a recipe error, as the same default in the recipe's `args` or `defaults` is,
 *  never a value the call then passes on as it is. */
function defaultTypeError(surface: ArgSurface): RecipeError | undefined {
  const declared = surface.declaredDefaults;
  if (declared === undefined) return undefined;
  for (const name of Object.keys(declared)) {
    const type = argTypeOf(surface, name);
    if (type !== undefined && !isValidDefault(type, declared[name]!)) return { _tag: "InvalidTemplate", message: `Invalid default for ${name}:${argKindLabel(type)} in the template: ${JSON.stringify(declared[name])}` };
  }
  return undefined;
}

/** A disabled recipe as written: reported as disabled whatever its imports or template would say. */
const asWritten = (loaded: RecipeConfig): Compiled =>
  ({ config: loaded, template: compileTemplate(loaded.template, argInputOf(loaded), undefined, descriptionsOf(loaded)) });

/** The recipe's `arg_descriptions`, with those of the recipes it delegates to or imports for the
 * arguments it does not describe itself (core/recipe/imports.ts). */
const descriptionsOf = (config: RecipeConfig): Readonly<Record<string, string>> | undefined => config.arg_descriptions;

function problemOf(source: RecipeSource, problem: RecipeProblem): CompiledProblem {
  const path = source.file.path;
  return { kind: "problem", id: source.id, path, format: source.format, problem, diagnostics: [problemDiagnostic(path, problem)] };
}

const reservedAsyncArg = (name: string): string =>
  `Argument ${name} is reserved in an async recipe (${RUN_PARAMS.join(", ")} steer the run and never reach the template); rename it.`;

export function compileRecipe(source: RecipeSource, ctx: CompileContext): CompiledRecipe {
  return pipe(
    loadRecipeWithWarnings(source.file, source.id, source.format),
    chain(({ config: loaded, warnings }) =>
      pipe(
        loaded.disabled === true ? E.right(asWritten(loaded)) : resolveAndCheck(loaded, source.file.path, ctx),
        E.map((compiled) => ({ compiled, warnings })),
      ),
    ),
    E.match<RecipeError, { readonly compiled: Compiled; readonly warnings: readonly RecipeWarning[] }, CompiledRecipe>(
      (error) => problemOf(source, recipeProblem(error)),
      ({ compiled, warnings }) => compiledConfig(source, ctx, compiled, warnings),
    ),
  );
}

/** The compile result of a recipe that loaded (and, unless disabled, resolved and checked);
 *  `fileWarnings` are the authoring warnings its file's text showed as it was loaded. */
function compiledConfig(source: RecipeSource, ctx: CompileContext, { config, template }: Compiled, fileWarnings: readonly RecipeWarning[]): CompiledConfig {
  const path = source.file.path;
  // trusted-boundary warnings of the template, then authoring mistakes (an unknown field, an
  // undeclared placeholder, an unclosed brace, an output naming no step, a Markdown fence ignored)
  const configWarnings = authoringWarnings(config, template.placeholderNames, template.surface.names, template.namesRead);
  const authoring = fileWarnings.length === 0 ? configWarnings : [...configWarnings, ...fileWarnings];
  const warnings = authoring.length === 0 ? template.warnings : template.warnings.length === 0 ? authoring : [...template.warnings, ...authoring];
  const sha = ctx.digest?.(source.file);
  // built by assignment in the published key order (the compile cache stores this object)
  const out: { -readonly [K in keyof CompiledConfig]: CompiledConfig[K] } = sha === undefined
    ? { kind: "recipe", id: source.id, path, format: source.format, diagnostics: NO_TEXTS, config, disabled: false, warnings, riskLabels: NO_LABELS, optionInjection: NO_TEXTS, surface: template.surface }
    : { kind: "recipe", id: source.id, path, format: source.format, sourceSha256: sha, diagnostics: NO_TEXTS, config, disabled: false, warnings, riskLabels: NO_LABELS, optionInjection: NO_TEXTS, surface: template.surface };
  if (warnings.length > 0) out.diagnostics = warnings.map((w) => warningDiagnostic(path, w));
  out.disabled = config.disabled === true;
  out.riskLabels = recipeRiskLabels(template.riskLabels, config.async === true, template.optionInjection.length > 0);
  out.optionInjection = template.optionInjection;
  if (template.repeatProblem !== undefined) out.toolProblem = template.repeatProblem;
  else if (config.async === true) {
    // an async run takes these parameters for itself and strips them from the call, so an
    // argument of the same name could never reach the template
    const taken = template.surface.names.find((name) => RUN_PARAMS.includes(name));
    if (taken !== undefined) out.toolProblem = reservedAsyncArg(taken);
  }
  return out;
}
