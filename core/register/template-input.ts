// The `template` parameter checked before anything else happens: null asks for deletion; a
// blank string is refused (pi-actors took it for a deletion too, so that a template built from an
// empty variable, or `template=` with the value forgotten, deleted the tool and answered with
// success); an empty sequence or an expansion error is refused with the expansion's own text,
// anything but a string, sequence or object is refused.
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Json } from "../model.js";
import { isPlainObject, jsonFault } from "../recipe/fields.js";
import { expandLeaves, expansionErrorText } from "../template/expand-leaves.js";
import type { RecipeInputError } from "./texts.js";

export type TemplateIntent = { readonly kind: "delete" } | { readonly kind: "set"; readonly template: Json };

/** Only nested empty sequences: there is nothing at all to run. (Objects, import nodes among
 * them, are judged when the recipe is resolved.) */
const emptySequence = (node: unknown): boolean => Array.isArray(node) && node.every(emptySequence);

export function checkTemplateInput(value: unknown): E.Either<RecipeInputError, TemplateIntent> {
  if (value === null) return E.right({ kind: "delete" });
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed === "" ? E.left({ _tag: "TemplateBlank" }) : E.right({ kind: "set", template: trimmed });
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    if (jsonFault(value) !== undefined) return E.left({ _tag: "TemplateKind" });
    if (emptySequence(value)) return E.left({ _tag: "SequenceEmpty" });
    return pipe(
      expandLeaves(value as Json),
      E.bimap((e): RecipeInputError => ({ _tag: "TemplateExpansion", message: expansionErrorText(e) }), (): TemplateIntent => ({ kind: "set", template: value as Json })),
    );
  }
  return E.left({ _tag: "TemplateKind" });
}
