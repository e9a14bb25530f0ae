// Properties of template resolution: a value is exactly one argument, never split, never
// re-interpreted; compiled resolution agrees with a direct oracle.
import { describe, expect } from "vitest";
import { missingValue } from "../core/template/failure.js";
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { buildInvocation } from "../core/template/invocation.js";
import { scopeOf, substituteText } from "../core/template/substitute.js";
import { evaluateExpression } from "../core/template/expression.js";
import { truncateBody } from "../core/template/report.js";

const place = { home: "/home/u", cwd: "/work" };

// Quotes, spaces, shell metacharacters, escapes, newlines, braces and placeholder syntax,
// unicode (including astral and lone surrogates via the binary unit), and the empty string.
const nasty = fc.constantFrom(
  " ", "\t", "\n", "\r", "'", '"', "\\", ";", "$", "`", "|", "&", "*", "~", "{", "}", "?", ":", "[", "]", "=", "(", ")", "%",
  "$(id)", "`id`", "${HOME}", "{HOME}", "{secret}", "{x}", "{a??b}", "{s?y:n}", "{items[0]}", "{items.length}", "{_(1+1)}", "é", "😀", "\u0000",
);
const valueArb = fc.oneof(
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.array(nasty, { maxLength: 8 }).map((a) => a.join("")),
  fc.constant(""),
);

const defaults = { HOME: "/home/secret", secret: "s3cr3t", a: "A", s: "1", items: ["i0"], x: "X" };

describe("a runtime value is exactly one argv item", () => {
  test.prop([valueArb])("printf %s\\n {x} → [\"%s\\n\", x] (an empty x is dropped)", (x) => {
    const inv = buildInvocation("printf %s\\n {x}", scopeOf({ x }, defaults), place);
    // an empty substituted word disappears from argv
    expect(inv).toEqual(E.right({ command: "printf", args: x === "" ? ["%s\\n"] : ["%s\\n", x] }));
  });

  test.prop([valueArb])("a literal prefix keeps one item", (x) => {
    const inv = buildInvocation("tool --opt=pre{x}post", scopeOf({ x }, defaults), place);
    expect(inv).toEqual(E.right({ command: "tool", args: [`--opt=pre${x}post`] }));
  });

  test.prop([valueArb, valueArb])("two values in one word concatenate, in one item", (x, y) => {
    const inv = buildInvocation("t {x}-{y}", scopeOf({ x, y }), place);
    expect(inv).toEqual(E.right({ command: "t", args: [`${x}-${y}`] }));
  });

  test.prop([valueArb])("a value reached through a recipe default is still verbatim", (x) => {
    const scope = scopeOf({ x }, { ...defaults, wrapped: "<{x}>" });
    expect(substituteText("{wrapped}", scope)).toEqual(E.right(`<${x}>`));
  });

  // falsy words in any case and padding, next to truthy look-alikes
  const falsyish = fc.constantFrom("", " ", "0", " 0 ", "false", "FALSE", "No", "\tno\n", "off", "0.0", "00", "none", "nope");
  test.prop([fc.oneof(valueArb, falsyish)])("nullish gives the runtime value verbatim when it is truthy, else the literal fallback", (x) => {
    // truthiness as documented: falsy is text that, trimmed and lower-cased, is "", "0", "false" or "no"
    const falsy = ["", "0", "false", "no"].includes(x.trim().toLowerCase());
    expect(substituteText("{x??fallback}", scopeOf({ x }, defaults))).toEqual(E.right(falsy ? "fallback" : x));
  });
});

describe("arrays and expressions", () => {
  const item = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.constant(null));
  test.prop([fc.array(item, { minLength: 1, maxLength: 6 }), fc.nat()])("{items[i]} is the item's text; {items.length} its length", (items, n) => {
    const i = n % items.length;
    const scope = scopeOf({ items, i: String(i) });
    expect(substituteText("{items[i]}", scope)).toEqual(E.right(String(items[i] ?? "")));
    expect(substituteText("{items.length}", scope)).toEqual(E.right(String(items.length)));
    expect(substituteText(`{items[${items.length + n}]}`, scope)).toEqual(E.left(missingValue(`command template`, `items[${items.length + n}]`)));
  });

  // a small oracle: JS arithmetic with truncating division, on expressions without a zero divisor
  type Ex = { text: string; value: number };
  const leaf: fc.Arbitrary<Ex> = fc.integer({ min: 0, max: 50 }).map((v) => ({ text: String(v), value: v }));
  const exprArb: fc.Arbitrary<Ex> = fc.letrec<{ e: Ex }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.tuple(tie("e"), fc.constantFrom("+", "-", "*", "/", "%"), tie("e")).map(([l, op, r]): Ex => {
        const rv = r.value === 0 && (op === "/" || op === "%") ? 1 : r.value;
        const rt = rv === r.value ? r.text : "1";
        const value = op === "+" ? l.value + rv : op === "-" ? l.value - rv : op === "*" ? l.value * rv : op === "/" ? Math.trunc(l.value / rv) : l.value % rv;
        return { text: `(${l.text}${op}${rt})`, value };
      }),
    ),
  })).e;
  test.prop([exprArb])("expressions agree with JS integer arithmetic", (e) => {
    expect(evaluateExpression(e.text, () => undefined)).toEqual(E.right(e.value));
  });
});

describe("result bodies", () => {
  // the line and byte counts of a report are what splitting and UTF-8 encoding give, for any text
  // (lone surrogates count as the 3 bytes of the U+FFFD the encoder writes)
  const pieces = fc.oneof(fc.constantFrom("\n", "é", "😀", "\ud800", "\udc00", "\u07ff", "\u0800", "a"), fc.string({ unit: "binary", maxLength: 8 }));
  test.prop([fc.array(pieces, { maxLength: 40 })])("truncateBody counts lines and bytes exactly", (parts) => {
    const body = parts.join("");
    const t = truncateBody(body);
    expect(t.totalLines).toBe(body.split("\n").length);
    expect(t.totalBytes).toBe(new TextEncoder().encode(body).length);
    expect(t).toEqual({ text: body, truncated: false, outLines: t.totalLines, totalLines: t.totalLines, outBytes: t.totalBytes, totalBytes: t.totalBytes });
  });

  test.prop([fc.array(fc.string({ maxLength: 3 }), { minLength: 1995, maxLength: 2005 })], { numRuns: 20 })("more than 2000 lines keep the last 2000", (lines) => {
    const body = lines.join("\n");
    const t = truncateBody(body);
    const kept = body.split("\n").slice(-2000).join("\n");
    expect(t.text).toBe(kept);
    expect(t.totalLines).toBe(body.split("\n").length);
    expect(t.truncated).toBe(kept.length !== body.length);
  });
});
