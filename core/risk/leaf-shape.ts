// The shape of one command leaf as the risk rules see it: the
// executable's lower-cased basename and the words after it. Placeholders stay unresolved on
// purpose: `{file}` is exactly what makes a path argument risky.
import { splitWords } from "../template/split.js";

export interface LeafShape {
  /** lower-cased basename of the first word ("" for an empty leaf) */
  readonly command: string;
  readonly args: readonly string[];
  /** every word, the executable included */
  readonly words: readonly string[];
}

export const leafShape = (text: string): LeafShape => leafShapeOfWords(splitWords(text));

/** The shape of a leaf already split into words. */
export function leafShapeOfWords(words: readonly string[]): LeafShape {
  const first = words[0] ?? "";
  const cut = Math.max(first.lastIndexOf("/"), first.lastIndexOf("\\"));
  const command = (cut < 0 ? first : first.slice(cut + 1)).toLowerCase();
  return { command, args: words.slice(1), words };
}

const SHORT_CLUSTER = /^-[A-Za-z]+$/;

/** `flag` given alone, or (for one-letter flags) inside a cluster such as `-lc` or `-Ic`. */
export function hasFlag(args: readonly string[], ...flags: readonly string[]): boolean {
  return args.some((arg) =>
    flags.some((flag) =>
      arg === flag || (/^-[A-Za-z]$/.test(flag) && SHORT_CLUSTER.test(arg) && arg.includes(flag.slice(1))),
    ),
  );
}

/** Any argument equal (case-insensitively) to one of `values`. */
export const hasArg = (args: readonly string[], ...values: readonly string[]): boolean =>
  args.some((arg) => values.includes(arg.toLowerCase()));

/** Arguments that reach beyond a narrow relative path: roots, home, parents, or a placeholder. */
export const hasRiskyPathArg = (args: readonly string[]): boolean =>
  args.some(
    (arg) =>
      arg === "~" || arg === "./" || arg === "../" || arg.includes("{") || arg.startsWith("~/") || arg.startsWith("/"),
  );

/** rm's recursive/force switches; long forms count too, they are the same danger. */
export const hasRemoveForceFlag = (args: readonly string[]): boolean =>
  args.some((arg) => /^-[^-]*[rRf]/.test(arg) || arg === "--recursive" || arg === "--force");

export const SHELLS: readonly string[] = ["bash", "sh", "zsh", "fish"];
export const JS_RUNTIMES: readonly string[] = ["node", "deno", "bun"];
export const SCRIPT_INTERPRETERS: readonly string[] = ["python", "python3", "perl", "ruby"];
export const BROAD_WRITERS: readonly string[] = ["mv", "cp", "rsync"];

export const isJsEval = (shape: LeafShape): boolean =>
  JS_RUNTIMES.includes(shape.command) && hasFlag(shape.args, "-e", "--eval");
export const isScriptEval = (shape: LeafShape): boolean =>
  SCRIPT_INTERPRETERS.includes(shape.command) && hasFlag(shape.args, "-c", "-e");
export const isDestructiveRemove = (shape: LeafShape): boolean =>
  shape.command === "rm" && (hasRemoveForceFlag(shape.args) || hasRiskyPathArg(shape.args));
export const isBroadWrite = (shape: LeafShape): boolean =>
  BROAD_WRITERS.includes(shape.command) && hasRiskyPathArg(shape.args);
