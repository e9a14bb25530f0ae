import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { sha256Hex } from "../../../core/ledger/sha256.js";
import { canonicalJson } from "../../../core/ledger/canonical-json.js";

const node = (b: Uint8Array | string): string => createHash("sha256").update(b).digest("hex");

describe("sha256Hex", () => {
  it("matches the FIPS test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("agrees with node:crypto at every length around the padding boundaries", () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      expect(sha256Hex(bytes), `${n} bytes`).toBe(node(bytes));
    }
  });

  test.prop([fc.uint8Array({ maxLength: 300 })])("agrees with node:crypto on any bytes", (bytes) => {
    expect(sha256Hex(bytes)).toBe(node(bytes));
  });

  test.prop([fc.string({ unit: "grapheme", maxLength: 100 })])("hashes strings as UTF-8", (s) => {
    expect(sha256Hex(s)).toBe(node(s));
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: [2, 1, { z: 1, a: null }], a: "x" })).toBe('{"a":"x","b":[2,1,{"a":null,"z":1}]}');
  });

  it("writes primitives as JSON does, and empty containers without whitespace", () => {
    expect(canonicalJson({ "q\"k": 'say "hi"\n', t: true, f: false, n: -1.5, e: {}, l: [] })).toBe('{"e":{},"f":false,"l":[],"n":-1.5,"q\\"k":"say \\"hi\\"\\n","t":true}');
    expect(canonicalJson([[], [[1]], "x"])).toBe('[[],[[1]],"x"]');
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson("é")).toBe('"é"');
  });
});
