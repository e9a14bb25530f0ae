// The structural check of a template graph, without values: what makes a template unable to run
// whatever the call passes, so that a bad template fails when it is loaded or registered, with
// a precise text, instead of on every call. Placeholder-valued controls are left to the call.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { hasPlaceholder } from "./placeholder.js";
import { wordProblem } from "./compile.js";
import type { SplitResult } from "./split.js";
import { EMPTY_VALUES, scopeOf } from "./substitute.js";
import { EMPTY_COMMAND, unterminatedQuoteMessage } from "./invocation.js";
import { COMMAND_LIMIT, repeatCount, tooManyCommandsText } from "./repeat.js";
import type { TemplateFailure } from "./failure.js";
import {
  resolveConcurrency, resolveFailure, resolveMinSuccessful, resolveNumericControl, resolveRetry,
} from "./controls.js";
import { FIELD } from "../recipe/fields.js";

export const NO_STEPS = "Tool template produced no command steps.";


const EMPTY_SCOPE = scopeOf(EMPTY_VALUES);

// A control written with placeholders can only be checked per call; a literal one is checked now.
const literal = (v: Json | undefined): boolean => !(typeof v === "string" && hasPlaceholder(v));

/** The structural error of one leaf, already split into words: an unterminated quote, a blank
 * command, an unknown placeholder form or expression. */
export function leafProblem(text: string, split: SplitResult): string | undefined {
  if (split.unterminatedQuote !== undefined) return unterminatedQuoteMessage(split.unterminatedQuote, text);
  if (split.words.length === 0) return EMPTY_COMMAND;
  for (const word of split.words) {
    const problem = wordProblem(word);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

const leftOf = (r: E.Either<TemplateFailure, unknown>): string | undefined => (E.isLeft(r) ? r.left.message : undefined);

/** The first control value of an object node that can never be valid, checked without values;
 * a placeholder-valued control is left to the call, except `repeat`, whose forms are closed. */
export function controlProblem(node: JsonObject): string | undefined {
  const failure = node[FIELD.failure];
  if (failure !== undefined) {
    const r = leftOf(resolveFailure(failure));
    if (r !== undefined) return r;
  }
  const delay = node[FIELD.delay];
  if (delay !== undefined && literal(delay)) {
    const r = leftOf(resolveNumericControl(FIELD.delay, delay, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const timeout = node[FIELD.timeout];
  if (timeout !== undefined && literal(timeout)) {
    const r = leftOf(resolveNumericControl(FIELD.timeout, timeout, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const retry = node[FIELD.retry];
  if (retry !== undefined && literal(retry)) {
    const r = leftOf(resolveRetry(retry, EMPTY_SCOPE));
    if (r !== undefined) return r;
  }
  const concurrency = node[FIELD.concurrency];
  if (concurrency !== undefined && literal(concurrency)) {
    const r = leftOf(resolveConcurrency(concurrency, EMPTY_SCOPE, Number.POSITIVE_INFINITY));
    if (r !== undefined) return r;
  }
  const minSuccessful = node[FIELD.min_successful];
  if (minSuccessful !== undefined && literal(minSuccessful)) {
    const t = node["template"];
    const branches = Array.isArray(t) && node[FIELD.repeat] === undefined ? t.length : Number.POSITIVE_INFINITY;
    const r = leftOf(resolveMinSuccessful(minSuccessful, EMPTY_SCOPE, branches));
    if (r !== undefined) return r;
  }
  const repeat = node[FIELD.repeat];
  if (repeat === undefined) return undefined;
  const count = repeatCount(repeat, EMPTY_SCOPE);
  if (E.isLeft(count)) return count.left.message;
  return typeof count.right === "number" && count.right > COMMAND_LIMIT ? tooManyCommandsText(COMMAND_LIMIT) : undefined;
}
