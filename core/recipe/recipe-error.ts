// Why a recipe file is not a recipe: every failure of the compile pipeline (load, imports and
// delegation, the template's structure, the argument declarations) as a tagged value, and the one
// function that words it (`recipeProblem`). The texts are fixed: existing agents and scripts
// match on them, and the diagnostics of discovery print them as they are
// (core/discovery/problem.ts adds the path).
import type { ArgType, RecipeProblem } from "../model.js";
import { argKindLabel, mismatchMessage } from "../args/arg-type.js";
import { type Declaration, unknownTypeMessage } from "../args/declarations.js";
import { FIELD } from "./fields.js";
import { type MarkdownError, markdownErrorText } from "./markdown.js";

export type RecipeError =
  // the file
  | { readonly _tag: "TooLarge"; readonly path: string; readonly limit: number }
  /** the reader's own message (an errno text) */
  | { readonly _tag: "ReadFailed"; readonly message: string }
  /** the reader gave no bytes and no reason */
  | { readonly _tag: "Unreadable"; readonly path: string }
  /** `offset` of the first bad byte, or -1 when the decoder refused bytes the byte check accepts */
  | { readonly _tag: "NotUtf8"; readonly offset: number }
  /** the JSON engine's message without any quoted file text, with its line and column */
  | { readonly _tag: "JsonSyntax"; readonly message: string }
  | { readonly _tag: "Markdown"; readonly error: MarkdownError }
  /** a field the field table refuses, worded by the decoder from the table (core/recipe/decode.ts) */
  | { readonly _tag: "Decode"; readonly problem: RecipeProblem }
  // imports and delegation (`chain` runs from the outermost recipe to the one refused)
  | { readonly _tag: "ImportAlias"; readonly alias: string }
  | { readonly _tag: "ImportNotBinding"; readonly alias: string }
  | { readonly _tag: "ImportWithoutFrom"; readonly alias: string }
  /** `invalid`: the import's file is there but is no valid recipe (its path and why) */
  | { readonly _tag: "ImportNotFound"; readonly alias: string; readonly invalid?: { readonly path: string; readonly error: RecipeError } }
  | { readonly _tag: "ImportCycle"; readonly chain: readonly string[] }
  | { readonly _tag: "ImportTooDeep"; readonly chain: readonly string[]; readonly limit: number }
  /** an import node `{ "name": alias }` naming no import */
  | { readonly _tag: "UnknownImport"; readonly alias: string }
  /** a `{alias.field}` reference naming nothing the import has */
  | { readonly _tag: "UnknownImportReference"; readonly reference: string }
  | { readonly _tag: "DelegateWithoutTemplate"; readonly target: string }
  | { readonly _tag: "DelegateDisabled"; readonly target: string }
  /** the recipe's own sandbox confines less than that of a recipe whose commands it runs */
  | { readonly _tag: "SandboxWeakerThanPlaced"; readonly placed: string }
  /** the recipe has no sandbox and the recipes whose commands it runs ask for different ones */
  | { readonly _tag: "PlacedSandboxesDiffer"; readonly first: string; readonly other: string }
  // the resolved recipe
  /** the template's first structural error, worded by the template survey */
  | { readonly _tag: "InvalidTemplate"; readonly message: string }
  | { readonly _tag: "ArgWithoutName"; readonly token: string }
  | { readonly _tag: "UnknownArgType"; readonly declaration: Declaration }
  | { readonly _tag: "InvalidDefault"; readonly name: string; readonly type: ArgType }
  | { readonly _tag: "DefaultMismatch"; readonly name: string; readonly type: ArgType }
  /** the last guard: something threw while a hostile file was read */
  | { readonly _tag: "Thrown"; readonly message: string };

const failed = (message: string): RecipeProblem => ({ kind: "failed", message });
const invalid = (message: string): RecipeProblem => ({ kind: "invalid", message });
const invalidField = (field: string, message: string): RecipeProblem => ({ kind: "invalid", field, message });

/**
 * The problem a recipe error shows: `failed` when the file could not be loaded or its imports not
 * resolved (`Failed to load recipe <path>: ...`), `invalid` when it loaded but is not a recipe
 * (`Invalid recipe: <path>: ...`), with the field at fault where there is one.
 */
export function recipeProblem(e: RecipeError): RecipeProblem {
  switch (e._tag) {
    case "TooLarge":
      return failed(`Recipe file exceeds size limit ${e.limit} bytes: ${e.path}`);
    case "ReadFailed":
      return failed(e.message);
    case "Unreadable":
      return failed(`Recipe file could not be read: ${e.path}`);
    case "NotUtf8":
      return invalid(e.offset < 0 ? "file is not valid UTF-8 text" : `file is not valid UTF-8 text (invalid byte at offset ${e.offset})`);
    case "JsonSyntax":
      return invalid(e.message);
    case "Markdown":
      return invalid(markdownErrorText(e.error));
    case "Decode":
      return e.problem;
    case "ImportAlias":
      return failed(`Invalid recipe import alias: ${e.alias}`);
    case "ImportNotBinding":
      return failed(`Recipe import must be a string or object: ${e.alias}`);
    case "ImportWithoutFrom":
      return failed(`Recipe import must define from: ${e.alias}`);
    case "ImportNotFound":
      // "not found" for any import that resolves to nothing; a file that is there but is no
      // recipe also says which file, and why
      return failed(e.invalid === undefined ? `Recipe import not found: ${e.alias}` : `Recipe import not found: ${e.alias} (${e.invalid.path} is not a valid recipe: ${recipeProblem(e.invalid.error).message})`);
    case "ImportCycle":
      return failed(`Cyclic recipe import: ${e.chain.join(" -> ")}`);
    case "ImportTooDeep":
      return failed(`Recipe import depth exceeds limit ${e.limit}: ${e.chain.join(" -> ")}`);
    case "UnknownImport":
      return failed(`Unknown recipe import: ${e.alias}`);
    case "UnknownImportReference":
      return failed(`Unknown recipe import reference: ${e.reference}`);
    case "DelegateWithoutTemplate":
      return failed(`Template recipe must define template: ${e.target}`);
    case "DelegateDisabled":
      return failed(`Template recipe is disabled: ${e.target}`);
    case "SandboxWeakerThanPlaced":
      return invalidField(FIELD.sandbox, `sandbox confines less than that of ${e.placed}, whose commands this recipe runs: give this recipe a sandbox at least as strict (no network where it has none, no other write path, every read_deny path), or none to take that one`);
    case "PlacedSandboxesDiffer":
      return invalidField(FIELD.sandbox, `the recipes whose commands this recipe runs ask for different sandboxes (${e.first} and ${e.other}): give this recipe a sandbox at least as strict as each`);
    case "InvalidTemplate":
      return invalidField(FIELD.template, e.message);
    case "ArgWithoutName":
      return invalidField(FIELD.args, `field "args" has an entry without a name: ${JSON.stringify(e.token)}`);
    case "UnknownArgType":
      return invalidField(FIELD.args, unknownTypeMessage(e.declaration));
    case "InvalidDefault":
      return invalidField(FIELD.args, `field "args": Invalid default for ${e.name}:${argKindLabel(e.type)}`);
    case "DefaultMismatch":
      return invalidField(FIELD.defaults, `field "defaults.${e.name}": ${mismatchMessage(e.name, e.type)}`);
    case "Thrown":
      return failed(e.message);
  }
}
