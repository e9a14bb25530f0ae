import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance, MAX_SUGGESTED_LENGTH } from "../../core/suggest.js";

describe("did-you-mean", () => {
  it("counts edits, a swap of neighbours as one", () => {
    expect(editDistance("fiel", "file")).toBe(1);
    expect(editDistance("descripton", "description")).toBe(1);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("", "ab")).toBe(2);
  });

  it("suggests the nearest known word only when it is a plausible typo", () => {
    expect(closest("fiel", ["file", "mode"])).toBe("file");
    expect(closest("tagret", ["target", "view", "verbose", "lines"])).toBe("target");
    expect(closest("inspct", ["inspect", "schema", "list"])).toBe("inspect");
    expect(closest("bogus", ["target", "view"])).toBeUndefined();
    expect(didYouMean("zzz", ["file"])).toBe("");
    expect(didYouMean("fiel", ["file"])).toBe(' Did you mean "file"?');
  });

  it("suggests nothing for a word longer than any name is written (its distances would cost its length times theirs)", () => {
    const long = "q".repeat(MAX_SUGGESTED_LENGTH);
    expect(closest(`${long}x`, [long])).toBeUndefined();
    expect(closest(long.slice(1), [long])).toBe(long);
    // a million letters against the recipe fields: answered at once, with nothing
    expect(closest("q".repeat(1_000_000), ["description", "template", "args"])).toBeUndefined();
  });
});
