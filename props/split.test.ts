// Properties of word splitting: any list of words, each written in one of the quoting styles a
// template author may use and separated by any run of white space, splits back into exactly
// that list. The separators are every character the splitter treats as white space (space, tab,
// newline, carriage return, form feed, vertical tab), in the quick path for text without quotes
// or backslashes as in the full one.
import { describe, expect } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { splitWords, splitWordsDetailed } from "../core/template/split.js";

const SPACES = [" ", "\t", "\n", "\r", "\f", "\v"] as const;
const separator = fc.array(fc.constantFrom(...SPACES), { minLength: 1, maxLength: 3 }).map((a) => a.join(""));
const edge = fc.array(fc.constantFrom(...SPACES), { maxLength: 2 }).map((a) => a.join(""));

// any text: quotes, backslashes, white space, unicode
const anyWord = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.array(fc.constantFrom("'", '"', "\\", " ", "\t", "\n", "a", "é", "😀", "$", "{x}"), { maxLength: 8 }).map((a) => a.join("")),
);
// words with no white space, quote or backslash: what the quick path splits
// (other white space, such as a no-break space, is part of a word)
const plainWord = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.constantFrom("a\u00a0b", "\u2028"))
  .filter((w) => ![...SPACES, "'", '"', "\\"].some((s) => w.includes(s)));

/** The word in single quotes; a quote inside closes, adds an escaped quote, and reopens. */
const singleQuoted = (w: string): string => `'${w.replaceAll("'", "'\\''")}'`;
/** The word in double quotes, where a backslash makes the next quote or backslash literal. */
const doubleQuoted = (w: string): string => `"${w.replace(/["\\]/g, "\\$&")}"`;
/** The word bare, each white space, quote and backslash escaped; an empty word needs quotes. */
const escaped = (w: string): string => (w === "" ? "''" : w.replace(/[ \t\n\r\f\v'"\\]/g, (c) => `\\${c}`));

const styles = [singleQuoted, doubleQuoted, escaped] as const;
const written = fc.array(fc.tuple(anyWord, fc.integer({ min: 0, max: styles.length - 1 })), { maxLength: 6 });

function join(parts: readonly string[], seps: readonly string[], lead: string, trail: string): string {
  return lead + parts.map((p, i) => (i === 0 ? p : seps[i - 1]! + p)).join("") + trail;
}

describe("splitting a written word list", () => {
  test.prop([written, fc.array(separator, { minLength: 6, maxLength: 6 }), edge, edge])("gives back the words, whatever the quoting and the white space", (words, seps, lead, trail) => {
    const text = join(
      words.map(([w, s]) => styles[s]!(w)),
      seps,
      lead,
      trail,
    );
    expect(splitWords(text)).toEqual(words.map(([w]) => w));
    expect(splitWordsDetailed(text).unterminatedQuote).toBeUndefined();
  });

  test.prop([fc.array(plainWord, { maxLength: 6 }), fc.array(separator, { minLength: 6, maxLength: 6 }), edge, edge])(
    "without quotes or backslashes, gives back the words the white space separates",
    (words, seps, lead, trail) => {
      expect(splitWords(join(words, seps, lead, trail))).toEqual(words);
    },
  );

  test.prop([fc.array(plainWord, { minLength: 1, maxLength: 6 }), fc.array(separator, { minLength: 6, maxLength: 6 }), fc.constantFrom("''", '""')])(
    "a quoted empty word splits the rest the way the quick path does",
    (words, seps, empty) => {
      // the quoted empty word sends the text through the full path
      expect(splitWords(join([...words, empty], seps, "", ""))).toEqual([...words, ""]);
    },
  );

  test.prop([fc.array(plainWord, { maxLength: 4 }), fc.constantFrom("'", '"'), fc.string({ maxLength: 6 }).filter((s) => !s.includes("'") && !s.includes('"') && !s.includes("\\"))])(
    "an unterminated quote is reported, and its text kept as the last word",
    (words, quote, rest) => {
      const r = splitWordsDetailed([...words, quote + rest].join(" "));
      expect(r.unterminatedQuote).toBe(quote);
      expect(r.words).toEqual([...words, rest]);
    },
  );
});
