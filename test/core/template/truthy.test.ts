import { describe, expect, it } from "vitest";
import { isTruthy, textOf } from "../../../core/template/truthy.js";

describe("isTruthy", () => {
  it("falsy values", () => {
    for (const v of [undefined, null, false, "", "  ", "0", " 0 ", "false", "FALSE", "no", " No ", 0, [], [""], ["0"]]) {
      expect(isTruthy(v), JSON.stringify(v)).toBe(false);
    }
  });

  it("truthy values", () => {
    for (const v of [true, "1", "off", "yes", "x", 1, -1, 4.5, ["a"], ["a", "b"], {}]) {
      expect(isTruthy(v), JSON.stringify(v)).toBe(true);
    }
  });

  it("textOf is String() without throwing", () => {
    expect(textOf(["a", null, ["b", "c"]])).toBe("a,,b,c");
    expect(textOf(Object.create(null))).toBe("[object Object]");
    expect(textOf(4.5)).toBe("4.5");
    expect(textOf(null)).toBe("null");
  });
});
