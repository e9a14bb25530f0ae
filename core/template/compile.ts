// Compile once, resolve many times (a call must not re-parse its template): a leaf is split into words and
// every word into literal and placeholder parts a single time; a call only walks the parts.
import type { Placeholder } from "./placeholder.js";
import { eachPlaceholder, findPlaceholders, isIdentifier, parsePlaceholder } from "./placeholder.js";
import { splitWordsDetailed } from "./split.js";
import type { CompiledExpression } from "./expression.js";
import { compileExpression, expressionErrorText } from "./expression.js";

export interface CompiledPlaceholder {
  readonly content: string;
  readonly placeholder: Placeholder;
  /** for `padded` and `expression` placeholders */
  readonly expression: CompiledExpression | undefined;
  /** an arithmetic-looking content (`n-2`) that is also a name: a value of that name wins */
  readonly asName: boolean;
  /** the content holds an operator character; a missing simple name then reports the
   * expression-variable error (the content was meant as arithmetic) instead of a missing value */
  readonly operator: boolean;
}

export type Part = string | CompiledPlaceholder;

/** A word (or a value text) without placeholders stays a plain string. */
export type CompiledToken = string | readonly Part[];

export interface CompiledLeaf {
  readonly text: string;
  readonly words: readonly CompiledToken[];
  readonly unterminatedQuote: "'" | '"' | undefined;
}

const OPERATOR = /[()+\-*/%]/;

function classify(content: string): Placeholder {
  // `{?x:y}` has no condition at all, so it is not a ternary
  if (content.startsWith("?")) return { kind: "unknown", content };
  return parsePlaceholder(content);
}

function compilePlaceholder(content: string): CompiledPlaceholder {
  const placeholder = classify(content);
  let expression: CompiledExpression | undefined;
  // `_()` has nothing to pad: the whole content is then read as an expression
  if (placeholder.kind === "padded") expression = compileExpression(placeholder.expr === "" ? content : placeholder.expr);
  else if (placeholder.kind === "expression") expression = compileExpression(placeholder.expr);
  return { content, placeholder, expression, asName: placeholder.kind === "expression" && isIdentifier(content), operator: OPERATOR.test(content) };
}

/** The structural error of a word's first placeholder the registry cannot run, found without
 * compiling the word (what the check at load time needs): an unknown form or a bad expression. */
export const wordProblem = (word: string): string | undefined => eachPlaceholder(word, placeholderProblem);

function placeholderProblem(content: string): string | undefined {
  if (content === "") return undefined;
  const placeholder = classify(content);
  if (placeholder.kind === "unknown") return `Invalid command template placeholder: {${content}}`;
  let expression: CompiledExpression | undefined;
  if (placeholder.kind === "padded") expression = compileExpression(placeholder.expr === "" ? content : placeholder.expr);
  else if (placeholder.kind === "expression") expression = compileExpression(placeholder.expr);
  return expression?._tag === "SyntaxError" ? expressionErrorText({ _tag: "InvalidExpression", text: expression.text }) : undefined;
}

function compileTokenUncached(text: string): CompiledToken {
  // `{}` is not a placeholder (think `find -exec rm {} +`): it stays literal text
  const spans = findPlaceholders(text).filter((s) => s.content !== "");
  if (spans.length === 0) return text;
  const parts: Part[] = [];
  let at = 0;
  let literal = "";
  for (const s of spans) {
    literal += text.slice(at, s.start);
    if (literal !== "") parts.push(literal);
    literal = "";
    parts.push(compilePlaceholder(s.content));
    at = s.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** A Map that forgets its oldest entry when full: the compiled forms of the value and control texts
 * in use stay warm while memory stays bounded however many distinct texts pass through. */
class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string, make: (key: string) => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const value = make(key);
    if (this.map.size >= this.limit) {
      const oldest = this.map.keys().next();
      if (oldest.done !== true) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
    return value;
  }
}

const CACHE_LIMIT = 4096;
const tokens = new BoundedCache<CompiledToken>(CACHE_LIMIT);

/** One word, or one value text, as parts (no word splitting: a value is never split). */
export const compileToken = (text: string): CompiledToken => tokens.get(text, compileTokenUncached);

/** A leaf command template as words of parts. A tool's leaves are compiled once, into its program
 * (core/tool/program.ts). */
export function compileLeaf(text: string): CompiledLeaf {
  const split = splitWordsDetailed(text);
  return { text, words: split.words.map(compileToken), unterminatedQuote: split.unterminatedQuote };
}

/** Every placeholder of a compiled token, in order. */
export const placeholderParts = (token: CompiledToken): readonly CompiledPlaceholder[] =>
  typeof token === "string" ? [] : token.filter((p): p is CompiledPlaceholder => typeof p !== "string");
