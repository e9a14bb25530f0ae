// Converting a discovered winner into a tool (registry-reference §4.1, with rulings 2, 3 and 7).
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { RecipeConfig, RecipeFormat } from "../model.js";
import { analyzeArgs, checkRepeatSafety } from "../args/analysis.js";
import { parametersSchema } from "../args/schema.js";
import type { ToolSpec } from "./types.js";

export function toolFromEntry(name: string, path: string, format: RecipeFormat, config: RecipeConfig): E.Either<string, ToolSpec> {
  const input = {
    ...(config.args === undefined ? {} : { args: config.args }),
    ...(config.defaults === undefined ? {} : { defaults: config.defaults }),
    template: config.template,
  };
  const async = config.async === true;
  return pipe(
    checkRepeatSafety(input),
    E.map(() => {
      const surface = analyzeArgs(input);
      return {
        name,
        description: config.description ?? `Execute template recipe: ${name}`,
        path,
        format,
        async,
        surface,
        parameters: parametersSchema(surface, { async }),
        promptSnippet: `${async ? "Start async template recipe" : "Execute template recipe"}: ${name}`,
        config,
      };
    }),
  );
}
