// Placeholders inside one template word: where they are
// and what their content means. Parsing is separate from resolution so that a template can be
// analysed (argument names, types, defaults) and compiled once, then resolved per call.
import type { ArgType } from "../model.js";
import { STRING, parseArgType } from "../args/arg-type.js";
import { memoizeString } from "../memo.js";

const IDENT = "[A-Za-z_][A-Za-z0-9_-]*";
const IDENT_RE = new RegExp(`^${IDENT}$`);
const NULLISH_RE = new RegExp(`^(${IDENT})\\?\\?(.*)$`, "s");
const TERNARY_RE = /^([^?:]*)\?([^:]*):(.*)$/s;
const INDEX_RE = new RegExp(`^(${IDENT})\\[(\\d+|${IDENT})\\]$`);
const LENGTH_RE = new RegExp(`^(${IDENT})\\.length$`);
const SIMPLE_RE = new RegExp(`^(${IDENT})(?::(string|path|int|number|bool|array|enum\\([^)]*\\)))?(?:=(.*))?$`, "s");
const PADDED_RE = /^(_{1,6})\((.*)\)$/s;
const OPERATOR_RE = /[()+\-*/%]/;
const REPEAT_NAME_RE = /^_{0,6}(?:index|prev|next|repeat)$/;
const PLACEHOLDER_RE = /\{([^{}]*)\}/g;

export type IndexRef =
  | { readonly kind: "position"; readonly position: number }
  | { readonly kind: "name"; readonly name: string };

export type Placeholder =
  /** `name??fallback`: the value when truthy, else the literal fallback */
  | { readonly kind: "nullish"; readonly name: string; readonly fallback: string }
  /** `cond?yes:no` / `!cond?yes:no`; `name` is undefined when cond is not an identifier
   * (it then reads as a missing value) */
  | { readonly kind: "ternary"; readonly name: string | undefined; readonly negated: boolean; readonly yes: string; readonly no: string }
  | { readonly kind: "index"; readonly name: string; readonly index: IndexRef }
  | { readonly kind: "length"; readonly name: string }
  /** `name[:type][=default]`; `typed` tells whether a type was written */
  | { readonly kind: "simple"; readonly name: string; readonly type: ArgType; readonly typed: boolean; readonly default?: string }
  /** `_(expr)` .. `______(expr)`: integer expression zero-padded to `width` */
  | { readonly kind: "padded"; readonly width: number; readonly expr: string }
  | { readonly kind: "expression"; readonly expr: string }
  | { readonly kind: "unknown"; readonly content: string };

export interface PlaceholderSpan {
  /** offset of `{` in the word */
  readonly start: number;
  /** offset just after `}` */
  readonly end: number;
  readonly content: string;
}

export const isIdentifier = (text: string): boolean => IDENT_RE.test(text);

/** Names the repeat expansion defines for each copy (`index`, `__prev`, ...). */
export const isRepeatName = (name: string): boolean => REPEAT_NAME_RE.test(name);

/** Every `{...}` without nested braces, left to right. */
export function findPlaceholders(word: string): PlaceholderSpan[] {
  const spans: PlaceholderSpan[] = [];
  for (const m of word.matchAll(PLACEHOLDER_RE)) {
    spans.push({ start: m.index, end: m.index + m[0].length, content: m[1] ?? "" });
  }
  return spans;
}

/** Visits the content of every `{...}` that findPlaceholders finds, in order, without building
 * spans, until `visit` returns something; returns that. A `{` opens a placeholder exactly when
 * the next brace after it is a `}`. `state` is handed to `visit`, so that a caller on a hot path
 * can pass a function made once rather than a closure per text. */
export function eachPlaceholder<R, S = undefined>(text: string, visit: (content: string, state: S) => R | undefined, state?: S): R | undefined {
  let open = text.indexOf("{");
  if (open < 0) return undefined;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) open = i;
    else if (c === 125 && open >= 0) {
      const r = visit(text.slice(open + 1, i), state as S);
      if (r !== undefined) return r;
      open = -1;
    }
  }
  return undefined;
}

export const hasPlaceholder = (word: string): boolean => /\{[^{}]*\}/.test(word);

// A bare hyphenated "name" such as `index-1` or `n-2` is an identifier too, but it is meant as
// arithmetic; treating it as a name would publish a bogus required argument `index-1`.
function looksLikeArithmetic(name: string): boolean {
  if (!name.includes("-")) return false;
  const parts = name.split("-");
  return parts.every((p) => p === "" || isIdentifier(p) || /^\d+$/.test(p)) &&
    parts.some((p) => /^\d+$/.test(p) || isRepeatName(p));
}

/** The meaning of a placeholder's content, the forms tried in a fixed order (docs/templates.md). */
export const parsePlaceholder: (content: string) => Placeholder = memoizeString(parsePlaceholderUncached);

function parsePlaceholderUncached(content: string): Placeholder {
  let m = NULLISH_RE.exec(content);
  if (m !== null) return { kind: "nullish", name: m[1] ?? "", fallback: m[2] ?? "" };

  m = TERNARY_RE.exec(content);
  if (m !== null) {
    const cond = (m[1] ?? "").trim();
    const negated = cond.startsWith("!");
    const name = (negated ? cond.slice(1) : cond).trim();
    return { kind: "ternary", name: isIdentifier(name) ? name : undefined, negated, yes: m[2] ?? "", no: m[3] ?? "" };
  }

  m = INDEX_RE.exec(content);
  if (m !== null) {
    const idx = m[2] ?? "";
    const index: IndexRef = /^\d+$/.test(idx) ? { kind: "position", position: Number(idx) } : { kind: "name", name: idx };
    return { kind: "index", name: m[1] ?? "", index };
  }

  m = LENGTH_RE.exec(content);
  if (m !== null) return { kind: "length", name: m[1] ?? "" };

  m = SIMPLE_RE.exec(content);
  if (m !== null) {
    const name = m[1] ?? "";
    const typeText = m[2];
    const dflt = m[3];
    if (!(typeText === undefined && dflt === undefined && looksLikeArithmetic(name))) {
      // an enum without values is written but unusable: it behaves as a plain string
      const type = typeText === undefined ? STRING : parseArgType(typeText) ?? STRING;
      const base = { kind: "simple", name, type, typed: typeText !== undefined } as const;
      return dflt === undefined ? base : { ...base, default: dflt };
    }
  }

  m = PADDED_RE.exec(content);
  if (m !== null) return { kind: "padded", width: (m[1] ?? "").length + 1, expr: m[2] ?? "" };

  if (OPERATOR_RE.test(content)) return { kind: "expression", expr: content };
  return { kind: "unknown", content };
}

/** Parsed placeholders of a word, with their spans. */
export const placeholdersOf = (word: string): Array<PlaceholderSpan & { readonly placeholder: Placeholder }> =>
  findPlaceholders(word).map((s) => ({ ...s, placeholder: parsePlaceholder(s.content) }));
