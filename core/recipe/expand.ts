// Expanding a template graph: import nodes `{ "name": alias }` and
// recipe references in string leaves. Expanded content comes from already resolved recipes,
// so it is placed as is and never walked again.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject, RecipeConfig } from "../model.js";
import type { RecipeError } from "./recipe-error.js";
import { FIELD, hasOwn, isPlainObject } from "./fields.js";
import { isEmpty, overlay, setOwn } from "./own.js";
import type { ImportRecord } from "./references.js";
import type { SandboxField } from "../sandbox/field.js";

export interface ImportedRecipe extends ImportRecord {
  /** the imported recipe's resolved template */
  readonly template: Json;
  /** the imported recipe's `arg_descriptions` */
  readonly descriptions?: Readonly<Record<string, string>>;
  /** the imported recipe's own `sandbox` (as resolved): its commands run at least that confined */
  readonly sandbox?: SandboxField;
}

export interface ExpandEnv {
  readonly imports: ReadonlyMap<string, ImportedRecipe>;
  /** the resolved recipe a template string delegates to, or undefined when the string is a command */
  readonly delegate: (text: string) => E.Either<RecipeError, RecipeConfig | undefined>;
  /** told of each import placed in the graph */
  readonly placed?: (imported: ImportedRecipe) => void;
}

export interface Expanded {
  readonly template: Json;
  /** set when the whole template was one recipe reference (direct delegation) */
  readonly delegatedTo?: RecipeConfig;
}

const EMPTY: JsonObject = {};
const isObject = (v: Json | undefined): v is JsonObject => isPlainObject(v);
const objectOr = (v: Json | undefined): JsonObject => (isObject(v) ? v : EMPTY);

/** Keys a node uses to say what to place; every other key of the node overrides the placed template. */
const NODE_ONLY = new Set(["name", "template", "values", "defaults"]);

/** `target` placed where `node` was, overridden by the node's own keys, with `defaults` as given. */
export function placeTemplate(target: Json, node: JsonObject, defaults: JsonObject): Json {
  const out: Record<string, Json> = {};
  if (isObject(target)) {
    for (const key of Object.keys(target)) setOwn(out, key, target[key] as Json);
    for (const key of Object.keys(node)) if (!NODE_ONLY.has(key)) setOwn(out, key, node[key] as Json);
    if (!isEmpty(defaults) || hasOwn(target, "defaults")) setOwn(out, "defaults", defaults);
    return out;
  }
  for (const key of Object.keys(node)) {
    if (key === "defaults" && !isEmpty(defaults)) setOwn(out, key, defaults);
    else if (!NODE_ONLY.has(key)) setOwn(out, key, node[key] as Json);
  }
  if (!hasOwn(out, "defaults") && !isEmpty(defaults)) setOwn(out, "defaults", defaults);
  if (isEmpty(out)) return target;
  setOwn(out, "template", target);
  return out;
}

/**
 * Layering: imported defaults < binding values < node defaults < node values; an object
 * template then layers its own defaults under that and the node defaults over it once more (kept
 * because existing recipes depend on that order).
 */
export function importDefaults(imported: ImportedRecipe, node: JsonObject): JsonObject {
  const nodeDefaults = objectOr(node["defaults"]);
  const merged = overlay(imported.defaults, imported.values, nodeDefaults, objectOr(node["values"]));
  return isObject(imported.template) ? overlay(objectOr(imported.template["defaults"]), merged, nodeDefaults) : merged;
}

/** Layering: the target's template defaults < the target's values < the referring node's defaults. */
export function delegationDefaults(target: RecipeConfig, node: JsonObject): JsonObject {
  const own = isObject(target.template) ? objectOr(target.template["defaults"]) : undefined;
  return overlay(own, target.values, objectOr(node["defaults"]));
}

const isImportNode = (node: JsonObject): boolean => typeof node["name"] === "string" && !hasOwn(node, "template");

interface Walked {
  readonly value: Json;
  readonly target?: RecipeConfig;
}

function walk(node: Json, env: ExpandEnv): E.Either<RecipeError, Json> {
  if (typeof node === "string") {
    const target = env.delegate(node);
    if (E.isLeft(target)) return target;
    return E.right(target.right === undefined ? node : placeTemplate(target.right.template, EMPTY, delegationDefaults(target.right, EMPTY)));
  }
  if (Array.isArray(node)) {
    let out: Json[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const item = walk(node[i] as Json, env);
      if (E.isLeft(item)) return item;
      if (item.right !== node[i]) (out ??= node.slice())[i] = item.right;
    }
    return E.right(out ?? node);
  }
  if (isObject(node)) return E.map((w: Walked) => w.value)(walkObject(node, env));
  return E.right(node);
}

/** A copy of `node` with `key` walked, or `node` itself when nothing there changed. */
function walkKey(node: JsonObject, key: string, env: ExpandEnv): E.Either<RecipeError, JsonObject> {
  if (!hasOwn(node, key)) return E.right(node);
  const walked = walk(node[key] as Json, env);
  if (E.isLeft(walked)) return walked;
  if (walked.right === node[key]) return E.right(node);
  const out = overlay(node);
  setOwn(out, key, walked.right);
  return E.right(out);
}

function walkObject(original: JsonObject, env: ExpandEnv): E.Either<RecipeError, Walked> {
  // `recover` is a command template too: expanded here, so a broken one fails at load time, not after the failure it was to handle
  const withRecover = walkKey(original, FIELD.recover, env);
  if (E.isLeft(withRecover)) return withRecover;
  const node = withRecover.right;
  if (isImportNode(node)) {
    const alias = node["name"] as string;
    const imported = env.imports.get(alias);
    if (imported === undefined) return E.left({ _tag: "UnknownImport", alias });
    env.placed?.(imported);
    return E.right({ value: placeTemplate(imported.template, node, importDefaults(imported, node)) });
  }
  const template = node["template"];
  if (typeof template !== "string") return E.map((value: Json): Walked => ({ value }))(walkKey(node, "template", env));
  const target = env.delegate(template);
  if (E.isLeft(target)) return target;
  if (target.right === undefined) return E.right({ value: node });
  return E.right({ value: placeTemplate(target.right.template, node, delegationDefaults(target.right, node)), target: target.right });
}

/** Expands a recipe's template envelope; reports the target when the envelope itself delegates. */
export function expandTemplate(envelope: Json, env: ExpandEnv): E.Either<RecipeError, Expanded> {
  if (typeof envelope === "string") {
    const target = env.delegate(envelope);
    if (E.isLeft(target)) return target;
    if (target.right === undefined) return E.right({ template: envelope });
    return E.right({ template: placeTemplate(target.right.template, EMPTY, delegationDefaults(target.right, EMPTY)), delegatedTo: target.right });
  }
  if (isObject(envelope)) {
    const walked = walkObject(envelope, env);
    if (E.isLeft(walked)) return walked;
    return E.right(walked.right.target === undefined ? { template: walked.right.value } : { template: walked.right.value, delegatedTo: walked.right.target });
  }
  return E.map((template: Json): Expanded => ({ template }))(walk(envelope, env));
}
