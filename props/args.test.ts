import { describe, expect } from "vitest";
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { analyzeArgs } from "../test/support/template-reads.js";
import { isValidDefault, normalizeArgValue, parseArgType, formatArgType } from "../core/args/arg-type.js";
import { parseArgsShorthand, parseDeclaration, shorthandErrorText } from "../core/args/declarations.js";
import { normalizeArgs } from "../core/args/normalize.js";
import { parametersSchema } from "../core/args/parameters-schema.js";
import { formatUsageHint } from "../core/args/usage-hint.js";
import { findPlaceholders, parsePlaceholder } from "../core/template/placeholder.js";
import type { ArgType, JsonObject } from "../core/model.js";
import {
  argNameArb, argTypeArb, declarationArb, declarationText, templateArb, validDefaultArb, validValueArb,
} from "./support/arg-arbitraries.js";

const inputArb = fc.record(
  {
    args: fc.array(declarationArb.map(declarationText), { maxLength: 4 }),
    defaults: fc.dictionary(argNameArb, fc.oneof(fc.string({ maxLength: 3 }), fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 })), { maxKeys: 3 }) as fc.Arbitrary<JsonObject>,
    template: templateArb,
  },
  { requiredKeys: ["template"] },
);

const exampleOf = (hint: string, tool: string): Record<string, unknown> => {
  const start = hint.indexOf(`${tool}(`) + tool.length + 1;
  const end = hint.indexOf("\n})") + 2;
  return JSON.parse(end > 1 ? hint.slice(start, end) : "{}") as Record<string, unknown>;
};

describe("argument surface properties", () => {
  test.prop([inputArb, fc.boolean()])("names are unique; required ⊆ names in names order; schema required = surface required", (input, async) => {
    const s = analyzeArgs(input);
    expect(new Set(s.names).size).toBe(s.names.length);
    expect(s.required).toEqual(s.names.filter((n) => s.required.includes(n)));
    const schema = parametersSchema(s, { async });
    expect(schema["required"]).toEqual(s.required);
    expect(Object.keys(schema["properties"] as object).slice(0, s.names.length)).toEqual(s.names);
    for (const t of Object.keys(s.types)) expect(s.names).toContain(t);
  });

  test.prop([inputArb, fc.boolean()])("every usage hint names every required argument, in the Required line and the example", (input, async) => {
    const s = analyzeArgs(input);
    const hint = formatUsageHint("tool", s, "Argument x must be an integer.", { async });
    const example = exampleOf(hint, "tool");
    for (const r of s.required) expect(Object.hasOwn(example, r)).toBe(true);
    const requiredLine = hint.split("\n").find((l) => l.startsWith("Required: "));
    if (s.required.length === 0) expect(requiredLine).toBeUndefined();
    else expect(requiredLine).toBe(`Required: ${s.required.join(", ")}`);
    expect(Object.keys(example)).toEqual([...s.required, ...s.names.filter((n) => !s.required.includes(n)), ...(async ? ["run_id"] : [])]);
  });

  test.prop([inputArb])("every usage-hint sample normalizes under its own type", (input) => {
    const s = analyzeArgs({ ...input, defaults: {} });
    const example = exampleOf(formatUsageHint("tool", s, "m", { async: false }), "tool");
    expect(E.isRight(normalizeArgs(s, example))).toBe(true);
  });

  test.prop([inputArb])("an explicit typed declaration decides the name's type", (input) => {
    const s = analyzeArgs(input);
    const seen = new Set<string>();
    for (const token of input.args ?? []) {
      const d = parseDeclaration(token);
      if (seen.has(d.name)) continue;
      seen.add(d.name);
      if (d.typeText === undefined) continue;
      const t = Object.hasOwn(s.types, d.name) ? s.types[d.name] : undefined;
      if (d.type.kind === "string") expect(t).toBeUndefined();
      else expect(t === undefined ? undefined : formatArgType(t)).toBe(formatArgType(d.type));
    }
  });
});

describe("typed normalization properties", () => {
  test.prop([argNameArb, argTypeArb.chain((t) => fc.tuple(fc.constant(t), validValueArb(t)))])(
    "any valid value normalizes, and normalizing again changes nothing",
    (name, [type, value]) => {
      const once = normalizeArgValue(name, type, value);
      expect(E.isRight(once)).toBe(true);
      if (E.isLeft(once)) return;
      expect(normalizeArgValue(name, type, once.right)).toEqual(once);
    },
  );

  test.prop([argNameArb, argTypeArb, fc.constantFrom(null, undefined)])("null and undefined become empty text, but for a path, which they cannot name", (name, type, v) => {
    if (type.kind === "path") expect(E.isLeft(normalizeArgValue(name, type, v))).toBe(true);
    else expect(normalizeArgValue(name, type, v)).toEqual(E.right(""));
  });

  test.prop([argTypeArb.chain((t) => fc.tuple(fc.constant(t), validDefaultArb(t)))])(
    "a valid declared default is accepted by runtime normalization",
    ([type, text]) => {
      expect(isValidDefault(type, text)).toBe(true);
      expect(E.isRight(normalizeArgValue("x", type, text))).toBe(true);
    },
  );

  // Default texts built to be valid or invalid by the documented rules, so the expectation does not
  // come from the code under test: int is `-?digits` after trim; number is `-?` then digits with an
  // optional fraction or `.digits`, optional exponent, after trim; bool is true/1/yes or false/0/no,
  // trimmed, any case; array is JSON text of an array; enum is exactly a member; string accepts
  // anything, path anything but the empty text.
  const pad = fc.constantFrom("", " ", "\t", "  ");
  const digits = fc.stringMatching(/^\d{1,12}$/);
  const neg = fc.constantFrom("", "-");
  const labelled = (type: ArgType, valid: boolean) => (text: string) => ({ type, text, valid });
  const INT: ArgType = { kind: "int" };
  const NUM: ArgType = { kind: "number" };
  const BOOL: ArgType = { kind: "bool" };
  const ARR: ArgType = { kind: "array" };
  const ENUM: ArgType = { kind: "enum", values: ["check", "fix"] };
  const casing = (w: string) => fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length }).map((up) => [...w].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(""));
  const defaultCase = fc.oneof(
    fc.tuple(pad, neg, digits, pad).map(([a, n, d, b]) => `${a}${n}${d}${b}`).map(labelled(INT, true)),
    fc.oneof(
      fc.constantFrom("", "-", "+1", "1.5", "1e3", "0x10", "--1", "- 1", "1 2", "one", "١٢"),
      digits.map((d) => `${d}.`),
      digits.map((d) => `${d}x`),
    ).map(labelled(INT, false)),
    fc.tuple(pad, neg, fc.oneof(digits, fc.tuple(digits, digits).map(([a, b]) => `${a}.${b}`), digits.map((d) => `.${d}`)), fc.constantFrom("", "e5", "E-3", "e+2"), pad)
      .map(([a, n, m, e, b]) => `${a}${n}${m}${e}${b}`).map(labelled(NUM, true)),
    fc.constantFrom("", "-", ".", "1.", "..1", "1e", "e5", "+1", "Infinity", "NaN", "0x10", "1,5", "1 .5", "abc").map(labelled(NUM, false)),
    fc.tuple(pad, fc.constantFrom("true", "1", "yes", "false", "0", "no").chain(casing), pad).map(([a, w, b]) => `${a}${w}${b}`).map(labelled(BOOL, true)),
    fc.constantFrom("", "2", "y", "n", "on", "off", "truth", "nope", "t r u e", "-1").map(labelled(BOOL, false)),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }).map((a) => JSON.stringify(a)).map(labelled(ARR, true)),
    fc.oneof(fc.jsonValue({ maxDepth: 1 }).filter((v) => !Array.isArray(v)).map((v) => JSON.stringify(v)), fc.constantFrom("", "[", "[1,", "a,b", "[1]]")).map(labelled(ARR, false)),
    fc.constantFrom("check", "fix").map(labelled(ENUM, true)),
    fc.constantFrom("", "Check", "FIX", " fix", "fix ", "check,fix", "c").map(labelled(ENUM, false)),
    fc.string().map((text) => ({ type: { kind: "string" } as ArgType, text, valid: true })),
    fc.string().map((text) => ({ type: { kind: "path" } as ArgType, text, valid: text !== "" })),
  );

  test.prop([defaultCase])("a default is valid exactly when the documented rules of its type accept it, and then it normalizes", ({ type, text, valid }) => {
    expect(isValidDefault(type, text)).toBe(valid);
    expect(E.isRight(normalizeArgValue("x", type, text))).toBe(valid);
  });

  test.prop([argTypeArb])("type text round-trips", (type) => {
    expect(parseArgType(formatArgType(type))).toEqual(type);
  });
});

describe("declaration properties", () => {
  test.prop([fc.uniqueArray(declarationArb, { selector: (d) => d.name, maxLength: 6 })])(
    "shorthand of unique valid declarations parses, and its canonical form re-parses to the same surface",
    (decls) => {
      const r = parseArgsShorthand(decls.map(declarationText).join(", "));
      expect(E.isRight(r)).toBe(true);
      if (E.isLeft(r)) return;
      expect(r.right.names).toEqual(decls.map((d) => d.name));
      const again = parseArgsShorthand(r.right.declarations.join(","));
      expect(again).toEqual(E.right({ ...r.right, defaults: {} }));
    },
  );

  test.prop([fc.array(declarationArb, { minLength: 1, maxLength: 5 }), fc.nat()])("a repeated name is reported as a duplicate", (decls, i) => {
    const dup = decls[i % decls.length];
    if (dup === undefined) return;
    const r = E.mapLeft(shorthandErrorText)(parseArgsShorthand([...decls, { ...dup, default: undefined }].map(declarationText).join(",")));
    expect(r).toSatisfy((e: E.Either<string, unknown>) => E.isLeft(e) && e.left.startsWith("Duplicate argument name(s): ") && e.left.includes(dup.name));
  });
});

describe("placeholder properties", () => {
  test.prop([fc.string()])("spans cover brace-free contents and parsing never throws", (word) => {
    for (const s of findPlaceholders(word)) {
      expect(word.slice(s.start, s.end)).toBe(`{${s.content}}`);
      expect(s.content).not.toMatch(/[{}]/);
      expect(["nullish", "ternary", "index", "length", "simple", "padded", "expression", "unknown"]).toContain(parsePlaceholder(s.content).kind);
    }
  });
});
