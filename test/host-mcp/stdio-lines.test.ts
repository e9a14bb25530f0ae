// The stdio line bound: every line within the limit reaches the transport whole and in order,
// however stdin chunks it; a longer one never does, and is reported with its size and its start.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { batchRequestIds, boundedLines, leadingRequestId, lineFault } from "../../host-mcp/stdio-lines.js";

async function through(max: number, chunks: readonly Buffer[], batches?: string[]): Promise<{ out: string; refused: [string, number][] }> {
  const refused: [string, number][] = [];
  const t = boundedLines(max, (head, size) => refused.push([head, size]), batches === undefined ? undefined : (line) => batches.push(line));
  const parts: Buffer[] = [];
  t.on("data", (d: Buffer) => parts.push(d));
  const ended = new Promise<void>((r) => t.on("end", () => r()));
  for (const c of chunks) t.write(c);
  t.end();
  await ended;
  return { out: Buffer.concat(parts).toString("utf8"), refused };
}

/** `text` cut at the given offsets (each taken modulo its length) */
function cut(text: string, at: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const points = [...new Set(at.map((a) => (bytes.length === 0 ? 0 : a % bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out.filter((b) => b.length > 0);
}

describe("boundedLines", () => {
  test.prop([
    fc.array(fc.string({ unit: fc.constantFrom("a", "é", "{", "\"", " ", "€"), maxLength: 40 }), { maxLength: 12 }),
    fc.integer({ min: 0, max: 30 }),
    fc.array(fc.nat(), { maxLength: 20 }),
  ])("passes every line within the limit whole and in order, and reports each longer one once, whatever the chunks", async (lines, max, at) => {
    const text = lines.map((l) => `${l}\n`).join("");
    const { out, refused } = await through(max, cut(text, at));
    const within = lines.filter((l) => Buffer.byteLength(l) <= max);
    expect(out).toBe(within.map((l) => `${l}\n`).join(""));
    const over = lines.filter((l) => Buffer.byteLength(l) > max);
    expect(refused.map(([, size]) => size)).toEqual(over.map((l) => Buffer.byteLength(l)));
    refused.forEach(([head], i) => expect(over[i]!.startsWith(head.replace(/\uFFFD$/, ""))).toBe(true));
  });

  it("hands a line that is a JSON array to the batch handler, whatever the chunks, and every other line on", async () => {
    const text = '{"id":1}\n  [{"id":2},{"id":"x"}]\n{"a":[1]}\n[]\n';
    for (const at of [[], [3, 11, 12, 30], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]]) {
      const batches: string[] = [];
      expect((await through(100, cut(text, at), batches)).out).toBe('{"id":1}\n{"a":[1]}\n');
      expect(batches).toEqual(['  [{"id":2},{"id":"x"}]\n', "[]\n"]);
    }
    // without a handler, the transport gets it (and reports it cannot read it)
    expect((await through(100, [Buffer.from("[1]\n")])).out).toBe("[1]\n");
  });

  it("passes a last line without its newline on", async () => {
    expect((await through(10, [Buffer.from("ab\ncd")])).out).toBe("ab\ncd");
  });
});

describe("batchRequestIds", () => {
  it("the ids of a batch's requests (notifications and bad ids left out); undefined for what is no JSON array", () => {
    expect(batchRequestIds('[{"id":2},{"method":"n"},{"id":"x"},{"id":1.5},{"id":null},5]')).toEqual([2, "x"]);
    expect(batchRequestIds("[]")).toEqual([]);
    // members shaped like responses are never answered
    expect(batchRequestIds('[{"jsonrpc":"2.0","id":10,"error":{"code":1,"message":"m"}},{"jsonrpc":"2.0","id":11,"result":{}},{"jsonrpc":"2.0","id":12,"method":"ping"}]')).toEqual([12]);
    expect(batchRequestIds("[{")).toBeUndefined();
    expect(batchRequestIds('{"id":1}')).toBeUndefined();
  });
});

describe("leadingRequestId", () => {
  it("reads the id only where a client puts it: first, or after jsonrpc", () => {
    expect(leadingRequestId('{"jsonrpc":"2.0","id":7,"method":"tools/call"')).toBe(7);
    expect(leadingRequestId(' { "id" : "a\\"b" , "jsonrpc":"2.0"')).toBe('a"b');
    expect(leadingRequestId('{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":3}}')).toBeUndefined();
    expect(leadingRequestId('{"jsonrpc":"2.0","id":1.5,')).toBeUndefined();
    expect(leadingRequestId('{"jsonrpc":"2.0","id":7')).toBeUndefined();
    expect(leadingRequestId("xxxx")).toBeUndefined();
  });
});

describe("lineFault", () => {
  it("nothing for a JSON-RPC message or a blank line; a parse fault for what is no JSON; an invalid one with the id it can read", () => {
    for (const ok of ['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":"a","result":{}}', '{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}', "", "  "]) {
      expect(lineFault(ok)).toBeUndefined();
    }
    expect(lineFault('{"jsonrpc":"2.0","id":5,')).toMatchObject({ kind: "parse" });
    expect(lineFault('{"jsonrpc":"1.0","id":16,"method":"x"}')).toEqual({ kind: "invalid", id: 16, reason: '"jsonrpc" must be "2.0", got "1.0"' });
    expect(lineFault('{"id":"q","method":"x"}')).toEqual({ kind: "invalid", id: "q", reason: '"jsonrpc" must be "2.0", got none' });
    expect(lineFault('{"jsonrpc":"2.0","id":null,"method":"x"}')).toEqual({ kind: "invalid", id: null, reason: '"id" must be a string or an integer, got null' });
    expect(lineFault('{"jsonrpc":"2.0","id":3,"method":7}')).toEqual({ kind: "invalid", id: 3, reason: '"method" must be a string, got a number' });
    expect(lineFault('{"jsonrpc":"2.0","id":3}')).toMatchObject({ kind: "invalid", id: 3, reason: expect.stringContaining('needs a "method"') });
    expect(lineFault("[1]")).toEqual({ kind: "invalid", id: null, reason: "a message must be a JSON object, got an array" });
    expect(lineFault('{"jsonrpc":"2.0","method":"x","id_":1}')).toEqual({ kind: "notification", reason: 'a notification has no member "id_"' });
  });

  it("a message shaped like a response (a result or an error, no method) is a response fault, never answered, whatever its id", () => {
    expect(lineFault('{"jsonrpc":"2.0","id":20,"result":"not-an-object"}')).toEqual({ kind: "response", reason: '"result" must be an object, got a string' });
    expect(lineFault('{"jsonrpc":"2.0","id":20,"error":"bad"}')).toEqual({ kind: "response", reason: '"error" must be an object, got a string' });
    expect(lineFault('{"jsonrpc":"1.0","id":20,"result":{}}')).toEqual({ kind: "response", reason: '"jsonrpc" must be "2.0", got "1.0"' });
    expect(lineFault('{"jsonrpc":"2.0","result":{}}')).toEqual({ kind: "response", reason: 'a response needs an "id"' });
    // with a method it is a request, answered under its id
    expect(lineFault('{"jsonrpc":"2.0","id":21,"method":"ping","result":{}}')).toEqual({ kind: "invalid", id: 21, reason: 'a request has no member "result"' });
  });

  it("an id JSON cannot hold exactly is named as such, and answered with a null id", () => {
    expect(lineFault('{"jsonrpc":"2.0","id":1e400,"method":"ping"}')).toEqual({
      kind: "invalid", id: null, reason: '"id" must be a string or an integer, got a number too large for JSON to hold (not finite)',
    });
    expect(lineFault('{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}')).toEqual({
      kind: "invalid", id: null,
      reason: '"id" must be a string or an integer JSON can hold exactly (at most 9007199254740991 in size), got one that large, read as 1.2345678901234568e+29',
    });
    // the largest integer held exactly is an id like any other
    expect(lineFault('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}')).toBeUndefined();
    expect(lineFault('{"jsonrpc":"2.0","id":9007199254740991,"method":7}')).toMatchObject({ kind: "invalid", id: 9007199254740991 });
    expect(lineFault('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toEqual({ kind: "invalid", id: 1.5, reason: '"id" must be a string or an integer, got 1.5' });
  });
});
