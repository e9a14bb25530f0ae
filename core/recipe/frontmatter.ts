// The YAML frontmatter of Markdown recipes, parsed by the `js-yaml` library (pure: no I/O, no
// globals) with a deliberately narrow set of implicit types. Only the scalars a JSON recipe could
// hold are typed: `true`, `false`, `null`, and decimal numbers. Everything else that YAML schemas
// like to guess at stays text: `on`/`yes`/`True`, `0x1F`, `1e3`, `.inf`, `~`, dates. That keeps a
// frontmatter value and the same value in a JSON recipe decoding alike.
import * as E from "fp-ts/lib/Either.js";
import { FAILSAFE_SCHEMA, load, Type, type Schema } from "js-yaml";
import { RECIPE_SIZE_LIMIT, type Json, type JsonObject } from "../model.js";
import { isPlainObject } from "./fields.js";
import { setOwn } from "./own.js";

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/**
 * What a written `null` parses to, until `toTree` makes it `null`. The library gives `null` for
 * a node with nothing in it too (`description:` then a new line), which a frontmatter reads as
 * the empty string: the marker keeps the two apart. As a mapping key it reads `null`, as the
 * library writes any key that is not text (a `Symbol.toStringTag` makes it use `toString`).
 */
class WrittenNull {
  get [Symbol.toStringTag](): string {
    return "WrittenNull";
  }
  toString(): string {
    return "null";
  }
}
const WRITTEN_NULL = Object.freeze(new WrittenNull());

let narrowSchema: Schema | undefined;
/** The failsafe schema (text, lists, maps) and the JSON scalars, for plain (unquoted) scalars only.
 *  Built on the first parse: the bundles load the library then (scripts/bundle.mjs). */
function schema(): Schema {
  narrowSchema ??= FAILSAFE_SCHEMA.extend({
    implicit: [
      new Type("tag:yaml.org,2002:null", { kind: "scalar", resolve: (s: string) => s === "null", construct: () => WRITTEN_NULL }),
      new Type("tag:yaml.org,2002:bool", { kind: "scalar", resolve: (s: string) => s === "true" || s === "false", construct: (s: string) => s === "true" }),
      // a digit string too long for a double stays text rather than becoming Infinity or losing digits
      new Type("tag:yaml.org,2002:float", {
        kind: "scalar",
        resolve: (s: string) => DECIMAL.test(s) && Number.isFinite(Number(s)),
        construct: (s: string) => Number(s),
      }),
    ],
  });
  return narrowSchema;
}

/** A line break as YAML and Markdown both read one: LF, CRLF, or a CR alone. */
export const LINE_BREAK = /\r\n?|\n/;

/** One problem in the frontmatter, with its line counted from the top of the Markdown file. */
export interface FrontmatterError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** How many values the aliases of a frontmatter (`*name`, repeating what `&name` marks) may add
 *  when written out: a few nested aliases would otherwise make billions of them. */
export const MAX_ALIASED_VALUES = 10_000;
/** How much the frontmatter may hold once written out, aliases expanded, counted as the length of
 *  every text (keys included) and one for every value: twice the largest recipe file. Without
 *  aliases a frontmatter never holds more than about its own text; with them, a few lines naming
 *  one long text thousands of times would otherwise make gigabytes (the compile cache writes the
 *  values out, and every later command reads them). */
export const MAX_EXPANDED_SIZE = 2 * RECIPE_SIZE_LIMIT;
const TOO_MANY_ALIASED = `aliases expand to more than ${MAX_ALIASED_VALUES} values`;
const TOO_LARGE = `aliases expand the frontmatter to more than ${MAX_EXPANDED_SIZE} characters`;
const INSIDE_ITSELF = "an alias names a list or map it is inside of (such as `a: &a [*a]`), which never ends";

/** The first line of a library message. */
const reason = (message: string): string => message.split("\n")[0] ?? "";

/** What a walk of the library's value has left of its bounds, and the lists and maps it is inside. */
interface Walk {
  readonly seen: Set<object>;
  readonly open: Set<object>;
  values: number;
  size: number;
  problem?: string;
}

/** What a text takes written out as JSON: its quotes, and an escape for each character JSON
 *  escapes (a control character as `\u0000`, six characters; `"` and `\` as two). */
function writtenLength(text: string): number {
  let n = text.length + 2;
  if (!NEEDS_ESCAPE.test(text)) return n;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) n += 5;
    else if (c === 0x22 || c === 0x5c) n += 1;
  }
  return n;
}
const NEEDS_ESCAPE = /[\u0000-\u001f"\\]/;

/** A bound passed while the library parses, at the node that passed it (0-based line and column,
 *  as the library's own marks). */
class PassedBound extends Error {
  constructor(
    readonly reasonText: string,
    readonly at: { readonly line: number; readonly column: number } | undefined,
  ) {
    super(reasonText);
  }
}

/** The part of the library's parser state a node's start and end show (`listener` of `load`): the
 *  node's value, its kind (none for an alias: `*name` gives the value its anchor marked), the
 *  text and where the parser stands. */
interface NodeEnd {
  readonly result: unknown;
  readonly kind: string | null;
  readonly input?: string;
  readonly line?: number;
  readonly position?: number;
  readonly lineStart?: number;
}

/** What a list or map holds written out: its size as the size bound counts it, and its values
 *  (itself and every value in it, at any depth) as the bound on values copied counts them. */
interface Measure {
  readonly size: number;
  readonly values: number;
}

const isNode = (value: unknown): value is object => typeof value === "object" && value !== null && value !== WRITTEN_NULL;

/**
 * The bounds applied while the library parses, so that nothing it builds from aliases can grow
 * past them first: the library turns a list used as a mapping key into one text joined from its
 * items, and a key of a thousand aliases of a long text would be gigabytes before any walk of the
 * result could count it. Every node that ends counts toward the size: a text what it takes
 * written out, any other value one, and an alias what the value it repeats holds written out.
 * An alias of a list or map counts every value it copies toward the values bound. A bound passed
 * names the line and column where the node that passed it starts. Lists and maps are measured
 * once each; one met inside itself while measured is refused.
 */
function boundsGuard(): (event: string, state: NodeEnd) => void {
  let left = MAX_EXPANDED_SIZE;
  let valuesLeft = MAX_ALIASED_VALUES;
  const measured = new WeakMap<object, Measure>();
  const measuring = new Set<object>();
  const measure = (node: object): Measure => {
    const known = measured.get(node);
    if (known !== undefined) return known;
    if (measuring.has(node)) throw new PassedBound(INSIDE_ITSELF, undefined);
    measuring.add(node);
    const list = Array.isArray(node);
    let size = 1;
    let values = 1;
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      if (!list) size += writtenLength(key);
      if (isNode(item)) {
        const inner = measure(item);
        size += inner.size;
        values += inner.values;
      } else {
        size += typeof item === "string" ? writtenLength(item) : 1;
        values++;
      }
      // past either bound it needs no exact measure: any alias of it passes that bound
      if (size > MAX_EXPANDED_SIZE || values > MAX_ALIASED_VALUES) break;
    }
    measuring.delete(node);
    const m: Measure = { size, values };
    measured.set(node, m);
    return m;
  };
  // where each node still open starts: its line, the start of that line, and its position
  const starts: (number | undefined)[] = [];
  // a node that holds only another (a block list's item, a value on the line below its key) ends
  // where that one ends, with its value: the library reports the end of both, and it counts once
  let lastEnd: number | undefined;
  let lastResult: unknown;
  return (event, state) => {
    if (event === "open") {
      starts.push(state.line, state.lineStart, state.position);
      return;
    }
    if (event !== "close") return;
    const position = starts.pop();
    const lineStart = starts.pop();
    const line = starts.pop();
    if (state.position !== undefined && state.position === lastEnd && state.result === lastResult) return;
    lastEnd = state.position;
    lastResult = state.result;
    const alias = state.kind === null && state.result !== null;
    if (alias && isNode(state.result)) {
      const m = measure(state.result);
      left -= m.size;
      valuesLeft -= m.values;
      if (valuesLeft < 0) throw new PassedBound(TOO_MANY_ALIASED, startOf(state.input, line, lineStart, position));
    } else {
      left -= typeof state.result === "string" ? writtenLength(state.result) : 1;
    }
    if (left < 0) throw new PassedBound(TOO_LARGE, startOf(state.input, line, lineStart, position));
  };
}

/** Where a node starts (0-based line and column): at its first character, past the blanks the
 *  library stands on as it begins the node (`key: *name` starts at `*`). */
function startOf(text: string | undefined, line: number | undefined, lineStart: number | undefined, position: number | undefined): PassedBound["at"] {
  if (text === undefined || line === undefined || lineStart === undefined || position === undefined) return undefined;
  let p = position;
  while (text[p] === " " || text[p] === "\t") p++;
  return { line, column: p - lineStart };
}

/**
 * The library's value as JSON: the library's `null` (an empty node) becomes "", a written `null`
 * becomes `null`, and a list or map met again (an alias gives the very object it names) is
 * copied, so the result is a tree. Every value copied for such a repeat counts down
 * `walk.values`, and every value its size (an alias of a text is the very same string, which no
 * walk can tell from a text written twice); a list or map met inside itself is refused. Undefined,
 * with `walk.problem` said, once a bound is passed.
 */
function toTree(value: unknown, walk: Walk, repeat: boolean): Json | undefined {
  const node = typeof value === "object" && value !== null && value !== WRITTEN_NULL ? value : undefined;
  if (node !== undefined) {
    if (walk.open.has(node)) {
      walk.problem = INSIDE_ITSELF;
      return undefined;
    }
    repeat ||= walk.seen.has(node);
    walk.seen.add(node);
  }
  if (repeat && --walk.values < 0) {
    walk.problem = TOO_MANY_ALIASED;
    return undefined;
  }
  walk.size -= typeof value === "string" ? writtenLength(value) : 1;
  if (walk.size < 0) {
    walk.problem = TOO_LARGE;
    return undefined;
  }
  if (value === null) return "";
  if (value === WRITTEN_NULL) return null;
  if (node === undefined) return value as Json;
  walk.open.add(node);
  try {
    if (Array.isArray(node)) {
      const out: Json[] = [];
      for (const item of node as unknown[]) {
        const v = toTree(item, walk, repeat);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      walk.size -= writtenLength(key);
      const v = toTree(item, walk, repeat);
      if (v === undefined) return undefined;
      setOwn(out, key, v);
    }
    return out;
  } finally {
    walk.open.delete(node);
  }
}

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

/** The library's error: its reason, and where it stopped (lines and columns from 0). */
interface LibraryError {
  readonly reason: string;
  readonly mark?: { readonly line: number; readonly column: number };
}
const isLibraryError = (e: unknown): e is LibraryError => e instanceof Error && typeof (e as Partial<LibraryError>).reason === "string";

const DOCUMENT_END = /^\.\.\.(?:[ \t]|$)/;
const DOCUMENT_START = /^---(?:[ \t]|$)/;
/** Nothing a document holds: a blank line, a comment, a directive (`%YAML 1.2`). */
const NO_CONTENT = /^(?:[ \t]*(?:#.*)?|%.*)$/;

/**
 * Where the library stopped, as a position in `text` (0-based line, 1-based column). Its error
 * for a second document has no position: that is the line that ends the first, `...` or a `---`
 * after the first document's content (a line holding only `---` closes the frontmatter itself,
 * so this is `--- # comment` and the like). At the end of the text, the library stands one line
 * past it: that is the end of the last line.
 */
function positionOf(text: string, mark: LibraryError["mark"]): { line: number; column: number } {
  const lines = text.split(LINE_BREAK);
  if (mark === undefined) {
    let started = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (DOCUMENT_END.test(line) || (DOCUMENT_START.test(line) && started)) return { line: i, column: 1 };
      if (DOCUMENT_START.test(line) || !NO_CONTENT.test(line)) started = true;
    }
    return { line: 0, column: 1 };
  }
  if (mark.line >= lines.length) return { line: lines.length - 1, column: (lines[lines.length - 1] ?? "").length + 1 };
  return { line: mark.line, column: mark.column + 1 };
}

/**
 * The text strictly between the frontmatter delimiters, as an object, or the first YAML error.
 * `firstLine` is the file line the text starts on, so that errors name the line in the file.
 */
export function parseFrontmatter(text: string, firstLine = 2): E.Either<FrontmatterError, JsonObject> {
  let parsed: unknown;
  try {
    // an unknown tag (`!!binary`, `!!timestamp`, `!foo`) is an error: no recipe field holds its
    // value; so are a second document, and lists and maps nested more than 100 deep (the
    // library's `maxDepth`)
    parsed = load(text, { schema: schema(), listener: boundsGuard() });
  } catch (e) {
    if (e instanceof PassedBound) {
      const at = e.at === undefined ? { line: 0, column: 1 } : positionOf(text, e.at);
      return E.left({ line: at.line + firstLine, column: at.column, message: e.reasonText });
    }
    if (!isLibraryError(e)) throw e;
    const at = positionOf(text, e.mark);
    return E.left({ line: at.line + firstLine, column: at.column, message: reason(e.reason) });
  }
  if (parsed === null || parsed === undefined || parsed === "" || parsed === WRITTEN_NULL) return E.right({});
  const walk: Walk = { seen: new Set(), open: new Set(), values: MAX_ALIASED_VALUES, size: MAX_EXPANDED_SIZE };
  let value: Json | undefined;
  try {
    value = toTree(parsed, walk, false);
  } catch (e) {
    // aliases of aliases nested past what the call stack holds: refused as too many
    if (!(e instanceof RangeError)) throw e;
    walk.problem = TOO_MANY_ALIASED;
  }
  // (the bounds on values and size are met while the library parses, at the line that passes them;
  // what only the walk finds, a list or map inside itself, names the frontmatter's first line: the
  // library keeps no position once it has parsed)
  if (value === undefined) return E.left({ line: firstLine, column: 1, message: walk.problem ?? TOO_MANY_ALIASED });
  if (!isPlainObject(value)) {
    return E.left({ line: firstLine, column: 1, message: "frontmatter must be a mapping of `field: value` lines" });
  }
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value as JsonObject)) setOwn(out, key, normalizeField(key, v));
  return E.right(out);
}
