// Compiling a Markdown recipe into the raw recipe object: the
// frontmatter merged with the first executable fence. Prose around the fence is documentation.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { hasOwn, isPlainObject } from "./fields.js";
import { LINE_BREAK, parseFrontmatter } from "./frontmatter.js";
import { duplicateKeysOf, type DuplicateKey } from "./duplicate-keys.js";

export const MD_NO_FRONTMATTER = "Markdown recipe must start with frontmatter";
export const MD_UNCLOSED_FRONTMATTER = "Markdown recipe frontmatter is not closed";
export const MD_BAD_FRONTMATTER = "Markdown recipe frontmatter is not valid YAML";
export const MD_NO_FENCE = "Markdown recipe has no executable recipe/template fence";

/** A fence opens on a line of three or more backticks or tildes and the info string; a backtick
 *  fence's info string has no backtick (such a line is text). It closes on a line of the same
 *  character at least as many times, then nothing but white space; until then every line is the
 *  fence's content, so a fence quoted inside another (a `~~~markdown` or four-backtick block
 *  showing an example) is content, never a fence. Only backtick fences can be the recipe's: a
 *  tilde fence is always prose. Either may be indented by any white space: a recipe's fence nested
 *  under a list item is indented four spaces or more, and recipes written so have always worked
 *  (lists are not modelled, so an indented code block's lines are not told apart from them). */
const OPENING_FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

/** Words that mark a fence as the recipe's, strongest first: a fence that names a recipe,
 *  template or command wins over one whose language is JSON (which may be an example of output
 *  in the prose, ahead of the template), whatever their order. The marker is the info string's
 *  first word (`template`) or the word right after its language (`bash template`, `json recipe`).
 *  Words are separated by white space and compared whole, so `jsonl`, `geojson`, `commands`,
 *  `shell-command` or `sh title="template.sh"` mark nothing; nor does a word further on
 *  (`text this is not the template`): that is a note on an example. */
const NAMING_WORDS = ["recipe", "template", "command"];
const JSON_WORD = "json";
const JSON_WORDS = ["json", "recipe"];

interface Fence {
  /** the (trimmed, lower-cased) info string's first two words: its language and the word that may mark it */
  readonly marks: readonly string[];
  /** trimmed */
  readonly body: string;
  /** the opening line, 0-based in the lines searched */
  readonly line: number;
  /** where the trimmed body starts: its line, 0-based in the lines searched, and its column there, 0-based */
  readonly bodyLine: number;
  readonly bodyColumn: number;
}

/** A fence's content lines as its trimmed body, with where that body starts (see Fence). */
function fenceOf(marks: readonly string[], lines: readonly string[], open: number, close: number): Fence {
  const content = lines.slice(open + 1, close).join("\n");
  const body = content.trim();
  const lead = content.length === 0 ? 0 : content.length - content.trimStart().length;
  const lastBreak = content.lastIndexOf("\n", lead - 1);
  let breaks = 0;
  for (let k = 0; k < lead; k++) if (content.charCodeAt(k) === 10) breaks++;
  return { marks, body, line: open, bodyLine: open + 1 + breaks, bodyColumn: lead - (lastBreak + 1) };
}

/** The first two words of a trimmed info string. */
const marksOf = (info: string): string[] => info.split(/\s+/, 2);

/** The recipe's fence, and the line (0-based, in the lines given) of every later fence that
 *  names a recipe, template or command too: only the first such fence is the recipe's, so each of
 *  those is ignored (a later `json` fence is not counted: it is most often an example of output). */
interface SelectedFence {
  readonly fence: Fence | undefined;
  readonly ignored: readonly { readonly line: number; readonly unclosed: boolean }[];
  /** the first closed backtick fence holding a marking word where it marks nothing, told about
   *  when no fence is the recipe's: most likely the template, marked the wrong way */
  readonly unmarked: UnmarkedFence | undefined;
  /** an unclosed fence, before any fence the recipe's could be, whose content (the rest of the
   *  file) holds a line that would open a marked fence: told about when no fence is the recipe's */
  readonly swallowed: SwallowedFence | undefined;
}

/** A fence never closed, which makes the rest of the file its content, a marked fence with it. */
export interface SwallowedFence {
  /** the unclosed fence's opening line */
  readonly line: number;
  /** its backticks or tildes */
  readonly run: string;
  /** the line of the first marked fence in what it swallows (its own line when it is marked itself) */
  readonly marked: number;
  /** that fence's opening, trimmed */
  readonly opening: string;
}

/** A fence whose info string holds `template`, `recipe` or `command`, but not as its first word
 *  or the word after its language (```` ```{.template} ````, ```` ```bash,template ````). */
export interface UnmarkedFence {
  /** the opening line */
  readonly line: number;
  /** trimmed, as written */
  readonly info: string;
  /** the marking word it holds, lower-cased */
  readonly word: string;
  /** the language it seems to name (its leading letters), if not the word itself */
  readonly language: string | undefined;
  /** a `~~~` fence marked as the template: only backtick fences can be */
  readonly tilde?: true;
}

/** A marking word standing alone among letters: `{.template}`, `bash,template`, `template.sh`. */
const LOOSE_WORD = /(?<![a-z])(recipe|template|command)(?![a-z])/;
const LEADING_LANGUAGE = /^[a-z][a-z0-9_+-]*/;

function unmarkedFence(info: string, line: number): UnmarkedFence | undefined {
  const lower = info.toLowerCase();
  const word = LOOSE_WORD.exec(lower)?.[1];
  if (word === undefined) return undefined;
  const language = LEADING_LANGUAGE.exec(lower)?.[0];
  return { line, info, word, language: language === undefined || NAMING_WORDS.includes(language) ? undefined : language };
}

const NO_LINES: SelectedFence["ignored"] = Object.freeze([]);

/**
 * The recipe's fence: the first marked as a recipe, template or command, else the first whose
 * language is JSON; other fences (`bash`, `text`, ...) are examples in the prose. Fences are
 * recognised by line, as Markdown renders them (see OPENING_FENCE).
 */
function selectFence(lines: readonly string[]): SelectedFence {
  let json: Fence | undefined;
  let named: Fence | undefined;
  let unmarked: UnmarkedFence | undefined;
  let ignored: { line: number; unclosed: boolean }[] | undefined;
  let swallowed: SwallowedFence | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING_FENCE.exec(lines[i] ?? "");
    if (open === null) continue;
    const run = open[1] ?? "";
    const rawInfo = open[2] ?? "";
    const backticks = run.startsWith("`");
    if (backticks && rawInfo.includes("`")) continue;
    let close = i + 1;
    while (close < lines.length && !isClosingFence(lines[close] ?? "", run)) close++;
    const info = rawInfo.trim().toLowerCase();
    const marks = marksOf(info);
    const naming = backticks && NAMING_WORDS.some((w) => marks.includes(w));
    // an unclosed fence swallows the rest of the document, so nothing after it can be a fence; it
    // is no template either, but when it names one after the fence that is used (a template, or a
    // json one), its author meant it as the template
    if (close >= lines.length) {
      if ((named ?? json) !== undefined && naming) (ignored ??= []).push({ line: i, unclosed: true });
      else if ((named ?? json) === undefined) swallowed = naming ? { line: i, run, marked: i, opening: (lines[i] ?? "").trim() } : swallowedMarked(lines, i, run);
      break;
    }
    const fence = (): Fence => fenceOf(marks, lines, i, close);
    if (naming) {
      if (named === undefined) named = fence();
      else (ignored ??= []).push({ line: i, unclosed: false });
    } else if (backticks) {
      if (named === undefined && json === undefined && marks[0] === JSON_WORD) json = fence();
      else unmarked ??= unmarkedFence(rawInfo.trim(), i);
    } else {
      const word = NAMING_WORDS.find((w) => marks.includes(w));
      if (word !== undefined) unmarked ??= { line: i, info: rawInfo.trim(), word, language: undefined, tilde: true };
    }
    i = close;
  }
  return { fence: named ?? json, ignored: ignored ?? NO_LINES, unmarked, swallowed };
}

/** The first line after the unclosed fence at `open` that would open a backtick fence marked as
 *  the recipe's, had that fence been closed: what its author most likely meant as the template. */
function swallowedMarked(lines: readonly string[], open: number, run: string): SwallowedFence | undefined {
  for (let j = open + 1; j < lines.length; j++) {
    const inner = OPENING_FENCE.exec(lines[j] ?? "");
    if (inner === null || !(inner[1] ?? "").startsWith("`")) continue;
    if (NAMING_WORDS.some((w) => marksOf((inner[2] ?? "").trim().toLowerCase()).includes(w))) {
      return { line: open, run, marked: j, opening: (lines[j] ?? "").trim() };
    }
  }
  return undefined;
}

/** Whether a line closes the fence opened by `run` (its backticks or tildes). */
function isClosingFence(line: string, run: string): boolean {
  const close = CLOSING_FENCE.exec(line)?.[1];
  return close !== undefined && close[0] === run[0] && close.length >= run.length;
}

/** Why a Markdown file holds no recipe object. */
export type MarkdownError =
  | { readonly _tag: "NoFrontmatter" }
  | { readonly _tag: "UnclosedFrontmatter" }
  | { readonly _tag: "BadFrontmatter"; readonly line: number; readonly column: number; readonly message: string }
  | { readonly _tag: "NoFence"; readonly unmarked?: UnmarkedFence; readonly swallowed?: SwallowedFence; readonly empty?: { readonly line: number; readonly opening: string } };

/** The text of a Markdown error (fixed texts existing agents match on). */
export function markdownErrorText(e: MarkdownError): string {
  switch (e._tag) {
    case "NoFrontmatter":
      return MD_NO_FRONTMATTER;
    case "UnclosedFrontmatter":
      return MD_UNCLOSED_FRONTMATTER;
    case "BadFrontmatter":
      return `${MD_BAD_FRONTMATTER} (line ${e.line} column ${e.column}): ${e.message}`;
    case "NoFence":
      // the fence is there and marked, with nothing in it
      if (e.empty !== undefined) return `${MD_NO_FENCE}: the fence at line ${e.empty.line} (${e.empty.opening}) is empty; write the template in it`;
      if (e.swallowed !== undefined) return `${MD_NO_FENCE}: ${swallowedText(e.swallowed)}`;
      return e.unmarked === undefined ? MD_NO_FENCE : `${MD_NO_FENCE}: ${unmarkedText(e.unmarked)}`;
  }
}

/** Why a marked fence below an unclosed one is no fence. */
function swallowedText(f: SwallowedFence): string {
  if (f.marked === f.line) return `the fence at line ${f.line} (${f.opening}) is never closed, so it is no fence; close it with a line of ${f.run}`;
  return `the fence opened at line ${f.line} (${f.run}) is never closed, so the rest of the file is its content, the fence at line ${f.marked} (${f.opening}) included; close it with a line of ${f.run} or remove it`;
}

/** How to mark a fence that holds a marking word where it marks nothing. */
function unmarkedText(f: UnmarkedFence): string {
  if (f.tilde === true) return `the fence at line ${f.line} (~~~${f.info}) names "${f.word}", but a ~~~ fence is never the recipe's; write it with backticks (\`\`\`${f.info}) if it is the ${f.word}`;
  const marked = f.language === undefined ? `\`\`\`${f.word}` : `\`\`\`${f.language} ${f.word} or \`\`\`${f.word}`;
  return `the fence at line ${f.line} (\`\`\`${f.info}) holds "${f.word}", but only the info string's first word or the word right after its language marks the recipe's fence; write ${marked} if it is the ${f.word}`;
}

const NO_FRONTMATTER: MarkdownError = { _tag: "NoFrontmatter" };
const UNCLOSED_FRONTMATTER: MarkdownError = { _tag: "UnclosedFrontmatter" };
const NO_FENCE: MarkdownError = { _tag: "NoFence" };

function parseJson(text: string): E.Either<undefined, Json> {
  try {
    return E.right(JSON.parse(text) as Json);
  } catch {
    return E.left(undefined);
  }
}

/** A Markdown recipe's object and what it holds that is ignored: the line (1-based, in the file)
 *  of each fence that names a recipe, template or command after the one that is the recipe's. */
export interface MarkdownRecipe {
  readonly raw: JsonObject;
  readonly ignoredFences: readonly IgnoredFence[];
  /** each later occurrence of a key an object of the fence's JSON already has, its line and
   *  column counted in the file and its path from the recipe object; present when there is one */
  readonly duplicateKeys?: readonly DuplicateKey[];
}

export interface IgnoredFence {
  /** the ignored fence's opening line */
  readonly line: number;
  /** the opening line of the fence that is the recipe's */
  readonly used: number;
  /** it is never closed, so it is no fence at all */
  readonly unclosed?: true;
}

const NO_IGNORED: readonly IgnoredFence[] = Object.freeze([]);
const NO_DUPLICATES: readonly DuplicateKey[] = Object.freeze([]);

/** The keys the JSON of a fence names twice in one object (JSON.parse kept the last value), looked
 *  for only when the cheap count says one may be there (duplicateKeysOf), as in a `.json` recipe.
 *  Positions are the file's: `firstLine` is the 1-based line the trimmed body starts on, which
 *  starts at column `bodyColumn + 1`; later lines are the file's lines as they are. `under`: the
 *  path of the fence's value in the recipe object (`template` when the value is the template).
 *  The look is advice only: should it fail, the recipe loads without it. */
function fenceDuplicates(fence: Fence, value: Json, firstLine: number, under: readonly string[]): readonly DuplicateKey[] {
  let found: readonly DuplicateKey[];
  try {
    found = duplicateKeysOf(fence.body, value);
  } catch {
    return NO_DUPLICATES;
  }
  return found.length === 0
    ? NO_DUPLICATES
    : found.map((d) => ({ path: [...under, ...d.path], line: firstLine + d.line - 1, column: d.line === 1 ? fence.bodyColumn + d.column : d.column }));
}

/** The authoring warning of a fence that is ignored (core/recipe/lint.ts words the others). */
export const ignoredFenceText = (f: IgnoredFence): string =>
  f.unclosed === true
    ? `Markdown fence at line ${f.line} is ignored: it is never closed (by a line of as many backticks), so it is no fence; the template is the fence at line ${f.used}. Close it if it is the template`
    : `Markdown fence at line ${f.line} is ignored: the template is the first fence naming template, recipe or command (line ${f.used}); merge the two, or give the other fence another info string (such as text) if it is an example`;

/** The raw recipe object of a Markdown file, or the reason it has none. */
export function compileMarkdown(text: string): E.Either<MarkdownError, JsonObject> {
  return E.map((md: MarkdownRecipe) => md.raw)(readMarkdown(text));
}

/** The raw recipe object of a Markdown file with the fences it ignores, or the reason it has none. */
export function readMarkdown(text: string): E.Either<MarkdownError, MarkdownRecipe> {
  // a line ends at LF, CRLF or a CR alone, in Markdown as in YAML, so the line a YAML error names
  // is the file's line
  const lines = text.split(LINE_BREAK);
  if ((lines[0] ?? "").trim() !== "---") return E.left(NO_FRONTMATTER);
  let end = 1;
  while (end < lines.length && (lines[end] ?? "").trim() !== "---") end++;
  if (end >= lines.length) return E.left(UNCLOSED_FRONTMATTER);
  const parsed = parseFrontmatter(lines.slice(1, end).join("\n"), 2);
  if (E.isLeft(parsed)) {
    const { line, column, message } = parsed.left;
    return E.left({ _tag: "BadFrontmatter", line, column, message });
  }
  const frontmatter = parsed.right;
  const { fence, ignored, unmarked, swallowed } = selectFence(lines.slice(end + 1));
  if (fence === undefined) {
    if (hasOwn(frontmatter, "template")) return E.right({ raw: frontmatter, ignoredFences: NO_IGNORED });
    // lines counted from 1 in the file, as below
    if (swallowed !== undefined) return E.left({ _tag: "NoFence", swallowed: { ...swallowed, line: end + 2 + swallowed.line, marked: end + 2 + swallowed.marked } });
    return E.left(unmarked === undefined ? NO_FENCE : { _tag: "NoFence", unmarked: { ...unmarked, line: end + 2 + unmarked.line } });
  }
  if (fence.body === "") return E.left({ _tag: "NoFence", empty: { line: end + 2 + fence.line, opening: (lines[end + 1 + fence.line] ?? "").trim() } });
  // lines counted from 1 in the file: the fences were searched from the line after the frontmatter
  const ignoredFences = ignored.length === 0 ? NO_IGNORED : ignored.map((i): IgnoredFence => ({ line: end + 2 + i.line, used: end + 2 + fence.line, ...(i.unclosed ? { unclosed: true as const } : {}) }));
  const recipe = (raw: JsonObject, duplicates: readonly DuplicateKey[] = NO_DUPLICATES): E.Either<MarkdownError, MarkdownRecipe> =>
    E.right(duplicates.length === 0 ? { raw, ignoredFences } : { raw, ignoredFences, duplicateKeys: duplicates });
  const declaredJson = JSON_WORDS.some((w) => fence.marks.includes(w));
  if (declaredJson || /^[{["]/.test(fence.body)) {
    const parsed = parseJson(fence.body);
    if (E.isRight(parsed)) {
      const value = parsed.right;
      // the body's first line is the file's line `end + 2 + fence.bodyLine` (1-based)
      const duplicates = (under: readonly string[]) => fenceDuplicates(fence, value, end + 2 + fence.bodyLine, under);
      // the fence wins over the frontmatter; spreading keeps `__proto__`-like keys as plain data
      if (isPlainObject(value) && hasOwn(value, "template")) return recipe({ ...frontmatter, ...(value as JsonObject) }, duplicates([]));
      return recipe({ ...frontmatter, template: value }, duplicates(["template"]));
    }
    if (declaredJson) return E.left(NO_FENCE);
  }
  return recipe({ ...frontmatter, template: fence.body });
}
