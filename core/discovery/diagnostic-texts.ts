// The texts of the registry's own diagnostics about a bucket of recipes sharing one name, written
// in one place: discovery emits them, and the views find which entry each is about and what kind
// it is by building the same texts from the discovery, never by matching a text's shape.
import { basename, recipeFileName } from "./paths.js";

export const invalidBlocks = (id: string): string => `Recipe ${id} is invalid and blocks lower-priority recipes`;
export const disabledBlocks = (id: string): string => `Recipe ${id} is disabled and blocks lower-priority recipes`;
export const shadowsLower = (id: string, count: number): string => `Recipe ${id} shadows ${count} lower-priority recipe(s)`;
export const markdownShadowed = (markdownPath: string, jsonPath: string): string =>
  `Markdown recipe ${markdownPath} is shadowed by JSON recipe ${jsonPath}`;
/** A symbolic link named like a recipe in a recipe root: never followed (it could point at any
 *  file), and said, so that a linked recipe is not silently missing from the tools. */
export const linkedRecipe = (path: string): string =>
  `Recipe file ${path} is a symbolic link and was not loaded: a recipe must be a regular file in the recipe folder (the folder itself may be a link)`;
/** An entry of a recipe root that was meant as a recipe, by its name, but is none: a folder
 *  named like a recipe file, or a file whose name misses (core/discovery/paths.ts misnamedRecipe).
 *  Said, so that the recipe is not silently missing from the tools. */
export const strayEntry = (path: string): string => {
  const name = basename(path);
  if (recipeFileName(name) !== undefined) return `Recipe file ${path} is a folder and was not loaded: a recipe must be a regular file in the recipe folder`;
  const dot = name.lastIndexOf(".");
  const ending = name.slice(dot + 1).toLowerCase();
  if (ending === "json" || ending === "md")
    return `Recipe file ${path} was not loaded: a recipe file's name ends in .json or .md, in lower case: rename it to ${name.slice(0, dot)}.${ending}`;
  return `Recipe file ${path} was not loaded: a recipe is a .json file, or a .md file with its fields as YAML frontmatter`;
};
/** A recipe root that is there but could not be listed: the tools it holds are unknown. */
export const unlistedRoot = (root: string, error: string): string => `Failed to inspect recipe root ${root}: ${error}`;
/** A recipe root that is there and is no folder (a file, say): it holds no recipes, and nothing
 *  (a recipe, a draft, a lock, a ledger) can be written in it until it is moved away. */
export const rootNotAFolder = (root: string, kind: "file" | "other"): string =>
  `Recipe root ${root} is ${kind === "file" ? "a file" : "a FIFO, socket or device"}, not a folder: it holds no recipes and nothing can be written in it; move it away (the folder is made again when first needed)`;
/** The drafts folder that is there and is no folder: no draft can be read from it. */
export const draftsNotAFolder = (dir: string, kind: "file" | "other"): string =>
  `Drafts folder ${dir} is ${kind === "file" ? "a file" : "a FIFO, socket or device"}, not a folder: it holds no drafts; move it away (spawn makes the folder again when it keeps a draft)`;
/** The drafts folder that is there but could not be listed: its drafts are unknown (none is
 *  counted, shown or reviewed while it lasts). */
export const unlistedDrafts = (dir: string, error: string): string => `Drafts folder ${dir} could not be listed: ${error}`;
export const notExposed = (id: string, reason: string): string => `Recipe ${id} could not be exposed as a tool: ${reason}`;
export { reservedName } from "../register/texts.js";
/** A recipe of the user recipe root named like a built-in tool: said of its file, so that the
 *  recipe is not silently missing from the tools. */
export const reservedRecipe = (path: string, id: string): string =>
  `Recipe file ${path} is not registered: "${id}" is the name of a built-in tool, and a recipe named like a built-in tool is never a tool; rename the file`;
