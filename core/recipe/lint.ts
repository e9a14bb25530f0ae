// Authoring warnings: things in a recipe that load fine but are almost certainly mistakes. They
// are advice shown by doctor, the summary and register_tool, never a reason to refuse a recipe.
import type { Json, RecipeConfig } from "../model.js";
import { parseDeclaration } from "../args/declarations.js";
import { readableNames } from "../args/call-check.js";
import { isObject } from "../template/graph.js";
import { writtenAsDigits } from "../template/repeat.js";
import { closest } from "../suggest.js";
import { FIELD, RECIPE_FIELDS } from "./fields.js";
import type { RecipeWarning } from "../compile/recipe-warning.js";

/** A field a recipe may hold besides the ones the loader decodes: `name` (ignored: the file name
 * wins). */
const EXTRA_FIELDS: readonly string[] = ["name"];
const KNOWN_FIELDS: readonly string[] = [...Object.keys(RECIPE_FIELDS), ...EXTRA_FIELDS];

/** Every `label` anywhere in a template graph (recover subtrees included). */
export function labelsIn(node: Json | undefined, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((n: Json) => labelsIn(n, out));
  else if (isObject(node)) {
    if (typeof node["label"] === "string") out.add(node["label"]);
    labelsIn(node["template"], out);
    labelsIn(node[FIELD.recover], out);
  }
  return out;
}

/** Every `output` anywhere in a template graph (created on the first: most graphs have none). */
function outputsIn(node: Json | undefined, out: string[] | undefined): string[] | undefined {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) out = outputsIn(node[i], out);
  } else if (isObject(node)) {
    if (typeof node["output"] === "string" && node["output"] !== "") (out ??= []).push(node["output"]);
    out = outputsIn(node["template"], out);
    out = outputsIn(node[FIELD.recover], out);
  }
  return out;
}

/** How many nodes hold a `recover` that can never run: it runs between the attempts of a group
 *  `retry`, so a node without a `retry`, or with a literal one below 2, never runs it (a retry
 *  given by a placeholder is known only when the call runs). */
function idleRecovers(node: Json | undefined, count: number): number {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) count = idleRecovers(node[i], count);
  } else if (isObject(node)) {
    const retry = node[FIELD.retry];
    // a retry written as a number, or as digits (a placeholder is known only at run time)
    const attempts = typeof retry === "number" ? retry : writtenAsDigits(retry) ? Number(retry) : Number.NaN;
    if (node[FIELD.recover] !== undefined && (retry === undefined || attempts < 2)) count += 1;
    count = idleRecovers(node["template"], count);
    count = idleRecovers(node[FIELD.recover], count);
  }
  return count;
}

/** The leaf texts holding a `{` with no `}` after it (a placeholder that was never closed and
 * stays literal text), each once, in document order (`recover` subtrees included). */
function unclosedIn(node: Json | undefined, out: string[] | undefined): string[] | undefined {
  if (typeof node === "string") {
    const open = node.lastIndexOf("{");
    if (open >= 0 && node.indexOf("}", open) < 0 && out?.includes(node) !== true) (out ??= []).push(node);
  } else if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) out = unclosedIn(node[i], out);
  } else if (isObject(node)) {
    out = unclosedIn(node["template"], out);
    out = unclosedIn(node[FIELD.recover], out);
  }
  return out;
}

const BARE_NAME = /^!?\s*([A-Za-z_][A-Za-z0-9_-]*)$/;

/** Every name any text of the recipe can read (`template`, `defaults`, `values`, at any depth):
 *  the identifiers inside its placeholders in any form (readableNames: `{name}`, `{name.length}`,
 *  `{items[name]}`, `{(name+1)}`, `{name?a:b}`), and a text that is a bare name (`when: name`,
 *  `when: "!name"`); declarations (`args`) are no read. Deliberately broad: a name read anywhere
 *  is never called unused. */
function namesReadAnywhere(config: RecipeConfig): Set<string> {
  const texts: string[] = [];
  const bare: string[] = [];
  const walk = (value: Json | undefined): void => {
    if (typeof value === "string") {
      texts.push(value);
      const m = BARE_NAME.exec(value.trim());
      if (m !== null) bare.push(m[1]!);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) for (const k of Object.keys(value)) if (k !== "args") walk(value[k] as Json);
  };
  walk(config.template);
  walk(config.defaults as Json | undefined);
  walk(config.values as Json | undefined);
  return readableNames(texts, { names: [] }, bare);
}

const KNOWN: ReadonlySet<string> = new Set(KNOWN_FIELDS);
const NO_WARNINGS: readonly RecipeWarning[] = Object.freeze([]);

const declares = (args: readonly string[], name: string): boolean => {
  for (let i = 0; i < args.length; i++) if (parseDeclaration(args[i]!).name === name) return true;
  return false;
};

/** `placeholderNames`: the names the template's placeholders mention; `argNames`: the tool's
 * argument names (explicit args when given); `namesRead`: the names its texts read, declarations
 * left out. All come from the compile step's one template walk. */
export function authoringWarnings(
  config: RecipeConfig, placeholderNames: readonly string[], argNames: readonly string[], namesRead: readonly string[] = placeholderNames,
): readonly RecipeWarning[] {
  // every recipe of a discovery runs this and nearly all of them warn of nothing: nothing is
  // allocated until there is something to say
  let texts: string[] | undefined;
  for (const key of Object.keys(config.raw)) {
    if (KNOWN.has(key)) continue;
    const near = closest(key, KNOWN_FIELDS);
    (texts ??= []).push(`unknown recipe field "${key}"${near === undefined ? " (ignored)" : `; did you mean "${near}"?`}`);
  }
  const args = config.args;
  if (args !== undefined) {
    // an empty explicit list: only the names the placeholders mention
    for (const name of placeholderNames) {
      if (!declares(args, name)) (texts ??= []).push(`placeholder {${name}} is not declared in "args"; add it so the tool's schema is complete`);
    }
  }
  if (args !== undefined) {
    // a declared argument no text reads: the schema asks callers for a value that does nothing
    // (the whole recipe is looked through only for a name the template survey did not see)
    let anywhere: Set<string> | undefined;
    for (const token of args) {
      const name = parseDeclaration(token).name;
      if (name === "" || namesRead.includes(name) || (anywhere ??= namesReadAnywhere(config)).has(name)) continue;
      (texts ??= []).push(`"args" declares "${name}", which nothing in the template reads: the tool takes it and does nothing with it; remove it or use {${name}}`);
    }
  }
  const descriptions = config.raw[FIELD.arg_descriptions];
  if (isObject(descriptions)) {
    for (const key of Object.keys(descriptions)) {
      if (!argNames.includes(key)) (texts ??= []).push(`"arg_descriptions" names "${key}", which is not an argument of this recipe`);
    }
  }
  for (const text of unclosedIn(config.template, undefined) ?? NO_TEXTS) {
    (texts ??= []).push(`unclosed "{" in ${JSON.stringify(text)}: the text after it is passed literally`);
  }
  // (the recipe's own controls are the template's outer node here)
  const idle = idleRecovers(config.template, 0);
  if (idle > 0) {
    (texts ??= []).push(
      `"recover" ${idle === 1 ? "is on a node" : `is on ${idle} nodes`} without a "retry" of 2 or more: it runs only between the attempts of a retry, so it never runs; add "retry": 2 (or more) beside it`,
    );
  }
  const outputs = outputsIn(config.template, undefined);
  if (outputs !== undefined) {
    const labels = labelsIn(config.template);
    for (const wanted of outputs) {
      if (!labels.has(wanted)) (texts ??= []).push(`"output" names "${wanted}", which is no step label; it is ignored and the command's stdout is the result`);
    }
  }
  return texts === undefined ? NO_WARNINGS : texts.map((text) => ({ kind: "authoring", text }));
}

const NO_TEXTS: readonly string[] = Object.freeze([]);
