// The exact texts register_tool answers with, in one place.

export const INVALID_NAME = "Invalid tool name.";
export const TEMPLATE_REQUIRED_NEW = "Tool template is required for new registrations.";
export const TEMPLATE_REQUIRED = "Tool template is required.";
export const DESCRIPTION_REQUIRED = "Tool description is required unless deleting.";
export const SEQUENCE_EMPTY = "Tool template sequence is empty.";
export const TEMPLATE_KIND = "Tool template must be a string, object, or sequence.";
export const TEMPLATE_BLANK = "Tool template is blank: give the command to run, or template=null to delete the tool.";

/** Why the given parameters make no recipe to write (`registerErrorText` says it in words). */
export type RecipeInputError =
  | { readonly _tag: "DescriptionRequired" }
  | { readonly _tag: "TemplateRequired" }
  | { readonly _tag: "TemplateKind" }
  | { readonly _tag: "SequenceEmpty" }
  | { readonly _tag: "TemplateBlank" }
  /** the template does not expand; `message` is the expansion's own text */
  | { readonly _tag: "TemplateExpansion"; readonly message: string }
  /** the `args` shorthand does not parse; `message` is the parser's own text */
  | { readonly _tag: "ArgsShorthand"; readonly message: string };

export function recipeInputErrorText(e: RecipeInputError): string {
  switch (e._tag) {
    case "DescriptionRequired":
      return DESCRIPTION_REQUIRED;
    case "TemplateRequired":
      return TEMPLATE_REQUIRED;
    case "TemplateKind":
      return TEMPLATE_KIND;
    case "SequenceEmpty":
      return SEQUENCE_EMPTY;
    case "TemplateBlank":
      return TEMPLATE_BLANK;
    case "TemplateExpansion":
    case "ArgsShorthand":
      return e.message;
  }
}

export const reservedName = (name: string): string => `Reserved tool name: ${name}`;
/** Fields without a name: the caller meant a change, and listing the tools would read as one done. */
export const nameRequired = (fields: readonly string[]): string =>
  `Tool name is required: name=<tool> says which tool to create, update or delete (${fields.join(", ")} given without it). Without any field, register_tool lists the tools.`;
export const alreadyRegistered = (name: string): string => `Tool "${name}" already registered. Use update=true to overwrite.`;
/** The name's recipe file is there but does not load: it is no tool (list shows it as a problem),
 *  and "already registered" alone would send the caller looking for a tool. */
export const alreadyAFile = (name: string, path: string, reason: string): string =>
  `Tool "${name}" is not registered, but its recipe file ${path} is there and does not load (${reason}). Use update=true with a template to overwrite it.`;
/** The name's recipe file parses but is no recipe: an update merges the fields given into it, so
 *  the way out is to give the fields that correct it (or delete it). */
export const aBrokenRecipe = (name: string, path: string, reason: string): string =>
  `Tool "${name}" is not registered, but its recipe file ${path} is there and is not a valid recipe (${reason}). Use update=true with the fields that correct it (they replace the file's own), or template=null to delete it.`;
/** The name reached a hand-written recipe file whose name no tool can have: writing it would
 *  report a tool that never appears. `problem` is the loader's own text with its rename. */
export const notAToolFile = (path: string, problem: string): string =>
  `Recipe file ${path} cannot be written as a tool: ${problem}, then update the tool by its new name. Nothing was written (template=null deletes the file).`;
export const notFound = (name: string): string => `Tool "${name}" not found.`;
/** update=true for a name no recipe has, without all a new tool needs. */
export const nothingToUpdate = (name: string, missing: readonly string[]): string =>
  `Tool "${name}" not found, so update=true has nothing to update. To create it, give a description and a template (${missing.join(" and ")} missing).`;
export const deletedTool = (name: string): string => `Deleted tool "${name}". Reload to remove it from the complete registry.`;

export const draftWithFields = (fields: readonly string[]): string =>
  `A promotion writes the draft's own fields; only description may be given with draft= (${fields.join(", ")} given). Promote first, then change the tool with update=true.`;
export const draftOutside = (draftRoot: string): string =>
  `Draft must be under ${draftRoot}. Use inspect target=recipes view=summary to list drafts.`;
export const draftNotFound = (path: string): string => `Draft not found: ${path}`;
/** A symlink in the drafts folder is never followed: it could point at any file. */
export const draftSymlink = (link: string): string =>
  `Draft not promoted: ${link} is a symlink; a draft must be a regular file inside the drafts folder.`;
/** A symlink where the tool's recipe file would be: never written through (it could point at any
 *  file), replaced or removed by register_tool; the operator decides what it should become. */
export const recipeSymlink = (link: string): string =>
  `Tool not changed: ${link} is a symbolic link; a recipe must be a regular file in the recipe folder, and the link makes no tool. Remove the link, or put the file itself in its place, first.`;
/** A folder, FIFO, socket or device where the tool's recipe file would be: register_tool writes
 *  and removes regular files only. */
export const recipeNotAFile = (path: string, kind: "dir" | "other"): string =>
  `Tool not changed: ${path} is ${kind === "dir" ? "a folder" : "a FIFO, socket or device"}, not a recipe file; move it away first.`;
/** A path with a control character names no file anyone meant. */
export const draftControl = (draft: string): string => `Invalid draft path ${JSON.stringify(draft)}: it contains a control character.`;
export const draftInvalid = (reason: string | undefined): string =>
  reason === undefined || reason === "" ? "Draft recipe is invalid." : `Draft recipe is invalid: ${reason}`;

/** A recipe that would not compile is never written (discovery would only report it broken). */
export const recipeInvalid = (reason: string | undefined): string =>
  reason === undefined || reason === "" ? "Tool recipe is invalid." : `Tool recipe is invalid: ${reason}`;

/** A stored file that cannot be read is named, never treated as absent (an update would replace it). */
export const storedUnreadable = (path: string, reason: string): string =>
  `Stored recipe ${path} cannot be updated without a template: ${reason}`;

export const persistFailed = (message: string): string => `Failed to persist tool recipe: ${message}`;
export const deleteFailed = (message: string): string => `Failed to delete tool recipe: ${message}`;
/** A tool's recipe file that could not be read, removed all the same (its content is not needed
 *  to remove it; the usage ledger is not touched by any delete). */
export const deletedUnread = (path: string, reason: string): string =>
  `${path} could not be read (${reason}) and was removed without being read; its usage history is kept.`;
/** A tool with a `.md` and a `.json` file, one or both of which cannot be read: the two are
 *  removed as one journaled change (docs/journal.md), whose journal keeps what each file held and
 *  so must read both; removed one at a time, a crash between could leave half the tool. Every file
 *  that cannot be read is named, so that one fix is enough. */
export const deletePairUnreadable = (unreadable: readonly { readonly path: string; readonly reason: string }[], other: string | undefined): string => {
  const paths = unreadable.map((u) => u.path).join(" ");
  const reasons = [...new Set(unreadable.map((u) => u.reason))].join("; ");
  const what = unreadable.length === 1 ? `${paths} cannot be read (${reasons}), and it is removed together with ${other ?? "the other file"}` : `${unreadable.map((u) => u.path).join(" and ")} cannot be read (${reasons}), and they are removed together`;
  const them = unreadable.length === 1 ? "it" : "them";
  return `Tool not deleted: ${what} only as one journaled change, which reads both files. Make ${them} readable (chmod u+r ${paths}) and delete the tool again, or remove ${them} by hand (rm ${paths}) and delete the tool again.`;
};
/** `why`: the lock's own account (how long it waited, who holds it); the write changed nothing
 *  and may simply be asked again */
export const lockTimedOut = (canonicalPath: string, why?: string): string =>
  `Timed out waiting for file mutation lock: ${canonicalPath}${why === undefined ? "" : ` (${why})`}. Nothing was written; try again.`;

export function registeredText(name: string, args: readonly string[], updated: boolean, warnings: readonly string[]): string {
  const head = `${updated ? "Updated" : "Registered"} tool "${name}" (args: ${args.length === 0 ? "none" : args.join(", ")}).`;
  return warnings.length === 0 ? head : `${head}\nWarnings:\n${warnings.map((w) => `- ${w}`).join("\n")}`;
}

/** An update of a tool written in Markdown writes its JSON twin, which shadows the `.md` from
 *  then on: the answer says so, and what to do to keep one file. */
export const markdownShadowedText = (jsonPath: string, mdPath: string): string =>
  `The tool was the Markdown recipe ${mdPath}; it is now ${jsonPath}, which shadows it: the .md (and its prose) is no longer read, and edits to it change nothing. Remove ${mdPath} to keep one file, or delete ${jsonPath} and edit the .md instead.`;

export const promotedText = (name: string, updated: boolean): string =>
  `${updated ? "Updated" : "Registered"} tool "${name}" from draft recipe.`;
