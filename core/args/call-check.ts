// The call-time checks that come before typed normalization: every given name must be one the
// tool takes (a typo like `fiel` would otherwise surface later as a missing `file`), and an
// object given where text is expected is refused rather than becoming `[object Object]`: a
// string argument, and any value a command word reads as text (`{o}`, `{o??x}`, an array's
// item a word reads, `{a[0]}` or `{a??x}`). An array given for a one-value argument (a path, an
// enum, a string the template does not read by item) is refused too. A whole array argument,
// `{a}`, reaches the command as its JSON.
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { eachPlaceholder, isIdentifier, parsePlaceholder } from "../template/placeholder.js";
import { Origin } from "../template/substitute.js";
import { didYouMean } from "../suggest.js";

/** Parameters that steer an async run rather than fill the template. */
export const RUN_PARAMS: readonly string[] = ["run_id", "correlation_id", "transport_context"];

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_-]*/g;

/** Every name a template text could read: the surface names plus anything named inside braces
 * (`{items[0]}`, `{n.length}` read names that are not published as arguments). */
export function readableNames(texts: Iterable<string>, surface: Pick<ArgSurface, "names">, extra: Iterable<string> = []): Set<string> {
  const names = new Set<string>([...surface.names, ...extra]);
  for (const text of texts) {
    eachPlaceholder(text, (content) => {
      for (const m of content.matchAll(IDENTIFIER)) names.add(m[0]);
      return undefined;
    });
  }
  return names;
}

const takesText = (surface: Pick<ArgSurface, "types">, name: string): boolean => {
  const kind = argTypeOf(surface, name)?.kind;
  return kind === undefined || kind === "string" || kind === "path" || kind === "enum";
};

const isRecord = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why an array cannot be the value of an argument typed to take one value: a path names one file
 *  (joined with commas, `cat a,-n` would run on a file nobody named) and an enum one of its
 *  values. An untyped or string argument takes an array as its JSON, as recipes have always been
 *  able to rely on (`jq --argjson v {items}`), and an `:array` argument takes it as a list. */
function typedArrayProblem(name: string, surface: Pick<ArgSurface, "types">): string | undefined {
  const type = argTypeOf(surface, name);
  if (type?.kind === "path") return `Argument ${name} must be a path, not an array: a path argument names one file (declare ${name}:array to take a list).`;
  if (type?.kind === "enum") return `Argument ${name} must be one of: ${type.values.join(", ")}, not an array.`;
  return undefined;
}

/** The first value, in `values`' order, that is an array given for an argument typed to take one
 *  value (a path, an enum), or undefined: an inline template's values (`spawn`), whose untyped
 *  placeholders take an array whole, as its JSON. */
export function typedArrayValueProblem(values: Readonly<Record<string, unknown>>, surface: Pick<ArgSurface, "types">): string | undefined {
  for (const name of Object.keys(values)) {
    if (!Array.isArray(values[name])) continue;
    const problem = typedArrayProblem(name, surface);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The first problem with the call's own parameters, in their order, or undefined. */
export function checkCallParams(
  params: Readonly<Record<string, unknown>>,
  surface: Pick<ArgSurface, "names" | "types">,
  known: ReadonlySet<string>,
  options: { readonly async: boolean },
): string | undefined {
  for (const name of Object.keys(params)) {
    if (options.async && RUN_PARAMS.includes(name)) continue;
    if (!known.has(name)) {
      const offered = options.async ? [...surface.names, "run_id"] : surface.names;
      return `Unknown argument "${name}".${didYouMean(name, offered)}`;
    }
    const value = params[name];
    if (isRecord(value) && takesText(surface, name)) {
      return `Argument ${name} must be a string.`;
    }
    if (Array.isArray(value)) {
      const problem = typedArrayProblem(name, surface);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** How a template's words read each name, where a value without text of its own would show:
 *  `text` as `{name}` (an object has no text; an array is JSON), `joined` as `{name??…}` (an
 *  array's items joined by commas, so every item), `positions` as `{name[2]}` (that item only),
 *  `named` as `{name[i]}` (the item the value of `i` selects), keyed by the index's name. Each
 *  holds the first placeholder so written, for the message. */
export interface WordUse {
  readonly text?: string;
  readonly joined?: string;
  readonly positions?: ReadonlyMap<number, string>;
  readonly named?: ReadonlyMap<string, string>;
}

/** The word uses of every name the texts read (see WordUse). */
export function wordUses(texts: Iterable<string>): ReadonlyMap<string, WordUse> {
  const uses = new Map<string, WordUse>();
  const note = (name: string, form: "text" | "joined", content: string): void => {
    const use = uses.get(name) ?? {};
    if (use[form] === undefined) uses.set(name, { ...use, [form]: `{${content}}` });
  };
  const noteIndex = <K>(name: string, form: "positions" | "named", key: K, content: string): void => {
    const use = uses.get(name) ?? {};
    const seen = (use[form] ?? new Map<K, string>()) as ReadonlyMap<K, string>;
    if (!seen.has(key)) uses.set(name, { ...use, [form]: new Map(seen).set(key, `{${content}}`) });
  };
  for (const text of texts) {
    eachPlaceholder(text, (content) => {
      const p = parsePlaceholder(content);
      if (p.kind === "simple") note(p.name, "text", content);
      else if (p.kind === "nullish") note(p.name, "joined", content);
      else if (p.kind === "index") {
        if (p.index.kind === "position") noteIndex(p.name, "positions", p.index.position, content);
        else noteIndex(p.name, "named", p.index.name, content);
      }
      // an arithmetic-looking content (`n-2`) is a name when a value has that name
      else if (p.kind === "expression" && isIdentifier(content)) note(content, "text", content);
      return undefined;
    });
  }
  return uses;
}

/** Whether an object is in `v` itself or anywhere in the arrays it nests (walked without
 *  recursion: a parsed value may nest deeper than the stack). */
function holdsObject(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const next = stack.pop();
    if (isRecord(next)) return true;
    if (Array.isArray(next)) for (const item of next) if (typeof item === "object" && item !== null) stack.push(item);
  }
  return false;
}

/** The placeholder that reads item `i` of an array as text, or undefined when none does. An
 *  index named by a value the call holds selects the item that value gives (as the template
 *  does, through Number()); one the call does not hold (a default, a repeat's `index`) may
 *  select any item. */
function itemReader(use: WordUse, i: number, values: Readonly<Record<string, unknown>>): string | undefined {
  const fixed = use.positions?.get(i) ?? use.joined;
  if (fixed !== undefined || use.named === undefined) return fixed;
  for (const [indexName, form] of use.named) {
    if (!Object.hasOwn(values, indexName)) return form;
    const slot = values[indexName];
    if (Number(slot instanceof Origin ? slot.value : slot) === i) return form;
  }
  return undefined;
}

/** The first call value, in `keys` order, that a template word would turn into
 *  `[object Object]`: an object read as `{name}` or `{name??…}`, or an array item holding an
 *  object that a word reads (`{name[0]}` reads item 0 only, `{name??…}` every item, `{name[i]}`
 *  the item `i` selects). A whole array, `{name}`, is its JSON and fine. */
export function objectValueProblem(uses: ReadonlyMap<string, WordUse>, values: Readonly<Record<string, unknown>>, keys: Iterable<string>): string | undefined {
  if (uses.size === 0) return undefined;
  for (const name of keys) {
    const value = values[name];
    if (typeof value !== "object" || value === null) continue;
    const use = uses.get(name);
    if (use === undefined) continue;
    if (!Array.isArray(value)) {
      const form = use.text ?? use.joined;
      if (form !== undefined) return `Argument ${name} must be a string, number, boolean or array: an object has no text for ${form} to put in a command word.`;
      continue;
    }
    if (use.joined === undefined && use.positions === undefined && use.named === undefined) continue;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== "object" || item === null) continue;
      const form = itemReader(use, i, values);
      if (form === undefined || !holdsObject(item)) continue;
      return `Argument ${name}[${i}] must be a string, number or boolean: the template reads the items of ${name} as text (${form}), and an object has none ` +
        `(an array holding objects can only be used whole, as {${name}}, which gives its JSON).`;
    }
  }
  return undefined;
}
