// The `imports` field: alias -> binding, checked before anything is loaded.
import * as E from "fp-ts/lib/Either.js";
import type { JsonObject } from "../model.js";
import type { RecipeError } from "./recipe-error.js";
import { isPlainObject } from "./fields.js";

export interface ImportBinding {
  readonly alias: string;
  /** the path or bare name to import, as written (trimmed) */
  readonly from: string;
  readonly defaults: JsonObject;
  readonly values: JsonObject;
}

const ALIAS = /^[A-Za-z0-9_.-]+$/;
const EMPTY: JsonObject = {};

const NO_BINDINGS: E.Either<never, readonly ImportBinding[]> = E.right(Object.freeze([]));

const objectOr = (value: unknown): JsonObject => (isPlainObject(value) ? (value as JsonObject) : EMPTY);

/** The bindings in declaration order, or the first problem with one of them. */
export function parseBindings(imports: JsonObject | undefined): E.Either<RecipeError, readonly ImportBinding[]> {
  if (imports === undefined) return NO_BINDINGS;
  const out: ImportBinding[] = [];
  for (const alias of Object.keys(imports)) {
    if (!ALIAS.test(alias)) return E.left({ _tag: "ImportAlias", alias });
    const binding = imports[alias];
    if (typeof binding === "string") {
      out.push({ alias, from: binding.trim(), defaults: EMPTY, values: EMPTY });
      continue;
    }
    if (!isPlainObject(binding)) return E.left({ _tag: "ImportNotBinding", alias });
    const from = binding["from"];
    if (typeof from !== "string" || from.trim() === "") return E.left({ _tag: "ImportWithoutFrom", alias });
    out.push({ alias, from: from.trim(), defaults: objectOr(binding["defaults"]), values: objectOr(binding["values"]) });
  }
  return E.right(out);
}
