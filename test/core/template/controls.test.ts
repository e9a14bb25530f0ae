import { describe, expect, it } from "vitest";
import { invalidTemplate, missingValue } from "../../../core/template/failure.js";
import * as E from "fp-ts/lib/Either.js";
import {
  resolveConcurrency, resolveDelay, resolveFailure, resolveMinSuccessful, resolveNumericControl, resolveRetry, resolveTimeout, resolveWhen,
} from "../../../core/template/controls.js";
import { scopeOf } from "../../../core/template/substitute.js";

const none = scopeOf({});

describe("numeric control fields", () => {
  it("numbers as is, strings substituted, empty result unset", () => {
    expect(resolveTimeout(1500, none)).toEqual(E.right(1500));
    expect(resolveTimeout("{t}", scopeOf({ t: "250" }))).toEqual(E.right(250));
    expect(resolveTimeout("{t=}", none)).toEqual(E.right(undefined));
    expect(resolveTimeout(undefined, none)).toEqual(E.right(undefined));
    expect(resolveDelay("{d}", scopeOf({}, { d: "0" }))).toEqual(E.right(0));
  });

  it("a missing placeholder names the field", () => {
    expect(resolveTimeout("{t}", none)).toEqual(E.left(missingValue("timeout", "t")));
    expect(resolveNumericControl("min_successful", "{m}", none)).toEqual(E.left(missingValue("min_successful", "m")));
  });

  it("exact messages", () => {
    expect(resolveRetry(0, none)).toEqual(E.left(invalidTemplate("Command template retry must be a positive integer.")));
    expect(resolveTimeout("-1", none)).toEqual(E.left(invalidTemplate("Command template timeout must be a non-negative number.")));
    expect(resolveTimeout("abc", none)).toEqual(E.left(invalidTemplate("Command template timeout must be a non-negative number.")));
    expect(resolveFailure("explode")).toEqual(E.left(invalidTemplate("Command template failure must be one of: continue, branch, root.")));
    expect(resolveConcurrency(0, none, 4)).toEqual(E.left(invalidTemplate("Command template concurrency must be a positive integer.")));
    expect(resolveMinSuccessful(3, none, 2)).toEqual(E.left(invalidTemplate("Command template min_successful 3 exceeds branch count 2.")));
    expect(resolveRetry(-1, none)).toEqual(E.left(invalidTemplate("Command template retry must be a non-negative number.")));
    expect(resolveRetry("abc", none)).toEqual(E.left(invalidTemplate("Command template retry must be a non-negative number.")));
    expect(resolveRetry(1.5, none)).toEqual(E.left(invalidTemplate("Command template retry must be a positive integer.")));
    expect(resolveDelay(-5, none)).toEqual(E.left(invalidTemplate("Command template delay must be a non-negative number.")));
    expect(resolveMinSuccessful(-1, none, 2)).toEqual(E.left(invalidTemplate("Command template min_successful must be a non-negative number.")));
    expect(resolveMinSuccessful(1.5, none, 2)).toEqual(E.left(invalidTemplate("Command template min_successful must be a non-negative integer.")));
  });

  it("retry, concurrency and min_successful accept their valid ranges", () => {
    expect(resolveRetry("{n}", scopeOf({ n: "3" }))).toEqual(E.right(3));
    expect(resolveConcurrency(undefined, none, 5)).toEqual(E.right(5));
    expect(resolveConcurrency(10, none, 5)).toEqual(E.right(5));
    expect(resolveConcurrency("2", none, 5)).toEqual(E.right(2));
    expect(resolveMinSuccessful(0, none, 2)).toEqual(E.right(0));
    expect(resolveMinSuccessful(2, none, 2)).toEqual(E.right(2));
    expect(resolveFailure(undefined)).toEqual(E.right("continue"));
    expect(resolveFailure("root")).toEqual(E.right("root"));
  });
});

describe("when", () => {
  const w = (when: unknown, runtime: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}) =>
    resolveWhen(when, scopeOf(runtime, defaults));

  it("absent runs, booleans as is, blank skips", () => {
    expect(w(undefined)).toEqual(E.right(true));
    expect(w(false)).toEqual(E.right(false));
    expect(w(true)).toEqual(E.right(true));
    expect(w("  ")).toEqual(E.right(false));
  });

  it("bare name and negation read truthiness", () => {
    expect(w("x", { x: "yes" })).toEqual(E.right(true));
    expect(w("x", { x: "no" })).toEqual(E.right(false));
    expect(w("x")).toEqual(E.right(false));
    expect(w("!x")).toEqual(E.right(true));
    expect(w(" ! x ", { x: true })).toEqual(E.right(false));
    expect(w("x", {}, { x: "1" })).toEqual(E.right(true));
    expect(w("a b", { "a b": "1" })).toEqual(E.right(false));
  });

  it("exactly {...}: placeholder rules, missing skips, index errors are errors", () => {
    expect(w("{x}", { x: "1" })).toEqual(E.right(true));
    expect(w("{x}")).toEqual(E.right(false));
    expect(w("{x=1}")).toEqual(E.right(true));
    expect(w("{x??0}")).toEqual(E.right(false));
    expect(w("{mode?yes:}", { mode: "on" })).toEqual(E.right(true));
    expect(w("{items[3]}", { items: ["a"] })).toEqual(E.left(missingValue("command template when", "items[3]")));
    expect(w("{flag}", {}, { flag: "{other}", other: "false" })).toEqual(E.right(false));
  });
});
