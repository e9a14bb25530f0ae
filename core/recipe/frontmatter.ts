// The YAML frontmatter of Markdown recipes, parsed by the `yaml` library (pure: no I/O, no
// globals) as YAML 1.2 with a deliberately narrow set of implicit types. Only the scalars a JSON
// recipe could hold are typed: `true`, `false`, `null`, and decimal numbers. Everything else that
// YAML schemas like to guess at stays text: `on`/`yes`/`True`, `0x1F`, `1e3`, `.inf`, `~`, dates.
// That keeps a frontmatter value and the same value in a JSON recipe decoding alike.
import * as E from "fp-ts/lib/Either.js";
import { LineCounter, parseDocument, type ScalarTag } from "yaml";
import type { Json, JsonObject } from "../model.js";
import { isPlainObject } from "./fields.js";
import { setOwn } from "./own.js";

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

const nullTag: ScalarTag = { tag: "tag:yaml.org,2002:null", default: true, test: /^null$/, resolve: () => null };
const boolTag: ScalarTag = {
  tag: "tag:yaml.org,2002:bool",
  default: true,
  test: /^(?:true|false)$/,
  resolve: (s) => s === "true",
};
// a digit string too long for a double stays text rather than becoming Infinity or losing digits
const numberTag: ScalarTag = {
  tag: "tag:yaml.org,2002:float",
  default: true,
  test: DECIMAL,
  resolve: (s) => {
    const n = Number(s);
    return Number.isFinite(n) ? n : s;
  },
};

/** One problem in the frontmatter, with its line counted from the top of the Markdown file. */
export interface FrontmatterError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The first line of a library message, without its own (frontmatter-relative) position. */
const reason = (message: string): string => (message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");

/** `args: a, b` is a comma list; `defaults:` may be written as a list of `key: value` items. */
function normalizeField(key: string, value: Json): Json {
  if (key === "args" && typeof value === "string") {
    return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  if (key === "defaults" && Array.isArray(value)) {
    const out: Record<string, Json> = {};
    for (const item of value as readonly Json[]) {
      if (isPlainObject(item)) for (const [k, v] of Object.entries(item as JsonObject)) if (k !== "") setOwn(out, k, v);
      if (typeof item === "string" && item.trim() !== "") setOwn(out, item.trim(), "");
    }
    return out;
  }
  return value;
}

/**
 * The text strictly between the frontmatter delimiters, as an object, or the first YAML error.
 * `firstLine` is the file line the text starts on, so that errors name the line in the file.
 */
export function parseFrontmatter(text: string, firstLine = 2): E.Either<FrontmatterError, JsonObject> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    version: "1.2",
    schema: "failsafe",
    customTags: [nullTag, boolTag, numberTag],
    // `!!binary`, `!!timestamp` and the like would produce values no recipe field can hold
    resolveKnownTags: false,
    prettyErrors: false,
    lineCounter,
  });
  // a warning (an unresolved `!tag`) is refused too: the value would silently change type
  const error = doc.errors[0] ?? doc.warnings[0];
  if (error !== undefined) {
    const at = lineCounter.linePos(error.pos[0]);
    return E.left({ line: at.line + firstLine - 1, column: at.col, message: reason(error.message) });
  }
  // the library turns a `__proto__` key into an own property, never the prototype
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (value === null || value === undefined || value === "") return E.right({});
  if (!isPlainObject(value)) {
    return E.left({ line: firstLine, column: 1, message: "frontmatter must be a mapping of `field: value` lines" });
  }
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value as JsonObject)) setOwn(out, key, normalizeField(key, v));
  return E.right(out);
}
