// One recipe file's bytes -> a validated RecipeConfig or the problem that prevents it. Never throws.
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import { RECIPE_SIZE_LIMIT, type RecipeConfig, type RecipeFormat, type SnapshotFile } from "../model.js";
import { decodeRecipeObject } from "./decode.js";
import { ignoredFenceText, readMarkdown, type MarkdownRecipe } from "./markdown.js";
import type { RecipeError } from "./recipe-error.js";
import type { RecipeWarning } from "../compile/recipe-warning.js";
import { duplicateKeyText, duplicateKeysOf } from "./duplicate-keys.js";

export { RECIPE_SIZE_LIMIT } from "../model.js";

// fatal: a replacement character silently changing a command is worse than refusing the file
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Offset of the first byte that starts an ill-formed UTF-8 sequence, or -1. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const extra = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (extra === 0) return i;
    // the second byte's range excludes overlong forms, surrogates and code points above U+10FFFF
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= extra; k++) {
      const b = bytes[i + k];
      if (b === undefined || b < (k === 1 ? low : 0x80) || b > (k === 1 ? high : 0xbf)) return i;
    }
    i += extra + 1;
  }
  return -1;
}

const decodeText = (bytes: Uint8Array): E.Either<RecipeError, string> =>
  E.tryCatch(() => utf8.decode(bytes), (): RecipeError => ({ _tag: "NotUtf8", offset: invalidUtf8Offset(bytes) }));

/** ` (line L column C)` for an engine message that names a character position. A line ends at
 *  LF, CRLF or a lone CR, as a Markdown recipe's lines do (core/recipe/frontmatter.ts). */
export function lineAndColumn(text: string, message: string): string {
  const m = /at position (\d+)/.exec(message);
  if (m === null || /\bline \d+/.test(message)) return "";
  const position = Math.min(Number(m[1]), text.length);
  let line = 1;
  let start = 0;
  for (let i = 0; i < position; i++) {
    const c = text.charCodeAt(i);
    // a CR ends the line unless an LF follows it, which then ends it
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  return ` (line ${line} column ${position - start + 1})`;
}

/** The JSON engine's message without the file's text: its "unexpected token" form quotes the
 *  start of the file (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), which must not
 *  reach a reply when the file is not the caller's (a draft pointing at a system file). Only a
 *  JSON punctuation token is named; other messages carry a position, never text. */
export function jsonSyntaxMessage(message: string): string {
  const quoted = /^Unexpected token '([^]*?)', [^]* is not valid JSON$/.exec(message);
  if (quoted === null) return message;
  const token = quoted[1] ?? "";
  return /^[[\]{}:,"]$/.test(token) ? `Unexpected token '${token}': not valid JSON` : "Unexpected character: not valid JSON";
}

const parseJson = (text: string): E.Either<RecipeError, unknown> =>
  E.tryCatch(
    () => JSON.parse(text) as unknown,
    (e): RecipeError => {
      // the engine's message (less any quoted file text), plus where that is in the file
      const message = jsonSyntaxMessage(e instanceof Error ? e.message : String(e));
      return { _tag: "JsonSyntax", message: message + lineAndColumn(text, message) };
    },
  );

/** The file's bytes, unless it is too large or could not be read. */
function bytesOf(file: SnapshotFile): E.Either<RecipeError, Uint8Array> {
  if (file.size > RECIPE_SIZE_LIMIT || (file.bytes !== undefined && file.bytes.length > RECIPE_SIZE_LIMIT)) {
    return E.left({ _tag: "TooLarge", path: file.path, limit: RECIPE_SIZE_LIMIT });
  }
  if (file.readError !== undefined && file.readError !== "") return E.left({ _tag: "ReadFailed", message: file.readError });
  return file.bytes === undefined ? E.left({ _tag: "Unreadable", path: file.path }) : E.right(file.bytes);
}

/** A recipe as loaded, with the authoring warnings only its file's text shows (a Markdown fence
 *  that is ignored, a key a JSON object names twice, in a `.json` file or a Markdown recipe's JSON
 *  fence); the other authoring warnings are made from the config (core/recipe/lint.ts). */
export interface LoadedRecipe {
  readonly config: RecipeConfig;
  readonly warnings: readonly RecipeWarning[];
}

const NO_WARNINGS: readonly RecipeWarning[] = Object.freeze([]);

interface RawRecipe {
  readonly raw: unknown;
  readonly warnings: readonly RecipeWarning[];
}

const markdownRecipe = (md: MarkdownRecipe): RawRecipe => {
  const duplicates = md.duplicateKeys ?? [];
  if (md.ignoredFences.length === 0 && duplicates.length === 0) return { raw: md.raw, warnings: NO_WARNINGS };
  return {
    raw: md.raw,
    warnings: [
      ...md.ignoredFences.map((f): RecipeWarning => ({ kind: "authoring", text: ignoredFenceText(f) })),
      // a key the fence's JSON names twice, its line and column the Markdown file's
      ...duplicates.map((d): RecipeWarning => ({ kind: "authoring", text: duplicateKeyText(d) })),
    ],
  };
};

const rawRecipe = (format: RecipeFormat) => (text: string): E.Either<RecipeError, RawRecipe> =>
  format === "md"
    ? pipe(readMarkdown(text), E.bimap((error): RecipeError => ({ _tag: "Markdown", error }), markdownRecipe))
    : pipe(parseJson(text), E.map((raw): RawRecipe => ({ raw, warnings: jsonTextWarnings(text, raw) })));

/** A key a JSON recipe's object names twice (core/recipe/duplicate-keys.ts): the file loads with
 *  the last value, as it always has, and the author is told. The look is advice only: should it
 *  fail, the recipe loads without it rather than becoming a problem. */
function jsonTextWarnings(text: string, raw: unknown): readonly RecipeWarning[] {
  let duplicates: ReturnType<typeof duplicateKeysOf>;
  try {
    duplicates = duplicateKeysOf(text, raw);
  } catch {
    return NO_WARNINGS;
  }
  return duplicates.length === 0 ? NO_WARNINGS : duplicates.map((d): RecipeWarning => ({ kind: "authoring", text: duplicateKeyText(d) }));
}

const load = (file: SnapshotFile, name: string, format: RecipeFormat): E.Either<RecipeError, LoadedRecipe> =>
  pipe(
    bytesOf(file),
    chain(decodeText),
    chain(rawRecipe(format)),
    chain(({ raw, warnings }) =>
      pipe(
        decodeRecipeObject(raw, file.path, name),
        E.bimap((problem): RecipeError => ({ _tag: "Decode", problem }), (config): LoadedRecipe => ({ config, warnings })),
      ),
    ),
  );

function thrownMessage(e: unknown): string {
  try {
    const message = e instanceof Error ? e.message : String(e);
    return message === "" ? "unexpected error" : message;
  } catch {
    return "unexpected error";
  }
}

/**
 * Loads one recipe file as `name` (the file basename without extension; a `name` field inside the
 * file never overrides it). Every expected problem is a returned value; the catch is a last
 * guard so that one hostile file can never take the registry down.
 */
export function loadRecipe(file: SnapshotFile, name: string, format: RecipeFormat): E.Either<RecipeError, RecipeConfig> {
  return E.map((loaded: LoadedRecipe) => loaded.config)(loadRecipeWithWarnings(file, name, format));
}

/** loadRecipe, with the authoring warnings of the file's text (LoadedRecipe): the compile step's. */
export function loadRecipeWithWarnings(file: SnapshotFile, name: string, format: RecipeFormat): E.Either<RecipeError, LoadedRecipe> {
  try {
    return load(file, name, format);
  } catch (e) {
    return E.left({ _tag: "Thrown", message: thrownMessage(e) });
  }
}
