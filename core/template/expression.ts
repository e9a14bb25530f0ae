// Integer expressions inside placeholders: `{index+1}`, `{(2+3)*4}`,
// `{_(index+1)}`. An expression is parsed once into a tree; a call only walks the tree.
import * as E from "fp-ts/lib/Either.js";

type Operator = "+" | "-" | "*" | "/" | "%";

type Node =
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "variable"; readonly name: string }
  | { readonly kind: "binary"; readonly op: Operator; readonly left: Node; readonly right: Node };

export type CompiledExpression =
  | { readonly _tag: "Parsed"; readonly text: string; readonly root: Node }
  /** Syntax error. A missing variable met before the error point is reported instead of the
   * syntax error (the error an author sees first when reading left to right): `names` keeps them. */
  | { readonly _tag: "SyntaxError"; readonly text: string; readonly names: readonly string[] };

/** Why an expression has no value: its text does not parse or divides by zero, or a variable
 * is missing or not an integer. */
export type ExpressionError =
  | { readonly _tag: "InvalidExpression"; readonly text: string }
  | { readonly _tag: "InvalidVariable"; readonly name: string };

export function expressionErrorText(e: ExpressionError): string {
  switch (e._tag) {
    case "InvalidExpression":
      return `Invalid command template expression: ${e.text}`;
    case "InvalidVariable":
      return `Invalid command template expression variable: ${e.name}`;
  }
}

const isDigit = (c: string): boolean => c >= "0" && c <= "9";
const isIdentStart = (c: string): boolean => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_";
const isIdentChar = (c: string): boolean => isIdentStart(c) || isDigit(c);

/** The most parentheses an expression nests, and the most operators it holds. */
export const MAX_EXPRESSION_NESTING = 64;
export const MAX_EXPRESSION_OPERATORS = 1000;

/** Identifiers here stop at `-` (unlike placeholder names), so `{index-1}` subtracts rather than
 * naming one unknown variable `index-1`. */
export function compileExpression(text: string): CompiledExpression {
  const src = text.replace(/\s+/g, "");
  const names: string[] = [];
  let i = 0;
  // the parse and the walk of the tree recurse: nesting and length are bounded, so that a
  // placeholder of thousands of parentheses or operators is a syntax error, never a stack overflow
  let depth = 0;
  let operators = 0;
  // a syntax error jumps to the end of input, which makes every rule stop consuming
  let failed = false;
  const fail = (): Node => {
    failed = true;
    i = src.length;
    return { kind: "number", value: 0 };
  };
  const primary = (): Node => {
    const c = src[i] ?? "";
    if (c === "(") {
      if (++depth > MAX_EXPRESSION_NESTING) return fail();
      i += 1;
      const inner = sum();
      depth -= 1;
      if (failed || src[i] !== ")") return fail();
      i += 1;
      return inner;
    }
    if (isDigit(c)) {
      const start = i;
      while (i < src.length && isDigit(src[i] ?? "")) i += 1;
      return { kind: "number", value: Number(src.slice(start, i)) };
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < src.length && isIdentChar(src[i] ?? "")) i += 1;
      const name = src.slice(start, i);
      names.push(name);
      return { kind: "variable", name };
    }
    return fail();
  };
  const product = (): Node => {
    let left = primary();
    for (let c = src[i]; c === "*" || c === "/" || c === "%"; c = src[i]) {
      if (++operators > MAX_EXPRESSION_OPERATORS) return fail();
      i += 1;
      left = { kind: "binary", op: c, left, right: primary() };
    }
    return left;
  };
  const sum = (): Node => {
    let left = product();
    for (let c = src[i]; c === "+" || c === "-"; c = src[i]) {
      if (++operators > MAX_EXPRESSION_OPERATORS) return fail();
      i += 1;
      left = { kind: "binary", op: c, left, right: product() };
    }
    return left;
  };
  const root = sum();
  if (failed || i !== src.length) return { _tag: "SyntaxError", text, names };
  return { _tag: "Parsed", text, root };
}

const isIntegerText = (t: string): boolean => {
  let k = t.startsWith("-") ? 1 : 0;
  if (k >= t.length) return false;
  for (; k < t.length; k += 1) if (!isDigit(t[k] ?? "")) return false;
  return true;
};

const invalidExpression = (text: string): ExpressionError => ({ _tag: "InvalidExpression", text });
const invalidVariable = (name: string): ExpressionError => ({ _tag: "InvalidVariable", name });

/** Looks a variable up: undefined when absent; otherwise its text must be an integer. */
export type ExpressionLookup = (name: string) => unknown;

function variable(name: string, lookup: ExpressionLookup): number | ExpressionError {
  const v = lookup(name);
  if (v === undefined) return invalidVariable(name);
  const t = typeof v === "number" ? String(v) : typeof v === "string" ? v : undefined;
  return t !== undefined && isIntegerText(t) ? Number(t) : invalidVariable(name);
}

// Returns the number, or the error.
function walk(node: Node, lookup: ExpressionLookup, text: string): number | ExpressionError {
  switch (node.kind) {
    case "number":
      return node.value;
    case "variable":
      return variable(node.name, lookup);
    case "binary": {
      const l = walk(node.left, lookup, text);
      if (typeof l !== "number") return l;
      const r = walk(node.right, lookup, text);
      if (typeof r !== "number") return r;
      switch (node.op) {
        case "+": return l + r;
        case "-": return l - r;
        case "*": return l * r;
        // a zero divisor is an error, never `Infinity` or `NaN` in argv
        case "/": return r === 0 ? invalidExpression(text) : Math.trunc(l / r);
        case "%": return r === 0 ? invalidExpression(text) : l % r;
      }
    }
  }
}

/** The value of a compiled expression; `/` truncates toward zero. */
export function evaluateCompiled(c: CompiledExpression, lookup: ExpressionLookup): E.Either<ExpressionError, number> {
  if (c._tag === "SyntaxError") {
    for (const name of c.names) {
      const v = variable(name, lookup);
      if (typeof v !== "number") return E.left(v);
    }
    return E.left(invalidExpression(c.text));
  }
  const r = walk(c.root, lookup, c.text);
  return typeof r === "number" ? E.right(r) : E.left(r);
}

export const evaluateExpression = (text: string, lookup: ExpressionLookup): E.Either<ExpressionError, number> =>
  evaluateCompiled(compileExpression(text), lookup);

/** Zero-padded decimal text of at least `width` characters; the sign stays in front (`-01`, not
 * `0-1`). */
export function padNumber(value: number, width: number): string {
  if (value < 0) return "-" + String(-value).padStart(width - 1, "0");
  return String(value).padStart(width, "0");
}
