// Typed normalization of tool-call values before substitution.
import * as E from "fp-ts/lib/Either.js";
import type { ArgType } from "../model.js";
import type { ArgSurface } from "../tool/tool-spec.js";
import { type ArgMismatch, MISMATCH, valueNormalizer } from "./arg-type.js";

export type ArgNormalizer = (values: Readonly<Record<string, unknown>>) => E.Either<ArgMismatch, Record<string, unknown>>;

interface TypedName {
  readonly name: string;
  readonly type: ArgType;
  readonly normalize: (value: unknown) => unknown;
}

// Reported in the call's key order, so the message does not depend on declaration order;
// `failed` is the value already found not to fit, which the loop meets at the latest.
function firstMismatch(typed: readonly TypedName[], values: Readonly<Record<string, unknown>>, failed: TypedName): ArgMismatch {
  for (const key of Object.keys(values)) {
    const t = typed.find((x) => x.name === key);
    if (t !== undefined && t.normalize(values[key]) === MISMATCH) return { _tag: "ArgMismatch", name: key, type: t.type };
  }
  return { _tag: "ArgMismatch", name: failed.name, type: failed.type };
}

/** Compiles the normalizer of one surface; it runs on every tool call, so per-type work is done
 * here once. Values whose name has a known type are normalized (ints and numbers to numeric
 * text, bools to `true`/`false`, arrays parsed from JSON text); other values pass through. */
export function compileArgNormalizer(surface: Pick<ArgSurface, "types">): ArgNormalizer {
  const typed: TypedName[] = Object.entries(surface.types).map(([name, type]) => ({ name, type, normalize: valueNormalizer(type) }));
  return (values) => {
    // A key is set only when the call has it, so it is already an own data property of this copy;
    // assigning to it changes that property, for `__proto__` too (a parsed call's `__proto__` is an
    // ordinary key, and the copy's own property shadows the prototype setter).
    const out: Record<string, unknown> = { ...values };
    for (const t of typed) {
      if (!Object.hasOwn(values, t.name)) continue;
      const next = t.normalize(values[t.name]);
      if (next === MISMATCH) return E.left(firstMismatch(typed, values, t));
      out[t.name] = next;
    }
    return E.right(out);
  };
}

/** The first value that does not fit its type, in the call's key order, gives the error. */
export function normalizeArgs(
  surface: Pick<ArgSurface, "types">,
  values: Readonly<Record<string, unknown>>,
): E.Either<ArgMismatch, Record<string, unknown>> {
  return compileArgNormalizer(surface)(values);
}
