// Control fields of a template node: the numeric ones, `when`
// and `failure`, resolved against the node's control values (context defaults + runtime).
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import type { Scope } from "./substitute.js";
import { resolveContent, substituteText, valueOf } from "./substitute.js";
import { isTruthy } from "./truthy.js";
import { type TemplateFailure, invalidTemplate } from "./failure.js";
import { isIdentifier } from "./placeholder.js";
import { FIELD } from "../recipe/fields.js";
import { COMMAND_LIMIT } from "./repeat.js";

export type NumericControl = typeof FIELD.delay | typeof FIELD.timeout | typeof FIELD.retry | typeof FIELD.concurrency | typeof FIELD.min_successful;
export type FailureScope = "continue" | "branch" | "root";

export const FAILURE_SCOPES: readonly FailureScope[] = ["continue", "branch", "root"];

const nonNegative = (field: NumericControl): TemplateFailure => invalidTemplate(`Command template ${field} must be a non-negative number.`);

/** The shared first step: a number as is; a string substituted (label = field name) and read with
 * Number(); `""` after substitution means unset. Result: a finite number ≥ 0, or undefined. */
export function resolveNumericControl(field: NumericControl, value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> {
  if (value === undefined) return E.right(undefined);
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") {
    const text = substituteText(value, scope, field);
    if (E.isLeft(text)) return text;
    if (text.right === "") return E.right(undefined);
    n = Number(text.right);
  } else return E.left(nonNegative(field));
  return Number.isFinite(n) && n >= 0 ? E.right(n) : E.left(nonNegative(field));
}

/** Milliseconds to wait before the node (undefined or 0: no wait). */
export const resolveDelay = (value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> =>
  resolveNumericControl(FIELD.delay, value, scope);

/** Milliseconds before the process is killed (undefined or 0: no timeout). */
export const resolveTimeout = (value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> =>
  resolveNumericControl(FIELD.timeout, value, scope);

const positiveInteger = (field: NumericControl, value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> =>
  chain((n: number | undefined) =>
    n === undefined || (Number.isInteger(n) && n >= 1) ? E.right(n) : E.left(invalidTemplate(`Command template ${field} must be a positive integer.`)),
  )(resolveNumericControl(field, value, scope));

/** The most attempts a `retry` may ask for: each attempt starts a command again, and no template
 *  stands for more commands than this (core/template/repeat.ts). */
export const MAX_RETRY = COMMAND_LIMIT;

/** Attempts, an integer from 1 to MAX_RETRY. */
export const resolveRetry = (value: unknown, scope: Scope): E.Either<TemplateFailure, number | undefined> =>
  chain((n: number | undefined) =>
    n === undefined || n <= MAX_RETRY ? E.right(n) : E.left(invalidTemplate(`Command template retry must be at most ${MAX_RETRY}.`)),
  )(positiveInteger(FIELD.retry, value, scope));

/** Branches run at once: an integer ≥ 1, capped at the branch count; all of them when unset. */
export const resolveConcurrency = (value: unknown, scope: Scope, branches: number): E.Either<TemplateFailure, number> =>
  E.map((n: number | undefined) => (n === undefined ? branches : Math.min(n, branches)))(positiveInteger(FIELD.concurrency, value, scope));

/** The quorum of usable branches: an integer from 0 to the branch count. */
export function resolveMinSuccessful(value: unknown, scope: Scope, branches: number): E.Either<TemplateFailure, number | undefined> {
  const r = resolveNumericControl(FIELD.min_successful, value, scope);
  if (E.isLeft(r) || r.right === undefined) return r;
  const m = r.right;
  if (!Number.isInteger(m)) return E.left(invalidTemplate("Command template min_successful must be a non-negative integer."));
  if (m > branches) return E.left(invalidTemplate(`Command template min_successful ${m} exceeds branch count ${branches}.`));
  return r;
}

const EXACT_PLACEHOLDER = /^\{([^{}]+)\}$/;

/** Whether the node runs: absent → yes; a boolean as is; blank text → no; exactly
 * `{...}` → the resolved text's truthiness (nothing resolves it → no); else `name` / `!name`. */
/** `when: "true"` and `when: "false"` are the booleans written as text (as JSON and YAML both
 *  make it easy to write them), never arguments named `true` or `false`. */
export const whenLiteral = (text: string): boolean | undefined => (text === "true" ? true : text === "false" ? false : undefined);

export function resolveWhen(when: unknown, scope: Scope): E.Either<TemplateFailure, boolean> {
  if (when === undefined) return E.right(true);
  if (typeof when === "boolean") return E.right(when);
  if (typeof when !== "string") return E.right(isTruthy(when));
  const t = when.trim();
  if (t === "") return E.right(false);
  const literal = whenLiteral(t);
  if (literal !== undefined) return E.right(literal);
  const exact = EXACT_PLACEHOLDER.exec(t);
  if (exact !== null) return E.map(isTruthy)(resolveContent(exact[1] ?? "", scope, "command template when"));
  const negated = t.startsWith("!");
  const name = (negated ? t.slice(1) : t).trim();
  const truth = isIdentifier(name) && isTruthy(valueOf(scope, name));
  return E.right(truth !== negated);
}

/** `failure`, `continue` when absent. */
export function resolveFailure(value: unknown): E.Either<TemplateFailure, FailureScope> {
  if (value === undefined) return E.right("continue");
  return typeof value === "string" && (FAILURE_SCOPES as readonly string[]).includes(value)
    ? E.right(value as FailureScope)
    : E.left(invalidTemplate("Command template failure must be one of: continue, branch, root."));
}
