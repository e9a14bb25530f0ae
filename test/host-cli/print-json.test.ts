// `--json` output is written piece by piece (host-cli/print.ts): a script reading it must get the
// very bytes one JSON.stringify of the result would give, whatever the details hold, and a
// result with long lists (inspect of many recipes) must never reach stdout as one giant write.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { JSON_BATCH, JSON_PIECE, writeJson } from "../../host-cli/print.js";

function written(ok: boolean, text: string, details: Readonly<Record<string, unknown>>): string[] {
  const writes: string[] = [];
  writeJson(ok, text, details, { write: (chunk: string) => writes.push(chunk) });
  return writes;
}

describe("writeJson", () => {
  test.prop([fc.boolean(), fc.string(), fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined))), fc.constant(undefined)))])(
    "writes the bytes of one JSON.stringify of the result",
    (ok, text, details) => {
      expect(written(ok, text, details).join("")).toBe(`${JSON.stringify({ ok, text, details })}\n`);
    },
  );

  it("writes lists the way JSON.stringify does: holes, undefined and functions as null, toJSON honoured", () => {
    const sparse: unknown[] = [1];
    sparse[3] = 2;
    const details = { sparse, odd: [undefined, () => 1, new Date(0), { toJSON: () => "x" }], gone: undefined, dated: { when: new Date(0) } };
    expect(written(true, "t", details).join("")).toBe(`${JSON.stringify({ ok: true, text: "t", details })}\n`);
  });

  it("sends the lists of a large result in bounded pieces", () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: `tool_${i}`, path: `/agent/recipes/tool_${i}.json`, reason: "active user tool has no recorded launches" }));
    const details = { active: items, recommendations: items };
    const writes = written(true, "summary", details);
    expect(writes.join("")).toBe(`${JSON.stringify({ ok: true, text: "summary", details })}\n`);
    // never one giant write: as many writes as pieces of the bound below fill
    expect(writes.length).toBeGreaterThanOrEqual(Math.floor((2 * JSON.stringify(items).length) / (JSON_PIECE + JSON_BATCH * 200)));
    // one piece is at most the threshold plus one batch of list elements
    for (const w of writes) expect(w.length).toBeLessThan(JSON_PIECE + JSON_BATCH * 200);
  });
});
