// Option injection: a value that starts with `-` must not become an option of the command by
// surprise. A `path` argument is made safe when it is bound (`-x` is passed as `./-x`, the same
// file); a plain string argument cannot be, so a template where one forms a whole argv word
// before any `--` is flagged for review: `grep {pattern} file` with pattern `--help`, or
// `git log {ref}` with ref `--output=/tmp/x`, would run an option the author never wrote.
// An array's elements are free text too (`ls {files[0]}` with files ["-la"]), so they are flagged
// like strings. A number is not: it can start with `-`, but only as a number (`-5`), which a
// command reads as a count or the value it is (`--` would not change what `kill -TERM -1` does);
// flagging every `-n {count}` would bury the real cases.
// The template survey (core/compile/template-survey.ts) applies `freeTextWords` to every leaf;
// the compile step keeps the names whose argument has no type, or one of OPTION_PRONE.
import { addNew } from "../unique-list.js";
import { isRepeatName, parsePlaceholder } from "../template/placeholder.js";

/** the argument types whose values are free text (an array's elements are) */
export const OPTION_PRONE: ReadonlySet<string> = new Set(["string", "array"]);

/** The placeholder's argument name when `word` is exactly one placeholder whose value is free
 *  text (an untyped or string-typed argument, or one with a `??` fallback). */
function freeTextName(word: string): string | undefined {
  // exactly one placeholder spanning the word: `{`, content without braces, `}` (checked on the
  // characters: most words are no placeholder at all, and this runs for every word of every leaf)
  const last = word.length - 1;
  if (last < 1 || word.charCodeAt(0) !== 123 || word.charCodeAt(last) !== 125) return undefined;
  const content = word.slice(1, last);
  if (content.includes("{") || content.includes("}")) return undefined;
  const p = parsePlaceholder(content);
  if (p.kind === "nullish") return p.name;
  // one element of an array argument (`{files[0]}`): free text as well
  if (p.kind === "index") return p.name;
  if (p.kind !== "simple" || isRepeatName(p.name) || (p.typed && !OPTION_PRONE.has(p.type.kind))) return undefined;
  return p.name;
}

/** Adds to `names` the free-text placeholders that form a whole argument word of one leaf (its
 *  words after the command), before any `--`, in order and without repeats. */
export function freeTextWords(words: readonly string[], names: string[]): void {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") return;
    const name = freeTextName(word);
    if (name !== undefined) addNew(names, name);
  }
}
