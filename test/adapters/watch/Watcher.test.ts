import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeBatcher, type WatchEvent } from "../../../adapters/watch/Watcher.js";

describe("makeBatcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (debounceMs = 25, maxWaitMs?: number) => {
    const batches: (readonly WatchEvent[])[] = [];
    const batcher = makeBatcher((e) => batches.push(e), debounceMs, maxWaitMs);
    return { batches, batcher };
  };

  it("delivers one batch after the burst goes quiet", () => {
    const { batches, batcher } = setup();
    batcher.push({ kind: "add", path: "/r/a.json" });
    vi.advanceTimersByTime(20);
    batcher.push({ kind: "add", path: "/r/b.json" });
    vi.advanceTimersByTime(20);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(5);
    expect(batches).toEqual([[{ kind: "add", path: "/r/a.json" }, { kind: "add", path: "/r/b.json" }]]);
  });

  it("does not let a steady trickle starve the consumer", () => {
    const { batches, batcher } = setup(25, 100);
    for (let t = 0; t < 10; t++) {
      batcher.push({ kind: "change", path: `/r/${t}.json` });
      vi.advanceTimersByTime(20);
    }
    // pushes at 0..180 ms, each within the quiet time of the last: the longest wait (100 ms)
    // flushes at 100 ms and again at 200 ms, five changes each, in order
    expect(batches.map((b) => b.map((e) => e.path))).toEqual([
      ["/r/0.json", "/r/1.json", "/r/2.json", "/r/3.json", "/r/4.json"],
      ["/r/5.json", "/r/6.json", "/r/7.json", "/r/8.json", "/r/9.json"],
    ]);
  });

  it.each([
    ["add", "change", "add"],
    ["unlink", "add", "change"],
    ["add", "unlink", "unlink"],
    ["change", "unlink", "unlink"],
    ["root-removed", "root-added", "root-added"],
  ] as const)("merges %s then %s of one path into %s", (first, second, merged) => {
    const { batches, batcher } = setup();
    batcher.push({ kind: first, path: "/r/x.json" });
    batcher.push({ kind: second, path: "/r/x.json" });
    vi.advanceTimersByTime(25);
    expect(batches).toEqual([[{ kind: merged, path: "/r/x.json" }]]);
  });

  it("orders paths by their last event", () => {
    const { batches, batcher } = setup();
    batcher.push({ kind: "add", path: "/r/a.json" });
    batcher.push({ kind: "add", path: "/r/b.json" });
    batcher.push({ kind: "change", path: "/r/a.json" });
    vi.advanceTimersByTime(25);
    expect(batches[0]?.map((e) => e.path)).toEqual(["/r/b.json", "/r/a.json"]);
  });

  it("drops the pending batch on cancel", () => {
    const { batches, batcher } = setup();
    batcher.push({ kind: "add", path: "/r/a.json" });
    batcher.cancel();
    vi.advanceTimersByTime(1000);
    expect(batches).toEqual([]);
  });
});
