// Converting a discovered winner into a tool (registry-reference §4.1, with rulings 2, 3 and 7).
import * as E from "fp-ts/lib/Either.js";
import type { JsonObject, RecipeConfig, RecipeFormat } from "../model.js";
import { type ArgInput, analyzeArgs, checkRepeatSafety, repeatSafetyOf, surfaceOf } from "../args/analysis.js";
import { parametersSchema } from "../args/schema.js";
import type { TemplateSurvey } from "../recipe/survey.js";
import type { ArgSurface, ToolSpec } from "./types.js";

/** `survey`: the survey of `config.template`, when the caller has one (discovery does);
 *  `sourceSha256`: the digest of the bytes the config was compiled from, when known. */
export function toolFromEntry(
  name: string, path: string, format: RecipeFormat, config: RecipeConfig, survey?: TemplateSurvey, sourceSha256?: string,
): E.Either<string, ToolSpec> {
  const input: ArgInput = config.args === undefined
    ? config.defaults === undefined ? { template: config.template } : { defaults: config.defaults, template: config.template }
    : config.defaults === undefined ? { args: config.args, template: config.template } : { args: config.args, defaults: config.defaults, template: config.template };
  const safe = survey === undefined ? checkRepeatSafety(input) : repeatSafetyOf(input, survey.repeats, survey.facts);
  if (E.isLeft(safe)) return safe;
  const async = config.async === true;
  // The argument surface and the JSON schema are built when a host first asks for them: a
  // `list` of 10,000 tools needs neither, a host publishing one tool needs that tool's only.
  let surface: ArgSurface | undefined;
  let parameters: JsonObject | undefined;
  const surfaceNow = (): ArgSurface => {
    if (surface !== undefined) return surface;
    const analyzed = survey === undefined ? analyzeArgs(input) : surfaceOf(input, survey.facts);
    const descriptions = config.raw["arg_descriptions"] as Readonly<Record<string, string>> | undefined;
    surface = descriptions === undefined ? analyzed : { ...analyzed, descriptions };
    return surface;
  };
  return E.right({
    name,
    description: config.description ?? `Execute template recipe: ${name}`,
    path,
    format,
    async,
    get surface() {
      return surfaceNow();
    },
    get parameters() {
      return (parameters ??= parametersSchema(surfaceNow(), { async }));
    },
    promptSnippet: `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`,
    config,
    ...(sourceSha256 === undefined ? {} : { sourceSha256 }),
  });
}
