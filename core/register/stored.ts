// The stored form of a recipe written by register_tool: 2-space JSON
// plus a newline, keys in a fixed order with `template` last; and the raw object of a stored
// recipe read back for an update.
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Json, JsonObject, RecipeFormat, SnapshotFile } from "../model.js";
import { hasOwn, isPlainObject, jsonFault } from "../recipe/fields.js";
import { jsonSyntaxMessage, RECIPE_SIZE_LIMIT } from "../recipe/load.js";
import { compileMarkdown, markdownErrorText } from "../recipe/markdown.js";
import { setOwn } from "../recipe/own.js";

const LEADING = ["description", "async", "args", "defaults", "values"] as const;

/** description, async, args, defaults, values, then every other key in its given order, template last. */
export function orderRecipe(raw: JsonObject): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const key of LEADING) if (hasOwn(raw, key)) setOwn(out, key, raw[key] as Json);
  for (const key of Object.keys(raw)) {
    if (key === "template" || (LEADING as readonly string[]).includes(key)) continue;
    setOwn(out, key, raw[key] as Json);
  }
  if (hasOwn(raw, "template")) setOwn(out, "template", raw["template"] as Json);
  return out;
}

/** An update keeps the stored file's key order, so a diff shows only what changed: the stored
 * keys first as they were, then new keys in the canonical order (before a trailing `template`). */
export function keepOrder(raw: JsonObject, stored: readonly string[]): Record<string, Json> {
  const canonical = orderRecipe(raw);
  const kept = stored.filter((k) => hasOwn(canonical, k));
  const added = Object.keys(canonical).filter((k) => !kept.includes(k));
  const templateLast = kept[kept.length - 1] === "template";
  const order = templateLast ? [...kept.slice(0, -1), ...added, "template"] : [...kept, ...added];
  const out: Record<string, Json> = {};
  for (const key of order) setOwn(out, key, canonical[key] as Json);
  return out;
}

/** The file text: canonical order for a new recipe, the stored order (`stored` keys) for an update. */
export const recipeText = (raw: JsonObject, stored?: readonly string[]): string =>
  `${JSON.stringify(stored === undefined ? orderRecipe(raw) : keepOrder(raw, stored), null, 2)}\n`;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Why a stored recipe file gives no raw object to update (`storedReadErrorText` says it in words). */
export type StoredReadError =
  | { readonly _tag: "ReadFailed"; readonly message: string }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "NotUtf8" }
  /** the Markdown recipe does not compile; `message` is its own text */
  | { readonly _tag: "Markdown"; readonly message: string }
  /** `message` is the JSON parser's own text */
  | { readonly _tag: "JsonSyntax"; readonly message: string }
  | { readonly _tag: "NotObject" };

export function storedReadErrorText(e: StoredReadError): string {
  switch (e._tag) {
    case "ReadFailed":
      return e.message;
    case "TooLarge":
      return `file exceeds size limit ${RECIPE_SIZE_LIMIT} bytes`;
    case "NotUtf8":
      return "file is not valid UTF-8 text";
    case "Markdown":
      return e.message;
    case "JsonSyntax":
      return jsonSyntaxMessage(e.message);
    case "NotObject":
      return "JSON recipe must be an object";
  }
}

const readable = (file: SnapshotFile): E.Either<StoredReadError, Uint8Array> => {
  if (file.readError !== undefined && file.readError !== "") return E.left({ _tag: "ReadFailed", message: file.readError });
  if (file.size > RECIPE_SIZE_LIMIT || file.bytes === undefined) return E.left({ _tag: "TooLarge" });
  return E.right(file.bytes);
};

const decodeUtf8 = (bytes: Uint8Array): E.Either<StoredReadError, string> => E.tryCatch(() => utf8.decode(bytes), (): StoredReadError => ({ _tag: "NotUtf8" }));

function rawObjectOf(text: string, format: RecipeFormat): E.Either<StoredReadError, JsonObject> {
  if (format === "md") return pipe(compileMarkdown(text), E.mapLeft((error): StoredReadError => ({ _tag: "Markdown", message: markdownErrorText(error) })));
  return pipe(
    E.tryCatch(
      () => JSON.parse(text) as unknown,
      (e): StoredReadError => ({ _tag: "JsonSyntax", message: e instanceof Error ? e.message : String(e) }),
    ),
    E.filterOrElse(
      (parsed): parsed is JsonObject => isPlainObject(parsed) && jsonFault(parsed) === undefined,
      (): StoredReadError => ({ _tag: "NotObject" }),
    ),
  );
}

/** The object a stored recipe file holds (Markdown: frontmatter merged with the fence), whether
 * or not it is a valid recipe: an update may be what repairs it. */
export const storedRaw = (file: SnapshotFile, format: RecipeFormat): E.Either<StoredReadError, JsonObject> =>
  pipe(
    readable(file),
    chain(decodeUtf8),
    chain((text) => rawObjectOf(text, format)),
  );
