// The values a tool call runs with: recipe values < tool defaults < call params < injected values,
// normalized by type. This runs on every call, so what depends only on the tool revision is worked
// out once and kept with it, and a call builds its value layer in one pass.
import * as E from "fp-ts/lib/Either.js";
import { MISMATCH, argMismatchText, valueNormalizer } from "../../core/args/arg-type.js";
import { checkCallParams, objectValueProblem, readableNames, wordUses, type WordUse } from "../../core/args/call-check.js";
import { compileArgNormalizer, type ArgNormalizer } from "../../core/args/normalize.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { setOwn } from "../../core/recipe/own.js";
import { createContextCache, type ContextCache } from "../../core/template/context.js";
import { leaves } from "../../core/template/graph.js";
import { authored, type Origin, type Values } from "../../core/template/substitute.js";
import { programOf, type ProgramNode } from "../../core/tool/program.js";

/** What a tool revision needs on every call, computed once. */
export interface PreparedTool {
  /** recipe `values` < top-level `defaults`, plain */
  readonly authoredValues: Readonly<Record<string, unknown>>;
  readonly authoredKeys: readonly string[];
  /** every name a call may give */
  readonly known: ReadonlySet<string>;
  /** the normalizer of each typed name */
  readonly normalizers: ReadonlyMap<string, (value: unknown) => unknown>;
  /** the whole normalizer, for the error of a value that does not fit */
  readonly normalize: ArgNormalizer;
  /** the last `authored(...)` wrapper of each authored value, reused while the value is the same */
  readonly authoredOrigins: Map<string, Origin>;
  /** the template's parsed defaults, kept across the calls of this revision */
  readonly contextCache: ContextCache;
  /** the template as the program execution walks, its leaves split into words once */
  readonly program: ProgramNode;
  /** how the template's words read each name, for values that have no text (objects) */
  readonly wordUses: ReadonlyMap<string, WordUse>;
}

// Keyed by the ToolSpec object, which discovery makes once per file revision.
const prepared = new WeakMap<ToolSpec, PreparedTool>();

export function prepareTool(tool: ToolSpec): PreparedTool {
  let hit = prepared.get(tool);
  if (hit !== undefined) return hit;
  const authoredValues: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tool.config.values ?? {})) setOwn(authoredValues, k, v);
  for (const [k, v] of Object.entries(tool.surface.defaults)) setOwn(authoredValues, k, v);
  const texts = leaves(tool.config.template).map((leaf) => leaf.text);
  const authoredKeys = Object.keys(authoredValues);
  const known = readableNames(texts, tool.surface, authoredKeys);
  const normalizers = new Map(Object.entries(tool.surface.types).map(([name, type]) => [name, valueNormalizer(type)] as const));
  hit = {
    authoredValues,
    authoredKeys,
    known,
    normalizers,
    normalize: compileArgNormalizer(tool.surface),
    authoredOrigins: new Map(),
    contextCache: createContextCache(),
    program: programOf(tool.config.template),
    wordUses: wordUses(texts),
  };
  prepared.set(tool, hit);
  return hit;
}

export type Assembled = { readonly plain: Record<string, unknown>; readonly runtime: Values };

const SYNC = { async: false } as const;
const ASYNC = { async: true } as const;

/** Recipe values < tool defaults < call params < injected values, normalized by type.
 * Recipe-authored values keep their origin (they may hold placeholders); call values are
 * verbatim. Left: the argument error. */
export function assembleValues(
  tool: ToolSpec,
  params: Readonly<Record<string, unknown>>,
  injected?: Readonly<Record<string, unknown>>,
): E.Either<string, Assembled> {
  const r = assemble(tool, params, injected, true);
  return E.isLeft(r) ? r : E.right({ plain: r.right.plain ?? {}, runtime: r.right.runtime });
}

/** assembleValues, with the plain layer built only when `withPlain` (an async run stores it). */
export function assemble(
  tool: ToolSpec,
  params: Readonly<Record<string, unknown>>,
  injected: Readonly<Record<string, unknown>> | undefined,
  withPlain: boolean,
): E.Either<string, { readonly plain: Record<string, unknown> | undefined; readonly runtime: Values }> {
  const prep = prepareTool(tool);
  params = withoutNulls(params);
  const refused = checkCallParams(params, tool.surface, prep.known, tool.async ? ASYNC : SYNC);
  if (refused !== undefined) return E.left(refused);
  const layer = new Layer(prep, withPlain);
  // the keys in the order the merged layers give them: authored ones first, then the call's new
  // ones, then the injected ones; the last layer holding a key gives its value
  for (const k of prep.authoredKeys) {
    const fromInjected = injected !== undefined && Object.hasOwn(injected, k);
    if (fromInjected || Object.hasOwn(params, k)) {
      if (!layer.put(k, fromInjected ? injected[k] : params[k], true)) return mismatch(prep, params, injected);
    } else if (!layer.put(k, prep.authoredValues[k], false)) return mismatch(prep, params, injected);
  }
  for (const k of Object.keys(params)) {
    if (Object.hasOwn(prep.authoredValues, k)) continue;
    const fromInjected = injected !== undefined && Object.hasOwn(injected, k);
    if (!layer.put(k, fromInjected ? injected[k] : params[k], true)) return mismatch(prep, params, injected);
  }
  if (injected !== undefined) {
    for (const k of Object.keys(injected)) {
      if (Object.hasOwn(prep.authoredValues, k) || Object.hasOwn(params, k)) continue;
      if (!layer.put(k, injected[k], true)) return mismatch(prep, params, injected);
    }
  }
  // an array the caller gave (or JSON text an array argument parsed) whose items hold objects
  const objects = objectValueProblem(prep.wordUses, layer.runtime, Object.keys(params));
  if (objects !== undefined) return E.left(objects);
  return E.right({ plain: layer.plain, runtime: layer.runtime });
}

/** A call's null is no value: the argument is absent, so its default applies and a required one
 * is missing. (Taken as "", it ran `printf %s` for a required message, an empty enum value, and
 * `""` in place of a declared default, while the schema the hosts publish says string, integer
 * or one of the values.) The same object when no value is null, as in nearly every call. */
function withoutNulls(params: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  // (a loop over the keys, not Object.values(...).includes(null): that array costs every call
  // some 1.5 µs, a third of the typed call path's budget)
  for (const k of Object.keys(params)) {
    if (params[k] !== null) continue;
    const out: Record<string, unknown> = {};
    for (const j of Object.keys(params)) if (params[j] !== null) setOwn(out, j, params[j]);
    return out;
  }
  return params;
}

class Layer {
  readonly runtime: Record<string, unknown> = {};
  readonly plain: Record<string, unknown> | undefined;
  constructor(private readonly prep: PreparedTool, withPlain: boolean) {
    this.plain = withPlain ? {} : undefined;
  }

  /** Adds one value, normalized by its type; false when it does not fit. */
  put(key: string, value: unknown, fromCaller: boolean): boolean {
    const normalize = this.prep.normalizers.get(key);
    const v = normalize === undefined ? value : normalize(value);
    if (v === MISMATCH) return false;
    setOwn(this.runtime, key, fromCaller ? v : authoredOrigin(this.prep, key, v));
    if (this.plain !== undefined) setOwn(this.plain, key, v);
    return true;
  }
}

// The error of a value that does not fit: the whole normalizer over the merged layers names the
// first one in the call's key order.
function mismatch(prep: PreparedTool, params: Readonly<Record<string, unknown>>, injected: Readonly<Record<string, unknown>> | undefined): E.Either<string, never> {
  const merged: Record<string, unknown> = { ...prep.authoredValues };
  for (const k of Object.keys(params)) setOwn(merged, k, params[k]);
  if (injected !== undefined) for (const k of Object.keys(injected)) setOwn(merged, k, injected[k]);
  const normalized = prep.normalize(merged);
  return E.isLeft(normalized) ? E.left(argMismatchText(normalized.left)) : E.left("");
}

// An Origin is immutable: the wrapper of an unchanged authored value is shared by the calls.
function authoredOrigin(prep: PreparedTool, key: string, value: unknown): Origin {
  const hit = prep.authoredOrigins.get(key);
  if (hit !== undefined && Object.is(hit.value, value)) return hit;
  const origin = authored(value);
  prep.authoredOrigins.set(key, origin);
  return origin;
}
