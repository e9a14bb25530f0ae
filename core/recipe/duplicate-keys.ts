// A JSON object that names the same key twice: JSON.parse keeps the last value without a word, so
// what a reader sees first in the file is not what runs. The recipe still loads (such files have
// always been accepted); this finds each later occurrence for an authoring warning.
import { visit } from "jsonc-parser";

/** One later occurrence of a key its object already had. `path`: the segments (keys and array
 *  indexes) from the file's top value to the key, the key last; `line` and `column` are 1-based,
 *  a line ending at LF, CRLF or a lone CR, a column counted in UTF-16 code units. */
export interface DuplicateKey {
  readonly path: readonly (string | number)[];
  readonly line: number;
  readonly column: number;
}

const NO_DUPLICATES: readonly DuplicateKey[] = Object.freeze([]);

/** How many object keys the parsed value holds, at any depth. */
export function keyCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += keyCount(value[i]);
  } else {
    // JSON.parse makes every key an own property, `__proto__` included (for...in, unlike
    // Object.keys, makes no array: this runs for every JSON recipe compiled)
    const o = value as Record<string, unknown>;
    for (const key in o) if (Object.hasOwn(o, key)) n += 1 + keyCount(o[key]);
  }
  return n;
}

const QUOTE_COLON = /"\s*:/g;

/** Whether the JSON text `text`, which JSON.parse read as `parsed`, may name a key twice in one
 *  object. In valid JSON every key ends with a `"` that optional whitespace and a `:` follow, so
 *  the text holds at least as many of those as it writes keys (more when a string holds one: an
 *  escaped quote, `"a\": b"`, or an opening quote, `": b"`). A duplicate makes the keys written
 *  more than the parsed value's (which holds each key of an object once), so it makes the count
 *  more than the parsed value's keys: an equal count means no duplicate. */
export function mayHoldDuplicateKey(text: string, parsed: unknown): boolean {
  const keys = keyCount(parsed);
  QUOTE_COLON.lastIndex = 0;
  let seen = 0;
  while (QUOTE_COLON.test(text)) {
    if (++seen > keys) {
      QUOTE_COLON.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** Every later occurrence of a key in one object of the JSON text `text` (which JSON.parse
 *  accepts), in document order. */
export function duplicateKeys(text: string): readonly DuplicateKey[] {
  let found: DuplicateKey[] | undefined;
  const open: Set<string>[] = [];
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (name, _offset, _length, startLine, startCharacter, pathSupplier) => {
      const keys = open[open.length - 1];
      if (keys === undefined) return;
      if (!keys.has(name)) keys.add(name);
      else (found ??= []).push({ path: [...pathSupplier(), name], line: startLine + 1, column: startCharacter + 1 });
    },
  }, { disallowComments: true });
  return found ?? NO_DUPLICATES;
}

/** The duplicates of a JSON recipe's text, looked for only when the cheap count says one may be
 *  there (mayHoldDuplicateKey): nearly every file has none, and the exact check reads it again. */
export const duplicateKeysOf = (text: string, parsed: unknown): readonly DuplicateKey[] =>
  mayHoldDuplicateKey(text, parsed) ? duplicateKeys(text) : NO_DUPLICATES;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `arg_descriptions.file`, `template[1].label`, `defaults["a b"]`: a key that is no plain name
 *  is written as a JSON string in brackets. */
export function jsonPathText(path: readonly (string | number)[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The authoring warning of one duplicate key: the key, its path when it is inside another value
 *  (`duplicate key "file" (arg_descriptions.file) at ...`), and where its later occurrence is. */
export function duplicateKeyText(d: DuplicateKey): string {
  const key = d.path[d.path.length - 1]!;
  const where = d.path.length > 1 ? ` (${jsonPathText(d.path)})` : "";
  return `duplicate key ${JSON.stringify(key)}${where} at line ${d.line}, column ${d.column}: JSON keeps the last value, so the earlier one is ignored; remove one of them`;
}
