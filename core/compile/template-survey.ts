// A template graph, walked once: the structural error, risk labels, trusted-boundary warnings,
// the argument facts and the `repeat` texts all come from this one walk, which splits each leaf
// once. It is the only walk of a recipe's template before a call; everything else reads its result.
import type { Json } from "../model.js";
import { type GraphFacts, emptyGraphFacts, noteNodeControls, noteNodeDefaults, scanText } from "../args/analysis.js";
import { isObject } from "../template/graph.js";
import { controlProblem, leafProblem, NO_STEPS } from "../template/validate.js";
import { EMPTY_COMMAND } from "../template/invocation.js";
import { splitWordsDetailed } from "../template/split.js";
import { leafShapeOfWords } from "../risk/leaf-shape.js";
import { labelsOfMask, leafLabelMask, type RiskLabel } from "../risk/risk-labels.js";
import { leafWarnings } from "../risk/warnings.js";
import { shellSyntaxWarnings } from "../risk/shell-syntax.js";
import { freeTextWords } from "../risk/option-injection.js";
import type { RecipeWarning } from "./recipe-warning.js";
import { FIELD } from "../recipe/fields.js";
import { COMMAND_LIMIT, literalRepeat, tooManyCommandsText } from "../template/repeat.js";

export interface TemplateSurvey {
  /** the first structural error in document order (control values of a node before its children) */
  readonly error: string | undefined;
  /** the leaf the error belongs to (its nearest label, else its text), when a leaf's own text is wrong */
  readonly errorStep?: string;
  /** the labels of every string leaf, `recover` subtrees included, in the fixed label order */
  readonly riskLabels: readonly RiskLabel[];
  /** the distinct trusted-boundary and shell-syntax warnings of every string leaf, in document order */
  readonly warnings: readonly RecipeWarning[];
  /** what the graph says about arguments */
  readonly facts: GraphFacts;
  /** every string `repeat` */
  readonly repeats: readonly string[];
  /** free-text placeholders forming a whole argument word before any `--`, in order (option-injection.ts) */
  readonly freeTextWords: readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);

export function surveyTemplate(template: Json): TemplateSurvey {
  const facts = emptyGraphFacts();
  let labels = 0;
  // keyed by text: the same leaf written twice warns once
  let warnings: Map<string, RecipeWarning> | undefined;
  let repeats: string[] | undefined;
  const freeText: string[] = [];
  let error: string | undefined;
  let errorStep: string | undefined;
  // the walk goes on after a structural error: a disabled or broken recipe is still labelled,
  // and its argument names are still known
  const fail = (problem: string | undefined): void => {
    if (error === undefined && problem !== undefined) error = problem;
  };
  // returns the commands the node stands for (core/template/command-count.ts counts the same way
  // where a template may reach one node along many paths; a survey runs after that count)
  const walk = (node: Json | undefined, label: string | undefined): number => {
    if (typeof node === "string") {
      const split = splitWordsDetailed(node);
      const problem = leafProblem(node, split);
      if (error === undefined && problem !== undefined) errorStep = label ?? node;
      fail(problem);
      scanText(node, facts);
      freeTextWords(split.words, freeText);
      const shape = leafShapeOfWords(split.words);
      labels |= leafLabelMask(shape);
      const found = leafWarnings(shape, label);
      for (let i = 0; i < found.length; i++) {
        const w = found[i]!;
        if (!(warnings ??= new Map()).has(w.text)) warnings.set(w.text, w);
      }
      const shell = shellSyntaxWarnings(split, label);
      for (let i = 0; i < shell.length; i++) {
        const w = shell[i]!;
        if (!(warnings ??= new Map()).has(w.text)) warnings.set(w.text, w);
      }
      return 1;
    }
    if (Array.isArray(node)) {
      if (node.length === 0) fail(NO_STEPS);
      let n = 0;
      for (let i = 0; i < node.length; i++) n += walk(node[i], label);
      return n;
    }
    if (!isObject(node)) {
      fail(EMPTY_COMMAND);
      return 0;
    }
    fail(controlProblem(node));
    const own = typeof node["label"] === "string" ? node["label"] : label;
    noteNodeDefaults(node, facts);
    const repeat = node[FIELD.repeat];
    if (typeof repeat === "string") (repeats ??= []).push(repeat);
    let n = walk(node["template"], own);
    if (node[FIELD.recover] !== undefined) n += walk(node[FIELD.recover], own);
    noteNodeControls(node, facts);
    return n === 0 ? 0 : n * literalRepeat(repeat);
  };
  // repeats nested in one another: each within the limit, together past it
  if (walk(template, undefined) > COMMAND_LIMIT) fail(tooManyCommandsText(COMMAND_LIMIT));
  return {
    error,
    ...(errorStep === undefined ? {} : { errorStep }),
    riskLabels: labels === 0 ? NONE : labelsOfMask(labels),
    warnings: warnings === undefined ? NONE : [...warnings.values()],
    facts,
    repeats: repeats ?? NONE,
    freeTextWords: freeText.length === 0 ? NONE : freeText,
  };
}
