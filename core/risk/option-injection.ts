// Option injection: a value that starts with `-` must not become an option of the command by
// surprise. A `path` argument is made safe when it is bound (`-x` is passed as `./-x`, the same
// file); a plain string argument cannot be, so a template where one forms a whole argv word
// before any `--` is flagged for review: `grep {pattern} file` with pattern `--help`, or
// `git log {ref}` with ref `--output=/tmp/x`, would run an option the author never wrote.
import type { RecipeConfig } from "../model.js";
import { analyzeArgs } from "../args/analysis.js";
import { leaves } from "../template/graph.js";
import { findPlaceholders, isRepeatName, parsePlaceholder } from "../template/placeholder.js";
import { splitWords } from "../template/split.js";

/** The placeholder's argument name when `word` is exactly one placeholder whose value is free
 *  text (an untyped or string-typed argument, or one with a `??` fallback). */
function freeTextName(word: string): string | undefined {
  const spans = findPlaceholders(word);
  const only = spans[0];
  if (spans.length !== 1 || only === undefined || only.start !== 0 || only.end !== word.length) return undefined;
  const p = parsePlaceholder(only.content);
  if (p.kind === "nullish") return p.name;
  if (p.kind !== "simple" || isRepeatName(p.name) || (p.typed && p.type.kind !== "string")) return undefined;
  return p.name;
}

/** Names of the string arguments that form a whole argv word before any `--`, in template order. */
export function optionInjectionArgs(config: RecipeConfig): string[] {
  const names: string[] = [];
  let types: ReadonlyMap<string, unknown> | undefined;
  for (const leaf of leaves(config.template)) {
    const words = splitWords(leaf.text);
    for (const word of words.slice(1)) {
      if (word === "--") break;
      const name = freeTextName(word);
      if (name === undefined || names.includes(name)) continue;
      // an explicit `args` type (path, int, enum...) wins over the untyped placeholder
      types ??= analyzeArgs({ template: config.template, ...(config.args === undefined ? {} : { args: config.args }) }).types;
      if (!types.has(name)) names.push(name);
    }
  }
  return names;
}
