// The cheap count that decides whether a JSON recipe's text is looked through for a duplicate key
// (core/recipe/duplicate-keys.ts) never misses one, and the look itself finds exactly the later
// occurrences. Texts are written token by token, so that they can name a key twice, with keys and
// strings holding quotes, colons and backslashes (`"a\": b"`), keys spelled with escapes
// (`"\u0061"` is the key `a`), and whitespace of every kind JSON allows between tokens.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { duplicateKeys, keyCount, mayHoldDuplicateKey } from "../core/recipe/duplicate-keys.js";

type Node =
  | { readonly kind: "leaf"; readonly text: string }
  | { readonly kind: "string"; readonly value: string; readonly escaped: boolean }
  | { readonly kind: "array"; readonly items: readonly Node[] }
  | { readonly kind: "object"; readonly entries: readonly (readonly [string, boolean, Node])[] };

// few letters, so that keys often repeat; `"`, `:`, `\` and spaces, so that strings look like keys
// (`": "` opens with a quote before a colon, `"a\": b"` holds an escaped one)
const UNITS = ["a", "b", '"', ":", "\\", " ", "\n", "é"];
const shortText = fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 5 });
// the same without a colon: then every quote before a colon ends a key
const colonFree = fc.string({ unit: fc.constantFrom(...UNITS.filter((u) => u !== ":")), maxLength: 5 });
const space = fc.constantFrom("", " ", "  ", "\n", "\r\n", "\t");

const nodeOf = (text: fc.Arbitrary<string>): fc.Arbitrary<Node> =>
  fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom<Node>({ kind: "leaf", text: "1" }, { kind: "leaf", text: "-2.5e3" }, { kind: "leaf", text: "true" }, { kind: "leaf", text: "null" }),
      fc.record({ kind: fc.constant("string" as const), value: text, escaped: fc.boolean() }),
      fc.record({ kind: fc.constant("array" as const), items: fc.array(tie("node"), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant("object" as const), entries: fc.array(fc.tuple(text, fc.boolean(), tie("node")), { maxLength: 5 }) }),
    ),
  })).node;

/** A JSON string literal of `value`; `escaped`: every character as a \u escape. */
const literal = (value: string, escaped: boolean): string =>
  escaped ? `"${[...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"` : JSON.stringify(value);

/** The text of `node`, with whitespace from `ws` between its tokens; `keys`: how many keys it
 *  writes; `later`: how many of them are a later occurrence of a key their object already has. */
function write(node: Node, ws: () => string): { text: string; keys: number; later: number } {
  switch (node.kind) {
    case "leaf":
      return { text: node.text, keys: 0, later: 0 };
    case "string":
      return { text: literal(node.value, node.escaped), keys: 0, later: 0 };
    case "array": {
      const parts = node.items.map((n) => write(n, ws));
      const text = `[${ws()}${parts.map((p) => p.text).join(`${ws()},${ws()}`)}${ws()}]`;
      return { text, keys: parts.reduce((n, p) => n + p.keys, 0), later: parts.reduce((n, p) => n + p.later, 0) };
    }
    case "object": {
      const seen = new Set<string>();
      let keys = 0;
      let later = 0;
      const parts = node.entries.map(([key, escaped, value]) => {
        if (seen.has(key)) later++;
        seen.add(key);
        const v = write(value, ws);
        keys += 1 + v.keys;
        later += v.later;
        return `${literal(key, escaped)}${ws()}:${ws()}${v.text}`;
      });
      return { text: `{${ws()}${parts.join(`${ws()},${ws()}`)}${ws()}}`, keys, later };
    }
  }
}

/** A JSON text: an object at the top, as a recipe's is, its keys and strings drawn from `text`. */
const jsonTextOf = (text: fc.Arbitrary<string>) =>
  fc.tuple(fc.array(fc.tuple(text, fc.boolean(), nodeOf(text)), { maxLength: 6 }), fc.infiniteStream(space)).map(([entries, spaces]) => {
    const it = spaces[Symbol.iterator]();
    return write({ kind: "object", entries }, () => it.next().value as string);
  });
const jsonText = jsonTextOf(shortText);

describe("duplicate keys in a JSON text", () => {
  test.prop([jsonText], { numRuns: 500 })("the cheap count never misses a duplicate, and the look finds each later occurrence", ({ text, keys, later }) => {
    const parsed = JSON.parse(text) as unknown;
    // JSON.parse keeps the last of each: it loses each earlier occurrence and the keys inside
    // its value (so more than `later` when an overwritten value is an object)
    if (later === 0) expect(keyCount(parsed)).toBe(keys);
    else expect(keyCount(parsed)).toBeLessThanOrEqual(keys - later);
    if (later > 0) expect(mayHoldDuplicateKey(text, parsed)).toBe(true);
    expect(duplicateKeys(text)).toHaveLength(later);
  });

  test.prop([jsonTextOf(colonFree).filter(({ later }) => later === 0)])(
    "a text without a duplicate, whose strings hold no colon, is never looked through",
    ({ text }) => {
      expect(mayHoldDuplicateKey(text, JSON.parse(text))).toBe(false);
    },
  );

  test.prop([fc.jsonValue({ maxDepth: 4 })])("JSON.stringify's text of any value (no duplicate possible) is never reported", (value) => {
    const text = JSON.stringify({ v: value }, null, 1);
    expect(duplicateKeys(text)).toEqual([]);
  });
});
