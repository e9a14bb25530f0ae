// Shell syntax in a command template: no shell runs a template, so a bare `|`, `&&`, `;`, `<`,
// `>` or `2>&1` reaches the command as a plain argument and the tool fails only when it is
// called (`ls: cannot access '|'`). Each such word is an authoring warning that says so and what
// to write instead. A word the author quoted or escaped (`grep -E "a|b"`, `find -exec … \;`) is
// meant literally and is never warned about, except a word that is nothing but quotes (`''`,
// `""`): a shell would pass it as an empty argument, a template drops every empty argument word
// (that is what makes `{flag?--flag:}` vanish), so it passes nothing, and no template can pass an
// empty argument.
import type { RecipeWarning } from "../compile/recipe-warning.js";
import type { SplitResult } from "../template/split.js";

const NO_WARNINGS: readonly RecipeWarning[] = Object.freeze([]);

type Kind = "pipe" | "list" | "background" | "input" | "output" | "stream";

/** Words that are a shell operator by themselves. */
const OPERATORS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ["|", "pipe"], ["|&", "pipe"],
  ["&&", "list"], ["||", "list"], [";", "list"], [";;", "list"],
  ["&", "background"],
  ["<", "input"], ["<<", "input"], ["<<<", "input"], ["<>", "input"],
  [">", "output"], [">>", "output"], [">|", "output"], ["1>", "output"], ["1>>", "output"], ["&>", "output"], ["&>>", "output"],
  ["2>", "stream"], ["2>>", "stream"], ["2>&1", "stream"], ["1>&2", "stream"], [">&2", "stream"],
]);

/** A redirection written against its target (`>out.txt`, `2>/dev/null`, `<in.txt`). */
const ATTACHED = /^(?:(2>>?|[12]?>&[12]?)|(1?>>?|&>>?)|(<<?<?))(?=\S)/;

/** The characters a shell operator or redirection can start with: nearly every word starts
 * otherwise, and is passed over without a lookup. */
const FIRST = new Set(["|", "&", ";", "<", ">", "1", "2"]);

interface Found {
  readonly word: string;
  readonly kind: Kind;
  /** the word ends in `;` (`echo a; echo b` splits into `a;`) */
  readonly trailing?: true;
}

/** What `words[at]` is, when it is shell syntax. */
function classify(words: readonly string[], at: number): Found | undefined {
  const word = words[at]!;
  const first = word[0];
  if (first === undefined) return undefined;
  if (word.length > 1 && word.endsWith(";") && !word.endsWith("\\;")) return { word, kind: "list", trailing: true };
  if (!FIRST.has(first)) return undefined;
  const kind = OPERATORS.get(word);
  if (kind !== undefined) {
    // find's -exec/-ok end with a bare `;`, which is exactly what find wants as an argument
    if (word === ";" && words.slice(0, at).some((w) => w === "-exec" || w === "-execdir" || w === "-ok" || w === "-okdir")) return undefined;
    return { word, kind };
  }
  const m = ATTACHED.exec(word);
  if (m === null) return undefined;
  return { word, kind: m[1] !== undefined ? "stream" : m[2] !== undefined ? "output" : "input" };
}

const SEQUENCE = `write the commands as steps of a sequence instead (a JSON array such as ["ls -l", "wc -l"]: each step's stdout is the next step's stdin)`;

/** What the operator is in a shell, and what to write instead. */
function advice(kind: Kind): string {
  switch (kind) {
    case "pipe":
      return `a shell pipe: ${SEQUENCE}`;
    case "list":
      return `a shell command separator: ${SEQUENCE}; a step with "failure": "branch" stops the rest when it fails, as && would`;
    case "background":
      return `the shell's background operator: to run commands side by side use a "parallel": true node; to outlive the call, "async": true`;
    case "input":
      return `a shell input redirection: to feed a file to a command, make the command the step after one that prints the file (["cat {file}", "sort"]: each step's stdin is the previous step's stdout)`;
    case "output":
      return `a shell output redirection: the tool's result is its last step's stdout (a node's "output" picks another labelled step's), so drop it, or add a step such as "tee {out}" to also write a file`;
    case "stream":
      return `a shell stream redirection: stderr is kept apart and reported when a step fails, so drop it`;
  }
}

/** The warning for `words[at]`, an argument word written as nothing but quotes. */
function emptyWordWarning(words: readonly string[], at: number, label: string | undefined): RecipeWarning {
  const command = words[0]!;
  const where = at === 1 ? "as its first argument" : `after ${JSON.stringify(words[at - 1])}`;
  const text =
    `${label ?? command}: word ${at + 1} is an empty quoted string ('' or ""), which passes no argument: a command template drops every empty argument word, so ${command} gets nothing ${where}. ` +
    `No command template can pass an empty argument: if ${command} takes the value joined to its option (--option=), write that; otherwise remove the word.`;
  return { kind: "authoring", text };
}

/** The shell-syntax warnings of one leaf, split into `split`; `label`: the nearest node label. */
export function shellSyntaxWarnings(split: SplitResult, label: string | undefined): readonly RecipeWarning[] {
  const { words, quoted } = split;
  let out: RecipeWarning[] | undefined;
  for (let i = 0; i < words.length; i++) {
    if (quoted !== undefined && quoted.includes(i)) {
      // only a quoted word can be empty after splitting; the command word is never dropped
      if (i > 0 && words[i] === "") (out ??= []).push(emptyWordWarning(words, i, label));
      continue;
    }
    const found = classify(words, i);
    if (found === undefined) continue;
    const command = words[0]!;
    const fate = i === 0 ? `would be run as a program` : `reaches ${command} as a plain argument (quote it if that is what you mean)`;
    const what = found.trailing === true ? `Its ";" is` : `"${found.word}" is`;
    const text = `${label ?? command}: no shell runs a command template, so "${found.word}" ${fate}. ${what} ${advice(found.kind)}.`;
    (out ??= []).push({ kind: "authoring", text });
  }
  return out ?? NO_WARNINGS;
}
