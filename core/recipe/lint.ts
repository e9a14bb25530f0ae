// Authoring warnings: things in a recipe that load fine but are almost certainly mistakes. They
// are advice shown by doctor, the summary and register_tool, never a reason to refuse a recipe.
import type { Json, RecipeConfig } from "../model.js";
import { parseDeclaration } from "../args/declarations.js";
import { isObject, leaves } from "../template/graph.js";
import { closest } from "../suggest.js";
import { RECIPE_FIELDS } from "./fields.js";
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
    labelsIn(node["recover"], out);
  }
  return out;
}

/** Every `output` anywhere in a template graph. */
function outputsIn(node: Json | undefined, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n: Json) => outputsIn(n, out));
  else if (isObject(node)) {
    if (typeof node["output"] === "string" && node["output"] !== "") out.push(node["output"]);
    outputsIn(node["template"], out);
    outputsIn(node["recover"], out);
  }
  return out;
}

/** A `{` with no `}` after it: a placeholder that was never closed and stays literal text. */
const unclosedBrace = (text: string): boolean => {
  const open = text.lastIndexOf("{");
  return open >= 0 && text.indexOf("}", open) < 0;
};

/** `placeholderNames`: the names the template's placeholders mention; `argNames`: the tool's
 * argument names (explicit args when given). Both come from the compile step's one template walk. */
export function authoringWarnings(config: RecipeConfig, placeholderNames: readonly string[], argNames: readonly string[]): RecipeWarning[] {
  const texts: string[] = [];
  for (const key of Object.keys(config.raw)) {
    if (KNOWN_FIELDS.includes(key)) continue;
    const near = closest(key, KNOWN_FIELDS);
    texts.push(`unknown recipe field "${key}"${near === undefined ? " (ignored)" : `; did you mean "${near}"?`}`);
  }
  if (config.args !== undefined) {
    const declared = new Set(config.args.map((a) => parseDeclaration(a).name));
    // an empty explicit list: only the names the placeholders mention
    for (const name of placeholderNames) {
      if (!declared.has(name)) texts.push(`placeholder {${name}} is not declared in "args"; add it so the tool's schema is complete`);
    }
  }
  const descriptions = config.raw["arg_descriptions"];
  if (isObject(descriptions)) {
    for (const key of Object.keys(descriptions)) {
      if (!argNames.includes(key)) texts.push(`"arg_descriptions" names "${key}", which is not an argument of this recipe`);
    }
  }
  const seen = new Set<string>();
  for (const leaf of leaves(config.template)) {
    if (unclosedBrace(leaf.text) && !seen.has(leaf.text)) {
      seen.add(leaf.text);
      texts.push(`unclosed "{" in ${JSON.stringify(leaf.text)}: the text after it is passed literally`);
    }
  }
  const labels = labelsIn(config.template);
  for (const wanted of outputsIn(config.template)) {
    if (!labels.has(wanted)) texts.push(`"output" names "${wanted}", which is no step label; it is ignored and the command's stdout is the result`);
  }
  return texts.map((text) => ({ kind: "authoring", text }));
}
