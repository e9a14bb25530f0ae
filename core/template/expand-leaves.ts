// A static walk of a template graph to every leaf it would run, repeats expanded and contexts
// built, without executing anything (register_tool uses it to check a template against values).
import * as E from "fp-ts/lib/Either.js";
import type { Json } from "../model.js";
import { controlScope, type Context, nodeContext, rootContext } from "./context.js";
import type { TemplateFailure } from "./failure.js";
import { isObject } from "./graph.js";
import { COMMAND_LIMIT, expandRepeat, repeatCount, tooManyCommandsText } from "./repeat.js";
import type { Values } from "./substitute.js";
import { EMPTY_VALUES } from "./substitute.js";
import { FIELD } from "../recipe/fields.js";


export interface ExpandedLeaf {
  readonly text: string;
  /** the label of the object node whose template is this text */
  readonly label: string | undefined;
  readonly context: Context;
}

export const DEFAULT_LEAF_LIMIT = COMMAND_LIMIT;

/** Why a template cannot be expanded: more leaves than the limit, or a `repeat` that is no count. */
export type ExpansionError =
  | { readonly _tag: "TooManyCommands"; readonly limit: number }
  | { readonly _tag: "Repeat"; readonly failure: TemplateFailure };

export function expansionErrorText(e: ExpansionError): string {
  switch (e._tag) {
    case "TooManyCommands":
      return tooManyCommandsText(e.limit);
    case "Repeat":
      return e.failure.message;
  }
}

/** Every leaf (including `recover` leaves) with its context, repeats expanded; `when` and
 * `delay` are not evaluated. A `{name.length}` repeat without a value counts as no repeat. */
export function expandLeaves(template: Json, runtime: Values = EMPTY_VALUES, limit: number = DEFAULT_LEAF_LIMIT): E.Either<ExpansionError, readonly ExpandedLeaf[]> {
  const out: ExpandedLeaf[] = [];
  const tooMany: ExpansionError = { _tag: "TooManyCommands", limit };
  const walk = (node: Json | undefined, context: Context): ExpansionError | undefined => {
    if (typeof node === "string") {
      if (out.length >= limit) return tooMany;
      out.push({ text: node, label: undefined, context });
      return undefined;
    }
    if (Array.isArray(node)) {
      for (const step of node) {
        const err = walk(step, context);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    const ctx = nodeContext(context, node, runtime);
    const count = repeatCount(node[FIELD.repeat], controlScope(ctx, runtime));
    if (E.isLeft(count)) return { _tag: "Repeat", failure: count.left };
    if (typeof count.right === "number") {
      if (count.right > limit) return tooMany;
      return walk(expandRepeat(node, count.right), ctx);
    }
    const t = node["template"];
    if (typeof t === "string") {
      if (out.length >= limit) return tooMany;
      out.push({ text: t, label: typeof node["label"] === "string" ? node["label"] : undefined, context: ctx });
    } else {
      const err = walk(t, ctx);
      if (err !== undefined) return err;
    }
    return walk(node[FIELD.recover], ctx);
  };
  const err = walk(template, rootContext());
  return err === undefined ? E.right(out) : E.left(err);
}
