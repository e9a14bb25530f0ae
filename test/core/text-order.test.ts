import { describe, expect, it } from "vitest";
import { compareText } from "../../core/text-order.js";

describe("compareText", () => {
  it("answers -1, 0 or 1", () => {
    expect([compareText("a", "b"), compareText("b", "b"), compareText("b", "a")]).toEqual([-1, 0, 1]);
    expect([compareText("", "a"), compareText("a", "")]).toEqual([-1, 1]);
  });

  it("orders by UTF-16 code units, whatever the locale: capitals first, accents after z, astral before U+FFFF", () => {
    expect(["é", "a", "Z", "z", "\uffff", "😀", "B"].sort(compareText)).toEqual(["B", "Z", "a", "z", "é", "😀", "\uffff"]);
  });
});
