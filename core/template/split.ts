// Shell-like word splitting without a shell. Placeholders are
// substituted per word afterwards, so a value can never be split or re-interpreted.

const isSpace = (c: string): boolean => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";

export interface SplitResult {
  readonly words: readonly string[];
  /** the quote character left open at the end of input, if any */
  readonly unterminatedQuote?: "'" | '"';
  /** the indexes of the words written with a quote or a backslash (absent: none was): such a
   * word is text the author meant literally, never something a shell would have interpreted */
  readonly quoted?: readonly number[];
}

// the characters of isSpace: space, \t, \n, \v, \f, \r
const isSpaceCode = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const QUOTE_OR_ESCAPE = /['"\\]/;

// Most leaves hold no quote and no backslash: their words are the runs between spaces, taken as
// slices instead of being built a character at a time.
function splitPlain(text: string): SplitResult {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isSpaceCode(text.charCodeAt(i))) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) words.push(text.slice(start));
  return { words };
}

export function splitWordsDetailed(text: string): SplitResult {
  if (!QUOTE_OR_ESCAPE.test(text)) return splitPlain(text);
  const words: string[] = [];
  let word = "";
  // a quote opened in this word: the word is kept even when empty (`''`)
  let quoted = false;
  // a quote or a backslash was used in this word
  let literal = false;
  let literalWords: number[] | undefined;
  const push = (): void => {
    if (literal) (literalWords ??= []).push(words.length);
    words.push(word);
  };
  let quote: "'" | '"' | undefined;
  let escaped = false;
  for (const c of text) {
    if (escaped) {
      // a backslash escapes a space, a quote, a backslash and, outside quotes, `;` (find's
      // `-exec ls {} \;`, which a shell would pass as `;`); before anything else it stays, so
      // `C:\Program`, `\n` and a regex's `\|` or `\<` reach the command as written
      word += isSpace(c) || c === "'" || c === '"' || c === "\\" || (quote === undefined && c === ";") ? c : "\\" + c;
      escaped = false;
      literal = true;
      continue;
    }
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"') escaped = true;
      else word += c;
      continue;
    }
    if (c === "\\") escaped = true;
    else if (c === "'" || c === '"') {
      quote = c;
      quoted = true;
      literal = true;
    } else if (isSpace(c)) {
      if (quoted || word !== "") push();
      word = "";
      quoted = false;
      literal = false;
    } else word += c;
  }
  // a trailing backslash is kept as one
  if (escaped) {
    word += "\\";
    literal = true;
  }
  if (quoted || word !== "") push();
  const out: { -readonly [K in keyof SplitResult]: SplitResult[K] } = { words };
  if (quote !== undefined) out.unterminatedQuote = quote;
  if (literalWords !== undefined) out.quoted = literalWords;
  return out;
}

export const splitWords = (text: string): readonly string[] => splitWordsDetailed(text).words;
