// Reference models of the template walks, written as separate passes the way the registry once
// ran them: the structural check, risk labels, trusted-boundary warnings, the argument facts and
// the repeat-safety check. props/survey.test.ts checks that the one compile walk
// (core/compile/compile-template.ts) answers exactly what these answer.
import type { RecipeWarning } from "../../core/compile/recipe-warning.js";
import * as E from "fp-ts/lib/Either.js";
import type { Json } from "../../core/model.js";
import type { ArgSurface } from "../../core/tool/tool-spec.js";
import {
  type ArgInput, type GraphFacts, emptyGraphFacts, noteNodeControls, noteNodeDefaults, repeatSafetyOf, scanText, unsafeRepeatText, surfaceOf,
} from "../../core/args/analysis.js";
import { isObject, leaves } from "../../core/template/graph.js";
import { compileLeaf, placeholderParts } from "../../core/template/compile.js";
import { EMPTY_COMMAND, unterminatedQuoteMessage } from "../../core/template/invocation.js";
import { controlProblem, NO_STEPS } from "../../core/template/validate.js";
import { leafShape } from "../../core/risk/leaf-shape.js";
import { findPlaceholders, isRepeatName, parsePlaceholder } from "../../core/template/placeholder.js";
import { splitWords, splitWordsDetailed } from "../../core/template/split.js";
import { shellSyntaxWarnings } from "../../core/risk/shell-syntax.js";
import { labelsOfMask, leafLabelMask, type RiskLabel } from "../../core/risk/risk-labels.js";
import { leafWarnings } from "../../core/risk/warnings.js";

function checkLeaf(text: string): string | undefined {
  const leaf = compileLeaf(text);
  if (leaf.unterminatedQuote !== undefined) return unterminatedQuoteMessage(leaf.unterminatedQuote, text);
  if (leaf.words.length === 0) return EMPTY_COMMAND;
  for (const word of leaf.words) {
    for (const p of placeholderParts(word)) {
      if (p.placeholder.kind === "unknown") return `Invalid command template placeholder: {${p.content}}`;
      if (p.expression !== undefined && p.expression._tag === "SyntaxError") return `Invalid command template expression: ${p.expression.text}`;
    }
  }
  return undefined;
}


export function validateTemplate(template: Json): E.Either<string, void> {
  const walk = (node: Json | undefined): string | undefined => {
    if (typeof node === "string") return checkLeaf(node);
    if (Array.isArray(node)) {
      if (node.length === 0) return NO_STEPS;
      for (const step of node) {
        const err = walk(step);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isObject(node)) return EMPTY_COMMAND;
    return controlProblem(node) ?? walk(node["template"]) ?? (node["recover"] === undefined ? undefined : walk(node["recover"]));
  };
  const err = walk(template);
  return err === undefined ? E.right(undefined) : E.left(err);
}

export function templateRiskLabels(template: Json): readonly RiskLabel[] {
  let mask = 0;
  for (const leaf of leaves(template)) mask |= leafLabelMask(leafShape(leaf.text));
  return labelsOfMask(mask);
}

/** The distinct warnings (by text) of every leaf, with the kind each was tagged with: its
 * trusted-boundary warnings, then its shell-syntax ones. */
export function trustedBoundaryWarnings(template: Json): RecipeWarning[] {
  const seen = new Map<string, RecipeWarning>();
  for (const leaf of leaves(template)) {
    for (const w of leafWarnings(leafShape(leaf.text), leaf.label)) if (!seen.has(w.text)) seen.set(w.text, w);
    for (const w of shellSyntaxWarnings(splitWordsDetailed(leaf.text), leaf.label)) if (!seen.has(w.text)) seen.set(w.text, w);
  }
  return [...seen.values()];
}

function walk(node: Json | undefined, facts: GraphFacts): void {
  if (typeof node === "string") scanText(node, facts);
  else if (Array.isArray(node)) node.forEach((n: Json) => walk(n, facts));
  else if (isObject(node)) {
    noteNodeDefaults(node, facts);
    walk(node["template"], facts);
    walk(node["recover"], facts);
    noteNodeControls(node, facts);
  }
}

function graphFacts(template: Json): GraphFacts {
  const facts = emptyGraphFacts();
  walk(template, facts);
  return facts;
}

export const analyzeArgs = (input: ArgInput): ArgSurface => surfaceOf(input, graphFacts(input.template));

function repeatTexts(node: Json | undefined, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n: Json) => repeatTexts(n, out));
  else if (isObject(node)) {
    const r = node["repeat"];
    if (typeof r === "string") out.push(r);
    repeatTexts(node["template"], out);
    repeatTexts(node["recover"], out);
  }
  return out;
}

/** Every string `repeat` must be digits or `{name.length}` over a name declared `:array` in the
 * explicit `args` or given an array default; an inline `{name:array}` is not enough,
 * because nothing else guarantees the value reaches the repeat as an array. */
export const checkRepeatSafety = (input: ArgInput): E.Either<string, void> => {
  const texts = repeatTexts(input.template, []);
  return texts.length === 0 ? E.right(undefined) : E.mapLeft(unsafeRepeatText)(repeatSafetyOf(input, texts, graphFacts(input.template)));
};


// the option-injection rule as its own walk over every leaf
function freeTextName(word: string): string | undefined {
  const spans = findPlaceholders(word);
  const only = spans[0];
  if (spans.length !== 1 || only === undefined || only.start !== 0 || only.end !== word.length) return undefined;
  const p = parsePlaceholder(only.content);
  if (p.kind === "nullish" || p.kind === "index") return p.name;
  // an array's elements are text too
  if (p.kind !== "simple" || isRepeatName(p.name) || (p.typed && !["string", "array"].includes(p.type.kind))) return undefined;
  return p.name;
}

export function optionInjectionArgs(input: ArgInput): string[] {
  const names: string[] = [];
  const types = analyzeArgs(input).types;
  for (const leaf of leaves(input.template)) {
    for (const word of splitWords(leaf.text).slice(1)) {
      if (word === "--") break;
      const name = freeTextName(word);
      const kind = name === undefined || !Object.hasOwn(types, name) ? undefined : (types[name] as { kind: string }).kind;
      if (name !== undefined && !names.includes(name) && (kind === undefined || kind === "array")) names.push(name);
    }
  }
  return names;
}
