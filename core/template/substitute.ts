// Resolving placeholders against values, over compiled tokens.
//
// Only recipe-authored text is itself a template. Re-substituting ANY value holding resolvable
// `{...}` would let a caller passing `"{api_token}"` as an argument pull another value into argv. Here a value found among the defaults (recipe-authored) is
// resolved recursively; a call-time runtime value is used verbatim, always. Values that cross
// layers say so with `verbatim(...)` (a runtime value copied into defaults) or `authored(...)`
// (recipe text given runtime precedence, like top-level recipe defaults in a tool call).
import * as E from "fp-ts/lib/Either.js";
import { type TemplateFailure, invalidTemplate, missingValue } from "./failure.js";
import type { CompiledPlaceholder, CompiledToken } from "./compile.js";
import { compileToken } from "./compile.js";
import { evaluateCompiled, expressionErrorText, padNumber } from "./expression.js";
import { isTruthy, textOf } from "./truthy.js";

export type Values = Readonly<Record<string, unknown>>;

/** A value whose origin differs from its layer's default. */
export class Origin {
  constructor(readonly value: unknown, readonly authored: boolean) {}
}

const unwrap = (v: unknown): unknown => (v instanceof Origin ? v.value : v);
/** A call-time value kept in a defaults layer: never expanded. */
export const verbatim = (value: unknown): Origin => new Origin(unwrap(value), false);
/** Recipe-authored text kept in the runtime layer: expanded like a default. */
export const authored = (value: unknown): Origin => new Origin(unwrap(value), true);

/** Where values are looked up, first match wins: runtime (verbatim) → defaults → defaults
 * written in `args` tokens (both recipe-authored). */
export interface Scope {
  readonly runtime: Values;
  readonly defaults: Values;
  readonly argDefaults: Values;
}

export const EMPTY_VALUES: Values = Object.freeze({});

export const scopeOf = (runtime: Values, defaults: Values = EMPTY_VALUES, argDefaults: Values = EMPTY_VALUES): Scope => ({
  runtime, defaults, argDefaults,
});

// The layer holding a name (0 runtime, 1 defaults, 2 args-token defaults), or -1. Lookups run
// several times per placeholder on every call, so they return a number rather than an object.
function layerOf(scope: Scope, name: string): number {
  if (Object.hasOwn(scope.runtime, name)) return 0;
  if (Object.hasOwn(scope.defaults, name)) return 1;
  if (Object.hasOwn(scope.argDefaults, name)) return 2;
  return -1;
}

const layerValues = (scope: Scope, layer: number): Values =>
  layer === 0 ? scope.runtime : layer === 1 ? scope.defaults : scope.argDefaults;

/** The plain value of a name, undefined when absent. */
export function valueOf(scope: Scope, name: string): unknown {
  const layer = layerOf(scope, name);
  if (layer < 0) return undefined;
  const raw = layerValues(scope, layer)[name];
  return raw instanceof Origin ? raw.value : raw;
}

/** Failures travel as this class inside the resolver, so that the per-call path allocates an
 * Either only once, at its boundary; a string result is never one. */
export class Failure {
  constructor(readonly failure: TemplateFailure) {}
}

type Resolved = string | undefined | Failure;

const MAX_DEPTH = 5;
export const DEFAULT_LABEL = "command template";
const missing = (label: string, content: string): Failure => new Failure(missingValue(label, content));
const invalid = (message: string): Failure => new Failure(invalidTemplate(message));

/** A padded or expression placeholder, whose expression compilePlaceholder always compiles. */
function evaluate(p: CompiledPlaceholder, scope: Scope): string | Failure {
  const r = evaluateCompiled(p.expression!, (name) => valueOf(scope, name));
  if (E.isLeft(r)) return invalid(expressionErrorText(r.left));
  return p.placeholder.kind === "padded" ? padNumber(r.right, p.placeholder.width) : String(r.right);
}

/** A named value as text: recipe-authored text whose every placeholder resolves is itself
 * substituted; anything else is literal (arrays as JSON, the rest as String() does). */
function named(layer: number, name: string, scope: Scope, label: string, depth: number): string | Failure {
  const slot = layerValues(scope, layer)[name];
  const isOrigin = slot instanceof Origin;
  const raw = (isOrigin ? slot.value : slot) ?? "";
  if (typeof raw === "string") {
    if ((isOrigin ? slot.authored : layer > 0) && raw.includes("{")) {
      const token = compileToken(raw);
      if (typeof token !== "string" && resolvable(token, scope)) return substituteParts(token, scope, label, depth + 1);
    }
    return raw;
  }
  return Array.isArray(raw) ? JSON.stringify(raw) : textOf(raw);
}

function arrayIndex(p: Extract<CompiledPlaceholder["placeholder"], { kind: "index" }>, scope: Scope): number | undefined {
  const source = valueOf(scope, p.name);
  if (!Array.isArray(source)) return undefined;
  // Number() on purpose: `"2"`, `2` and `" 2"` are one index alike
  const i = p.index.kind === "position" ? p.index.position : Number(valueOf(scope, p.index.name));
  return Number.isInteger(i) && i >= 0 && i < source.length ? i : undefined;
}

/** The text of one placeholder; undefined when nothing resolves it (the caller decides whether
 * that is an error). */
function resolvePart(p: CompiledPlaceholder, scope: Scope, label: string, depth: number): Resolved {
  if (depth > MAX_DEPTH) return invalid(`Command template value recursion exceeded: ${p.content}`);
  const ph = p.placeholder;
  switch (ph.kind) {
    case "nullish": {
      const v = valueOf(scope, ph.name);
      return isTruthy(v) ? textOf(v) : ph.fallback;
    }
    case "ternary": {
      const truth = isTruthy(ph.name === undefined ? undefined : valueOf(scope, ph.name));
      return truth !== ph.negated ? ph.yes : ph.no;
    }
    case "index": {
      const i = arrayIndex(ph, scope);
      if (i === undefined) return missing(label, p.content);
      const item: unknown = (valueOf(scope, ph.name) as readonly unknown[])[i];
      return textOf(item ?? "");
    }
    case "length": {
      const v = valueOf(scope, ph.name);
      return Array.isArray(v) ? String(v.length) : missing(label, p.content);
    }
    case "simple": {
      const layer = layerOf(scope, ph.name);
      if (layer >= 0) return named(layer, ph.name, scope, label, depth);
      if (ph.default !== undefined) return ph.default;
      // read as an expression, the content can only fail this way
      return p.operator ? invalid(`Invalid command template expression variable: ${ph.name}`) : undefined;
    }
    case "padded":
    case "expression": {
      if (p.asName) {
        const layer = layerOf(scope, p.content);
        if (layer >= 0) return named(layer, p.content, scope, label, depth);
      }
      return evaluate(p, scope);
    }
    case "unknown":
      return undefined;
  }
}

/** Whether every placeholder of a value text would resolve; if not, the text is used
 * literally, so a default like `use {unknown} here` passes through. */
function resolvable(parts: readonly (string | CompiledPlaceholder)[], scope: Scope): boolean {
  for (const part of parts) {
    if (typeof part === "string") continue;
    const ph = part.placeholder;
    switch (ph.kind) {
      case "nullish":
      case "ternary":
        break;
      case "index":
        if (layerOf(scope, ph.name) < 0) return false;
        break;
      case "length":
        if (!Array.isArray(valueOf(scope, ph.name))) return false;
        break;
      case "simple":
        if (ph.default === undefined && layerOf(scope, ph.name) < 0) return false;
        break;
      case "padded":
      case "expression":
        if (!(part.asName && layerOf(scope, part.content) >= 0) && evaluate(part, scope) instanceof Failure) return false;
        break;
      case "unknown":
        return false;
    }
  }
  return true;
}

function substituteParts(token: CompiledToken, scope: Scope, label: string, depth: number): string | Failure {
  if (typeof token === "string") return token;
  let out = "";
  for (const part of token) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const r = resolvePart(part, scope, label, depth);
    if (r === undefined) return missing(label, part.content);
    if (r instanceof Failure) return r;
    out += r;
  }
  return out;
}

/** substituteToken without the Either, for loops over many words (invocation building). */
export const resolveToken = (token: CompiledToken, scope: Scope, label: string = DEFAULT_LABEL): string | Failure =>
  substituteParts(token, scope, label, 0);

const toEither = (r: string | Failure): E.Either<TemplateFailure, string> => (r instanceof Failure ? E.left(r.failure) : E.right(r));

/** Substitutes every placeholder of a compiled word, left to right. `label` names the field in
 * `Missing <label> value: <content>` (`command template`, `timeout`, ...). */
export const substituteToken = (token: CompiledToken, scope: Scope, label: string = DEFAULT_LABEL): E.Either<TemplateFailure, string> =>
  toEither(substituteParts(token, scope, label, 0));

/** substituteToken for a text (compiled through the cache); the text is not word-split. */
export const substituteText = (text: string, scope: Scope, label: string = DEFAULT_LABEL): E.Either<TemplateFailure, string> =>
  substituteToken(compileToken(text), scope, label);

/** One placeholder's content resolved as `when: "{...}"` needs it: undefined when nothing
 * resolves it, an error only for a failing index, length or expression. */
export function resolveContent(content: string, scope: Scope, label: string): E.Either<TemplateFailure, string | undefined> {
  const token = compileToken(`{${content}}`);
  const part = typeof token === "string" ? undefined : token[0];
  if (part === undefined || typeof part === "string") return E.right(undefined);
  const r = resolvePart(part, scope, label, 0);
  return r instanceof Failure ? E.left(r.failure) : E.right(r);
}
