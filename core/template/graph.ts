// Walking a command-template graph without executing it.
import type { Json, JsonObject } from "../model.js";
import { FIELD } from "../recipe/fields.js";

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export interface Leaf {
  readonly text: string;
  /** the nearest enclosing node label */
  readonly label?: string;
}

/** Every string leaf of a template graph, including `recover` subtrees, in document order. */
export function leaves(template: Json | undefined, label?: string): Leaf[] {
  if (typeof template === "string") return [label === undefined ? { text: template } : { text: template, label }];
  if (Array.isArray(template)) return template.flatMap((t: Json) => leaves(t, label));
  if (isObject(template)) {
    const own = typeof template["label"] === "string" ? template["label"] : label;
    return [...leaves(template["template"], own), ...leaves(template[FIELD.recover], own)];
  }
  return [];
}
