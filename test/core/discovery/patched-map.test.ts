// The active-entry map after an edit: an earlier map with some values replaced, read like a Map.
import { describe, expect, it } from "vitest";
import { PatchedMap } from "../../../core/discovery/patched-map.js";

const base = new Map([["a", 1], ["b", 2], ["c", 3]]);

describe("PatchedMap", () => {
  it("reads as the earlier map with the given values replaced, in the earlier order", () => {
    const m = PatchedMap.replace(base, [["b", 20]]);
    expect(m.get("b")).toBe(20);
    expect(m.get("a")).toBe(1);
    expect(m.get("z")).toBeUndefined();
    expect(m.size).toBe(3);
    expect(m.has("c")).toBe(true);
    expect(m.has("z")).toBe(false);
    expect([...m]).toEqual([["a", 1], ["b", 20], ["c", 3]]);
    expect([...m.entries()]).toEqual([["a", 1], ["b", 20], ["c", 3]]);
    expect([...m.keys()]).toEqual(["a", "b", "c"]);
    expect([...m.values()]).toEqual([1, 20, 3]);
    const seen: unknown[] = [];
    const self = {};
    m.forEach(function (this: unknown, v, k, map) {
      seen.push([k, v, map === m, this === self]);
    }, self);
    expect(seen).toEqual([["a", 1, true, true], ["b", 20, true, true], ["c", 3, true, true]]);
    expect(Object.prototype.toString.call(m)).toBe("[object Map]");
    // the earlier map is untouched
    expect(base.get("b")).toBe(2);
  });

  it("a value replaced by undefined reads as undefined, not as the earlier value", () => {
    const m = PatchedMap.replace<string, number | undefined>(base, [["a", undefined]]);
    expect(m.get("a")).toBeUndefined();
    expect([...m.values()]).toEqual([undefined, 2, 3]);
  });

  it("keys the earlier map does not have are not added; no change gives back the earlier map", () => {
    const m = PatchedMap.replace(base, [["z", 9]]);
    expect(m).toBe(base);
    expect(PatchedMap.replace(base, [])).toBe(base);
  });

  it("patches of a patched map add up over the same earlier map", () => {
    const once = PatchedMap.replace(base, [["a", 10]]);
    const twice = PatchedMap.replace(once, [["c", 30]]);
    expect([...twice]).toEqual([["a", 10], ["b", 2], ["c", 30]]);
    expect([...once]).toEqual([["a", 10], ["b", 2], ["c", 3]]);
  });

  it("past 256 patched keys the map is a plain Map again, with the same contents", () => {
    const big = new Map(Array.from({ length: 300 }, (_, i) => [`k${i}`, i] as const));
    const few = PatchedMap.replace(big, Array.from({ length: 255 }, (_, i) => [`k${i}`, -i] as const));
    expect(few).toBeInstanceOf(PatchedMap);
    const many = PatchedMap.replace(big, Array.from({ length: 256 }, (_, i) => [`k${i}`, -i] as const));
    expect(many).not.toBeInstanceOf(PatchedMap);
    expect(many).toBeInstanceOf(Map);
    expect(many.get("k5")).toBe(-5);
    expect(many.get("k299")).toBe(299);
    expect(many.size).toBe(300);
    // a patched map's own patches count toward the bound
    const more = PatchedMap.replace(few, [["k260", 0]]);
    expect(more).not.toBeInstanceOf(PatchedMap);
    expect(more.get("k0")).toBe(-0);
    expect(more.get("k260")).toBe(0);
  });
});
