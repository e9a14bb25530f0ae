// A recipe revision's template graph, walked once (DESIGN.md: compile once per revision). Loading
// checks the structure, the tool needs the argument facts, the entry needs risk labels and
// trusted-boundary warnings; each used to walk the graph and split every leaf again. Here one
// walk splits each leaf once and feeds all of them, through the same per-node and per-leaf steps
// that validateTemplate, analyzeArgs, checkRepeatSafety, templateRiskLabels and
// trustedBoundaryWarnings use, so the answers are theirs.
import type { Json } from "../model.js";
import { type GraphFacts, emptyGraphFacts, noteNodeControls, noteNodeDefaults, scanText } from "../args/analysis.js";
import { isObject } from "../template/graph.js";
import { controlProblem, leafProblem, NO_STEPS } from "../template/expand.js";
import { EMPTY_COMMAND } from "../template/invocation.js";
import { splitWordsDetailed } from "../template/split.js";
import { leafShapeOfWords } from "../risk/leaf-shape.js";
import { labelsOfMask, leafLabelMask, type RiskLabel } from "../risk/risk-labels.js";
import { leafWarnings } from "../risk/warnings.js";

export interface TemplateSurvey {
  /** the first structural error (validateTemplate's); the other fields are then partial */
  readonly error: string | undefined;
  /** templateRiskLabels */
  readonly riskLabels: readonly RiskLabel[];
  /** trustedBoundaryWarnings */
  readonly warnings: readonly string[];
  /** what analyzeArgs gathers from the graph */
  readonly facts: GraphFacts;
  /** every string `repeat`, for checkRepeatSafety */
  readonly repeats: readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);

export function surveyTemplate(template: Json): TemplateSurvey {
  const facts = emptyGraphFacts();
  let labels = 0;
  let warnings: Set<string> | undefined;
  let repeats: string[] | undefined;
  // the traversal of validateTemplate (whose first error wins), which the graph walks of
  // leaves() and analyzeArgs follow too once the structure is valid
  const walk = (node: Json | undefined, label: string | undefined): string | undefined => {
    if (typeof node === "string") {
      const split = splitWordsDetailed(node);
      const problem = leafProblem(node, split);
      if (problem !== undefined) return problem;
      scanText(node, facts);
      const shape = leafShapeOfWords(split.words);
      labels |= leafLabelMask(shape);
      for (const w of leafWarnings(shape, label)) (warnings ??= new Set()).add(w);
      return undefined;
    }
    if (Array.isArray(node)) {
      if (node.length === 0) return NO_STEPS;
      for (const step of node) {
        const err = walk(step, label);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isObject(node)) return EMPTY_COMMAND;
    const control = controlProblem(node);
    if (control !== undefined) return control;
    const own = typeof node["label"] === "string" ? node["label"] : label;
    noteNodeDefaults(node, facts);
    const repeat = node["repeat"];
    if (typeof repeat === "string") (repeats ??= []).push(repeat);
    const err = walk(node["template"], own) ?? (node["recover"] === undefined ? undefined : walk(node["recover"], own));
    if (err !== undefined) return err;
    noteNodeControls(node, facts);
    return undefined;
  };
  const error = walk(template, undefined);
  return {
    error,
    riskLabels: labels === 0 ? NONE : labelsOfMask(labels),
    warnings: warnings === undefined ? NONE : [...warnings],
    facts,
    repeats: repeats ?? NONE,
  };
}
