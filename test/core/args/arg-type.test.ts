import { describe, expect, it, vi } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import {
  argMismatchText, argSchemaProperty, canonicalDeclaration, formatArgType, isValidDefault, normalizeArgValue, parseArgType, sampleArgValue, typedArgValue,
} from "../../../core/args/arg-type.js";
import type { ArgType } from "../../../core/model.js";

const checkFix: ArgType = { kind: "enum", values: ["check", "fix"] };

describe("parseArgType", () => {
  it("reads every supported type", () => {
    for (const k of ["string", "path", "int", "number", "bool", "array"] as const) expect(parseArgType(k)).toEqual({ kind: k });
    expect(parseArgType("enum( check , ,fix )")).toEqual(checkFix);
    expect(parseArgType(" int ")).toEqual({ kind: "int" });
    expect(parseArgType(" enum(check,fix) ")).toEqual(checkFix);
    for (const bad of ["xenum(a)", "enum(a)x", "enum()", "enum( , )", "Int", "integer"]) expect(parseArgType(bad)).toBeUndefined();
  });

  it("gives undefined for unknown types and enums without values", () => {
    for (const t of ["String", "integer", "enum()", "enum( , )", "enum(a", ""]) expect(parseArgType(t)).toBeUndefined();
  });
});

describe("argSchemaProperty", () => {
  it("has the exact property of each type", () => {
    expect(argSchemaProperty("n", undefined)).toEqual({ description: "Argument: n", type: "string" });
    expect(argSchemaProperty("n", { kind: "string" })).toEqual({ description: "Argument: n", type: "string" });
    expect(argSchemaProperty("n", { kind: "path" })).toEqual({ description: "Path argument: n", type: "string" });
    expect(argSchemaProperty("n", { kind: "int" })).toEqual({ description: "Int argument: n", type: "integer" });
    expect(argSchemaProperty("n", { kind: "number" })).toEqual({ description: "Number argument: n", type: "number" });
    expect(argSchemaProperty("n", { kind: "bool" })).toEqual({ description: "Bool argument: n", type: "boolean" });
    expect(JSON.stringify(argSchemaProperty("n", { kind: "array" }))).toBe('{"description":"Array argument: n","items":{},"type":"array"}');
    expect(JSON.stringify(argSchemaProperty("n", checkFix))).toBe('{"description":"Enum argument: n","enum":["check","fix"],"type":"string"}');
  });
});

describe("typedArgValue", () => {
  it("a default as the JSON value of its type; arrays stay arrays; a text that does not fit is none", () => {
    expect(typedArgValue({ kind: "int" }, "5")).toBe(5);
    expect(typedArgValue({ kind: "number" }, "1.5")).toBe(1.5);
    expect(typedArgValue({ kind: "bool" }, "yes")).toBe(true);
    expect(typedArgValue({ kind: "bool" }, "no")).toBe(false);
    expect(typedArgValue({ kind: "path" }, "-x")).toBe("./-x");
    expect(typedArgValue(undefined, "text")).toBe("text");
    expect(typedArgValue(checkFix, "fix")).toBe("fix");
    expect(typedArgValue({ kind: "int" }, ["a"])).toEqual(["a"]);
    for (const [type, text] of [[{ kind: "int" }, "x"], [{ kind: "bool" }, "maybe"], [checkFix, "other"]] as const) expect(typedArgValue(type, text)).toBeUndefined();
  });
});

describe("argSchemaProperty sharing", () => {
  it("one frozen object per name and type, kept for the last 8192 of them", async () => {
    vi.resetModules();
    const fresh = await import("../../../core/args/arg-type.js");
    const first = fresh.argSchemaProperty("n0", { kind: "int" });
    expect(Object.isFrozen(first)).toBe(true);
    expect(fresh.argSchemaProperty("n0", { kind: "int" })).toBe(first);
    expect(fresh.argSchemaProperty("n0", { kind: "number" })).not.toBe(first);
    for (let i = 2; i < 8192; i++) fresh.argSchemaProperty(`n${i}`, undefined);
    // 8192 kept: the first is still shared
    expect(fresh.argSchemaProperty("n0", { kind: "int" })).toBe(first);
    // one more starts over
    fresh.argSchemaProperty("one-more", undefined);
    const again = fresh.argSchemaProperty("n0", { kind: "int" });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe("sampleArgValue", () => {
  it("uses placeholders for text and fixed values otherwise", () => {
    expect(sampleArgValue("f", undefined)).toBe("<f>");
    expect(sampleArgValue("f", { kind: "path" })).toBe("./f");
    expect(sampleArgValue("f", { kind: "int" })).toBe(1);
    expect(sampleArgValue("f", { kind: "number" })).toBe(1.5);
    expect(sampleArgValue("f", { kind: "bool" })).toBe(true);
    expect(sampleArgValue("f", { kind: "array" })).toEqual(["<f>"]);
    expect(sampleArgValue("f", checkFix)).toBe("check");
  });
});

describe("normalizeArgValue", () => {
  // the mismatch as the text the agent reads
  const norm = (t: ArgType, v: unknown) => E.mapLeft(argMismatchText)(normalizeArgValue("x", t, v));
  it("null and undefined become empty text for every type but path", () => {
    expect(norm({ kind: "int" }, null)).toEqual(E.right(""));
    expect(norm(checkFix, undefined)).toEqual(E.right(""));
    expect(norm({ kind: "string" }, null)).toEqual(E.right(""));
  });

  it("string and path take any value as its text", () => {
    for (const kind of ["string", "path"] as const) {
      expect(norm({ kind }, "./a b")).toEqual(E.right("./a b"));
      expect(norm({ kind }, 5)).toEqual(E.right("5"));
      expect(norm({ kind }, false)).toEqual(E.right("false"));
    }
  });

  it("path refuses an empty value: an empty word would leave the command line and shift the rest", () => {
    for (const v of ["", null, undefined]) expect(norm({ kind: "path" }, v)).toEqual(E.left("Argument x must be a non-empty path."));
    expect(norm({ kind: "path" }, " ")).toEqual(E.right(" "));
    expect(isValidDefault({ kind: "path" }, "")).toBe(false);
  });

  it("int", () => {
    expect(norm({ kind: "int" }, 42)).toEqual(E.right("42"));
    expect(norm({ kind: "int" }, -0)).toEqual(E.right("0"));
    expect(norm({ kind: "int" }, -5)).toEqual(E.right("-5"));
    expect(norm({ kind: "int" }, 2 ** 60)).toEqual(E.right("1152921504606846976"));
    expect(norm({ kind: "int" }, " -7 ")).toEqual(E.right("-7"));
    expect(norm({ kind: "int" }, "12")).toEqual(E.right("12"));
    expect(norm({ kind: "int" }, 1e21)).toEqual(E.right("1000000000000000000000"));
    for (const bad of [1.5, "1.0", "x", "", true, [1]]) expect(norm({ kind: "int" }, bad)).toEqual(E.left("Argument x must be an integer."));
  });

  it("number", () => {
    expect(norm({ kind: "number" }, 1.5)).toEqual(E.right("1.5"));
    expect(norm({ kind: "number" }, " .5 ")).toEqual(E.right(".5"));
    expect(norm({ kind: "number" }, "-3")).toEqual(E.right("-3"));
    // numbers JavaScript would write with an exponent are written out in plain decimals
    expect(norm({ kind: "number" }, 1e21)).toEqual(E.right("1000000000000000000000"));
    expect(norm({ kind: "number" }, -1.25e22)).toEqual(E.right("-12500000000000000000000"));
    expect(norm({ kind: "number" }, 1.5e-7)).toEqual(E.right("0.00000015"));
    expect(norm({ kind: "number" }, -1e-7)).toEqual(E.right("-0.0000001"));
    expect(norm({ kind: "number" }, 0.000001)).toEqual(E.right("0.000001"));
    expect(norm({ kind: "number" }, "2.5E3")).toEqual(E.right("2500"));
    expect(norm({ kind: "number" }, " 15e-8 ")).toEqual(E.right("0.00000015"));
    for (const ok of ["12", "12.25", ".25", "-12.5", "-.5", "1e3"]) expect(norm({ kind: "number" }, ok)).toEqual(E.right(ok === "1e3" ? "1000" : ok));
    expect(norm({ kind: "number" }, "1E+21")).toEqual(E.right("1000000000000000000000"));
    expect(norm({ kind: "number" }, "2.5e-10")).toEqual(E.right("0.00000000025"));
    for (const bad of [Infinity, NaN, "1.", "abc", "", false, "x1.5", "1.5x", "1e", "e3", "1x3", "1.x", "--1", ".", "1e+", "1e3.5"])
      expect(norm({ kind: "number" }, bad)).toEqual(E.left("Argument x must be a number."));
  });

  it("bool accepts words and booleans, rejects numbers", () => {
    expect(norm({ kind: "bool" }, false)).toEqual(E.right("false"));
    expect(norm({ kind: "bool" }, true)).toEqual(E.right("true"));
    for (const yes of ["true", "1", "yes", " YES ", "True"]) expect(norm({ kind: "bool" }, yes)).toEqual(E.right("true"));
    for (const no of ["false", "0", "no", "No ", "FALSE"]) expect(norm({ kind: "bool" }, no)).toEqual(E.right("false"));
    for (const bad of [1, 0, "on", "off"]) expect(norm({ kind: "bool" }, bad)).toEqual(E.left("Argument x must be a boolean."));
  });

  it("enum is exact and case-sensitive", () => {
    expect(norm(checkFix, "fix")).toEqual(E.right("fix"));
    expect(norm(checkFix, "Fix")).toEqual(E.left("Argument x must be one of: check, fix."));
  });

  it("array accepts arrays and JSON text of arrays", () => {
    expect(norm({ kind: "array" }, ["a"])).toEqual(E.right(["a"]));
    expect(norm({ kind: "array" }, '["a","b"]')).toEqual(E.right(["a", "b"]));
    for (const bad of ["a,b", '{"a":1}', 3]) expect(norm({ kind: "array" }, bad)).toEqual(E.left("Argument x must be an array."));
  });

  it("string and path take anything as text", () => {
    expect(norm({ kind: "string" }, 4.5)).toEqual(E.right("4.5"));
    expect(norm({ kind: "path" }, true)).toEqual(E.right("true"));
  });
});

describe("declaration texts and default validity", () => {
  it("formats types and canonical declarations", () => {
    expect(formatArgType(checkFix)).toBe("enum(check,fix)");
    expect(canonicalDeclaration("m", checkFix)).toBe("m:enum(check,fix)");
    expect(canonicalDeclaration("m", { kind: "string" })).toBe("m");
    expect(canonicalDeclaration("m", { kind: "string" }, true)).toBe("m:string");
    expect(canonicalDeclaration("m", { kind: "int" })).toBe("m:int");
  });

  it("validates defaults per type", () => {
    expect(isValidDefault({ kind: "int" }, "60000")).toBe(true);
    expect(isValidDefault({ kind: "int" }, "1.5")).toBe(false);
    expect(isValidDefault({ kind: "number" }, "1.5")).toBe(true);
    expect(isValidDefault({ kind: "bool" }, "No")).toBe(true);
    expect(isValidDefault({ kind: "bool" }, "maybe")).toBe(false);
    expect(isValidDefault(checkFix, "delete")).toBe(false);
    expect(isValidDefault({ kind: "array" }, '["a","b"]')).toBe(true);
    expect(isValidDefault({ kind: "array" }, "a,b")).toBe(false);
    expect(isValidDefault({ kind: "path" }, "x")).toBe(true);
  });
});
