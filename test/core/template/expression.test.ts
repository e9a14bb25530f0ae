import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { compileExpression, evaluateCompiled, evaluateExpression, expressionErrorText, MAX_EXPRESSION_NESTING, MAX_EXPRESSION_OPERATORS, padNumber } from "../../../core/template/expression.js";

const values = (v: Record<string, unknown>) => (name: string): unknown => (Object.hasOwn(v, name) ? v[name] : undefined);
// the error as the text a failed call shows
const ev = (expr: string, v: Record<string, unknown> = {}) => E.mapLeft(expressionErrorText)(evaluateExpression(expr, values(v)));

describe("integer expressions", () => {
  it("precedence, parentheses, truncating division, remainder, left associativity", () => {
    expect(ev("index+1", { index: "4" })).toEqual(E.right(5));
    expect(ev("(2+3)*4")).toEqual(E.right(20));
    expect(ev("7/2")).toEqual(E.right(3));
    expect(ev("0-7/2")).toEqual(E.right(-3));
    expect(ev("7%3")).toEqual(E.right(1));
    expect(ev("10-4-3")).toEqual(E.right(3));
    expect(ev("2+3*4")).toEqual(E.right(14));
    expect(ev(" 1 +\t2 ")).toEqual(E.right(3));
  });

  it("variables must hold integer text or numbers", () => {
    expect(ev("n*2", { n: 21 })).toEqual(E.right(42));
    expect(ev("n*2", { n: "-3" })).toEqual(E.right(-6));
    expect(ev("n+1", { n: "4.5" })).toEqual(E.left("Invalid command template expression variable: n"));
    expect(ev("n+1", {})).toEqual(E.left("Invalid command template expression variable: n"));
    expect(ev("n+1", { n: null })).toEqual(E.left("Invalid command template expression variable: n"));
  });

  it("a hyphen between names subtracts", () => {
    expect(ev("index-1", { index: "4" })).toEqual(E.right(3));
  });

  it("syntax errors name the whole expression; variables met first are checked first (the shell trap)", () => {
    expect(ev("file%.md")).toEqual(E.left("Invalid command template expression variable: file"));
    expect(ev("file%.md", { file: "5" })).toEqual(E.left("Invalid command template expression: file%.md"));
    expect(ev("(1+2")).toEqual(E.left("Invalid command template expression: (1+2"));
    expect(ev("1+")).toEqual(E.left("Invalid command template expression: 1+"));
    expect(ev("-1")).toEqual(E.left("Invalid command template expression: -1"));
    expect(ev("")).toEqual(E.left("Invalid command template expression: "));
  });

  it("division by zero is an error, not Infinity in argv", () => {
    expect(ev("1/0")).toEqual(E.left("Invalid command template expression: 1/0"));
    expect(ev("1%(2-2)")).toEqual(E.left("Invalid command template expression: 1%(2-2)"));
  });

  it("compiles once: the compiled form evaluates against different values", () => {
    const c = compileExpression("i*10");
    expect(evaluateCompiled(c, values({ i: "1" }))).toEqual(E.right(10));
    expect(evaluateCompiled(c, values({ i: "7" }))).toEqual(E.right(70));
  });

  it("padNumber keeps the sign in front", () => {
    expect(padNumber(5, 2)).toBe("05");
    expect(padNumber(123, 2)).toBe("123");
    expect(padNumber(-1, 3)).toBe("-01");
  });
});

describe("bounded expressions", () => {
  it("nest at most 64 parentheses and hold at most 1000 operators: more is a syntax error, never a stack overflow", () => {
    const nested = (n: number): string => `${"(".repeat(n)}index${")".repeat(n)}`;
    expect(compileExpression(nested(MAX_EXPRESSION_NESTING))._tag).toBe("Parsed");
    expect(compileExpression(nested(MAX_EXPRESSION_NESTING + 1))._tag).toBe("SyntaxError");
    expect(compileExpression(nested(100_000))._tag).toBe("SyntaxError");
    const chain = (n: number): string => Array.from({ length: n + 1 }, () => "1").join("+");
    const longest = compileExpression(chain(MAX_EXPRESSION_OPERATORS));
    expect(longest._tag).toBe("Parsed");
    expect(evaluateCompiled(longest, () => undefined)).toEqual(E.right(MAX_EXPRESSION_OPERATORS + 1));
    expect(compileExpression(chain(MAX_EXPRESSION_OPERATORS + 1))._tag).toBe("SyntaxError");
    expect(compileExpression(`${chain(300_000)}*2`)._tag).toBe("SyntaxError");
  });
});
