// The checks of a call's own parameters before typed normalization: names the tool does not take,
// and objects given where the tool expects text.
import { describe, expect, it } from "vitest";
import { RUN_PARAMS, checkCallParams, readableNames, typedArrayValueProblem } from "../../../core/args/call-check.js";
import type { ArgType } from "../../../core/model.js";

const surface = (names: string[], types: Record<string, ArgType> = {}) => ({ names, types });

describe("checkCallParams", () => {
  const s = surface(["file", "mode", "n", "flag", "items", "where", "choice"], {
    mode: { kind: "string" },
    n: { kind: "int" },
    flag: { kind: "bool" },
    items: { kind: "array" },
    where: { kind: "path" },
    choice: { kind: "enum", values: ["a", "b"] },
  });
  const known = new Set(s.names);
  const sync = { async: false };

  it("a name the tool does not take is refused, with the nearest one it takes", () => {
    expect(checkCallParams({ fiel: "x" }, s, known, sync)).toBe('Unknown argument "fiel". Did you mean "file"?');
    expect(checkCallParams({ zzzzzz: "x" }, s, known, sync)).toBe('Unknown argument "zzzzzz".');
  });

  it("the run parameters are taken by an async tool only, which also offers run_id", () => {
    for (const p of RUN_PARAMS) {
      expect(checkCallParams({ [p]: "r1" }, s, known, { async: true })).toBeUndefined();
      expect(checkCallParams({ [p]: "r1" }, s, known, sync)).toMatch(new RegExp(`^Unknown argument "${p}"\\.`));
    }
    expect(RUN_PARAMS).toEqual(["run_id", "correlation_id", "transport_context"]);
    expect(checkCallParams({ run_ix: "r1" }, s, known, { async: true })).toBe('Unknown argument "run_ix". Did you mean "run_id"?');
    expect(checkCallParams({ run_ix: "r1" }, s, known, sync)).toBe('Unknown argument "run_ix".');
  });

  it("an object is refused where the tool expects text: untyped, string, path and enum arguments", () => {
    for (const name of ["file", "mode", "where", "choice"]) {
      expect(checkCallParams({ [name]: { a: 1 } }, s, known, sync)).toBe(`Argument ${name} must be a string.`);
    }
    // the typed ones are left to normalization, which names their own type; null and plain
    // values pass here (arrays: see below)
    for (const name of ["n", "flag", "items"]) expect(checkCallParams({ [name]: { a: 1 } }, s, known, sync)).toBeUndefined();
    expect(checkCallParams({ items: ["a"], mode: null, where: "p", choice: "a", n: 3 }, s, known, sync)).toBeUndefined();
  });

  it("an array is refused for an argument typed to take one value, a path or an enum; a string takes it as its JSON", () => {
    expect(checkCallParams({ where: ["/etc/hostname", "-n"] }, s, known, sync)).toBe(
      "Argument where must be a path, not an array: a path argument names one file (declare where:array to take a list).",
    );
    expect(checkCallParams({ choice: ["a"] }, s, known, sync)).toBe("Argument choice must be one of: a, b, not an array.");
    // an untyped or string argument reaches the command as the array's JSON (`jq --argjson v {file}`)
    for (const name of ["file", "mode"]) expect(checkCallParams({ [name]: ["a", "b"] }, s, known, sync)).toBeUndefined();
    // an array argument takes it; int and bool name their own type in normalization
    for (const name of ["items", "n", "flag"]) expect(checkCallParams({ [name]: ["a"] }, s, known, sync)).toBeUndefined();
  });

  it("the first problem in the call's order is the one named", () => {
    expect(checkCallParams({ file: "ok", mode: {}, fiel: 1 }, s, known, sync)).toBe("Argument mode must be a string.");
    expect(checkCallParams({ fiel: 1, mode: {} }, s, known, sync)).toBe('Unknown argument "fiel". Did you mean "file"?');
  });
});

describe("readableNames", () => {
  it("the surface names, the extra ones, and every name read inside braces", () => {
    const names = readableNames(["echo {items[0]} {n.length} {a-b} plain c", "{x}{y}"], surface(["file"]), ["run_id"]);
    expect([...names].sort()).toEqual(["a-b", "file", "items", "length", "n", "run_id", "x", "y"]);
    expect([...readableNames([], surface(["f"]))]).toEqual(["f"]);
  });
});

describe("typedArrayValueProblem (an inline template's values)", () => {
  const s = surface(["f", "m", "xs", "o"], { f: { kind: "path" }, m: { kind: "enum", values: ["a", "b"] }, xs: { kind: "array" } });
  it("refuses an array for a path or an enum, with the same text a call gets; an untyped or array placeholder takes it", () => {
    expect(typedArrayValueProblem({ f: ["/etc/hostname", "-n"] }, s)).toBe("Argument f must be a path, not an array: a path argument names one file (declare f:array to take a list).");
    expect(typedArrayValueProblem({ o: ["x"], m: ["a"] }, s)).toBe("Argument m must be one of: a, b, not an array.");
    expect(typedArrayValueProblem({ f: ["a"] }, s)).toBe(checkCallParams({ f: ["a"] }, s, new Set(s.names), { async: false }));
    expect(typedArrayValueProblem({ f: "/etc/hostname", m: "a", xs: ["a", "b"], o: ["x", "y"] }, s)).toBeUndefined();
  });
});
