// The compile cache file's bytes (runtime/compile-cache-file.ts): one JSON value, and each path
// and entry on a line of its own, so that one entry is found without parsing the rest. The entry
// found is exactly the one a parse of the whole file gives, whatever the paths and values hold.
import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { emitCacheText, entryInCacheBytes, readCacheBytes, type Entry } from "../../runtime/compile-cache-file.js";

const VERSION = "1.2.3+abcdef";
const CONTEXT = JSON.stringify(["/agent", "/agent/recipes", "/home", null]);

const entry = (n: number, extra: unknown): Entry =>
  ({ id: `1:${n}:10:5:5`, sha: "ab".repeat(32), t: "9", r: { kind: "recipe", id: `t${n}`, format: "json", config: { name: `t${n}`, raw: extra }, disabled: false, surface: { names: [], required: [], types: {}, defaults: {} } } }) as unknown as Entry;

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** the file as the cache writes it: its pieces, put together */
function cacheText(version: string, context: string, entries: Readonly<Record<string, Entry>>, root?: unknown): string {
  const pieces: string[] = [];
  emitCacheText((piece) => pieces.push(piece), version, context, entries, root);
  return pieces.join("");
}

describe("the compile cache file", () => {
  it("gives each entry on its own, equal to the whole file's parse, for any paths and values", () => {
    // paths with quotes, backslashes, newlines, commas and other scripts; values that hold other
    // entries' paths as keys and strings, and text that looks like the file's own lines
    const path = fc.oneof(
      fc.string({ minLength: 1 }).map((s) => `/r/${s}`),
      fc.constantFrom('/r/a"b.json', "/r/new\nline.json", '/r/x",\n', "/r/Ünïcødé 名前.md", "/r/a\\b.json", "/r/,.json"),
    );
    fc.assert(
      fc.property(fc.uniqueArray(path, { minLength: 1, maxLength: 8 }), fc.array(fc.jsonValue(), { minLength: 8, maxLength: 8 }), (paths, values) => {
        const entries: Record<string, Entry> = {};
        paths.forEach((p, i) => {
          // a value holding the paths of other entries, as keys and as text
          entries[p] = entry(i, { v: values[i], paths, byPath: Object.fromEntries(paths.map((q) => [q, `\n${JSON.stringify(q)},\n`])) });
        });
        const bytes = bytesOf(cacheText(VERSION, CONTEXT, entries, { some: "section" }));
        const whole = readCacheBytes(bytes, VERSION, CONTEXT);
        expect(whole?.root).toEqual({ some: "section" });
        expect(Object.keys(whole!.entries)).toEqual(Object.keys(entries));
        for (const p of paths) expect(entryInCacheBytes(bytes, VERSION, CONTEXT, p)).toEqual(whole!.entries[p]);
        expect(entryInCacheBytes(bytes, VERSION, CONTEXT, "/r/not there")).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it("is the same file when written in pieces: entries on both sides of a piece's end are found", () => {
    const entries: Record<string, Entry> = {};
    for (let i = 0; i < 1_100; i++) entries[`/r/t${i}.json`] = entry(i, { i });
    const pieces: string[] = [];
    emitCacheText((piece) => pieces.push(piece), VERSION, CONTEXT, entries);
    // the head, three pieces of at most 512 entries, the tail
    expect(pieces.length).toBe(5);
    const bytes = bytesOf(pieces.join(""));
    const whole = readCacheBytes(bytes, VERSION, CONTEXT);
    expect(Object.keys(whole!.entries)).toEqual(Object.keys(entries));
    for (const i of [0, 510, 511, 512, 513, 1_023, 1_024, 1_099]) {
      expect(entryInCacheBytes(bytes, VERSION, CONTEXT, `/r/t${i}.json`)).toEqual(JSON.parse(JSON.stringify(entries[`/r/t${i}.json`])));
    }
  });

  it("gives no entry from a file of other code or context, cut short, or empty of entries", () => {
    const entries = { "/r/a.json": entry(1, null), "/r/b.json": entry(2, null) };
    const text = cacheText(VERSION, CONTEXT, entries);
    const bytes = bytesOf(text);
    expect(entryInCacheBytes(bytes, VERSION, CONTEXT, "/r/b.json")).toEqual(JSON.parse(JSON.stringify(entries["/r/b.json"])));
    expect(entryInCacheBytes(bytes, "1.2.3+other0", CONTEXT, "/r/b.json")).toBeUndefined();
    expect(entryInCacheBytes(bytes, VERSION, JSON.stringify(["/other"]), "/r/b.json")).toBeUndefined();
    expect(readCacheBytes(bytes, "1.2.3+other0", CONTEXT)).toBeUndefined();
    // a torn write: no newline at the end
    expect(entryInCacheBytes(bytes.subarray(0, bytes.length - 1), VERSION, CONTEXT, "/r/a.json")).toBeUndefined();
    expect(readCacheBytes(bytes.subarray(0, bytes.length - 1), VERSION, CONTEXT)).toBeUndefined();
    const none = bytesOf(cacheText(VERSION, CONTEXT, {}));
    expect(readCacheBytes(none, VERSION, CONTEXT)?.entries).toEqual({});
    expect(entryInCacheBytes(none, VERSION, CONTEXT, "/r/a.json")).toBeUndefined();
  });

  it("refuses a file whose entries are not a list of paths and entries", () => {
    const head = { format: "pi-recipes-compile-cache/7", version: VERSION, context: CONTEXT };
    for (const entries of [{ "/r/a.json": {} }, ["/r/a.json"], [1, {}]]) {
      expect(readCacheBytes(bytesOf(JSON.stringify({ ...head, entries }) + "\n"), VERSION, CONTEXT)).toBeUndefined();
    }
    // any text is a path, one a prototype knows included: kept as an own key, nothing else changes
    const odd = readCacheBytes(bytesOf(JSON.stringify({ ...head, entries: ["__proto__", { x: 1 }, "C:\\r\\a.json", {}] }) + "\n"), VERSION, CONTEXT);
    expect(Object.keys(odd!.entries)).toEqual(["__proto__", "C:\\r\\a.json"]);
    expect(Object.getPrototypeOf(odd!.entries)).toBeNull();
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});
