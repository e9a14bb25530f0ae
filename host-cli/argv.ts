// The CLI contract: `pi-recipes <verb> [positional] [key=value ...] [--json]`.
// A value that parses as JSON (number, true/false, null, array, object, quoted string) is taken as
// JSON, anything else as a plain string, so `count=3` is a number and `name=x` a string. A number
// is taken as a number only when that number writes back as the very text given: `1.10`,
// `007`-like forms, `-0`, `1e3` or a 20-digit id stay the text typed, since a text or path argument
// must receive what the user wrote (the file `1.10` is not the file `1.1`), and a number argument
// reads the text as the same number. The arguments of the verbs whose value is always a file path
// (PATH_ARGUMENTS: `review --scripted FILE`, `spawn file=`, `register_tool draft=`) are taken as
// the word typed, whatever it looks like: the file `123`, `true` or `null` is a file like any other.

import * as E from "fp-ts/lib/Either.js";
import { didYouMean } from "../core/suggest.js";

export type CliValue = null | boolean | number | string | CliValue[] | { [k: string]: CliValue };

export interface ParsedCommandLine {
  readonly verb: string;
  readonly positional: readonly string[];
  readonly params: Readonly<Record<string, CliValue>>;
  readonly json: boolean;
  /** `--help`/`-h` anywhere: show help (of the verb, when there is one) and run nothing */
  readonly help?: boolean;
  /** `--stream`: show the output of commands on stderr as they print it (default on a terminal) */
  readonly stream?: boolean;
}

/** The command line, or the usage error that names the word at fault. */
export type ArgvResult = E.Either<string, ParsedCommandLine>;

const looksLikeJson = /^(?:-?\d|true$|false$|null$|\[|\{|")/;

export function parseCliValue(text: string): CliValue {
  if (!looksLikeJson.test(text)) return text;
  try {
    const value = JSON.parse(text) as CliValue;
    return typeof value === "number" && String(value) !== text ? text : value;
  } catch {
    return text;
  }
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The arguments of each verb whose value is a file path: never read as JSON. */
const PATH_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  review: ["scripted"],
  spawn: ["file"],
  register_tool: ["draft"],
};

const FLAGS = ["--json", "--help", "--version", "--stream", "--scripted"];

const unknownOption = (word: string): string => {
  const near = didYouMean(word, FLAGS);
  return near === "" ? `unknown option: ${word}` : `unknown option: ${word}.${near}`;
};

/** Whether `--json` is among the options: before a `--` that follows the verb (after it, every
 *  word is taken as it is). */
export function jsonAsked(argv: readonly string[]): boolean {
  const end = argv.indexOf("--", 1);
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}

/** `--version` alone (or first) is its own command; `--help` with a verb is that verb's help. A
 *  `--` after the verb ends the options: the words after it are taken as they are, so that a tool
 *  whose name begins with `-` (a valid tool name) can be named (`call -- -dash`). */
export function parseArgv(argv: readonly string[]): ArgvResult {
  let json = false;
  let help = false;
  let stream = false;
  const rest: string[] = [];
  /** the index in `rest` from which words are literal (after a `--`) */
  let literalFrom = Infinity;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--" && rest.length > 0) {
      literalFrom = rest.length;
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (a === "--json") json = true;
    // `--scripted FILE` (review) is `scripted=FILE`
    else if (a === "--scripted") {
      const value = argv[++i];
      if (value === undefined) return E.left("--scripted needs a file");
      rest.push(`scripted=${value}`);
    } else if (a === "--stream") stream = true;
    else if (a === "--help" || a === "-h") help = true;
    else if ((a === "--version" || a === "-V") && rest.length === 0) return E.right({ verb: "--version", positional: [], params: {}, json: jsonAsked(argv) });
    else rest.push(a);
  }
  const [verb, ...words] = rest;
  // no verb at all (bare `pi-recipes`) asks for the help, as --help does
  if (verb === undefined) return E.right({ verb: "help", positional: [], params: {}, json });
  if (verb === "") return E.left("missing verb");
  if (verb.startsWith("-")) return E.left(unknownOption(verb));
  const positional: string[] = [];
  const params: Record<string, CliValue> = {};
  const paths = Object.prototype.hasOwnProperty.call(PATH_ARGUMENTS, verb) ? PATH_ARGUMENTS[verb]! : [];
  for (let w = 0; w < words.length; w++) {
    const word = words[w]!;
    const eq = word.indexOf("=");
    if (eq === 0) return E.left(`argument "${word}" has no name before "="`);
    if (eq < 0) {
      // (`words` starts at rest[1])
      if (word.startsWith("-") && w + 1 < literalFrom) {
        // where a tool's name goes, a one-dash word may be one (`-dash` is a valid tool name)
        const asName = positional.length === 0 && /^-[^-]/.test(word) && didYouMean(word, FLAGS) === "";
        return E.left(asName ? `unknown option: ${word} (a name that begins with "-" goes after "--": ${verb} -- ${word})` : unknownOption(word));
      }
      if (Object.keys(params).length > 0) return E.left(`argument "${word}" must be key=value`);
      positional.push(word);
      continue;
    }
    const key = word.slice(0, eq);
    if (!KEY.test(key)) return E.left(`invalid argument name "${key}" in "${word}"`);
    if (Object.prototype.hasOwnProperty.call(params, key)) return E.left(`argument "${key}" given twice`);
    const text = word.slice(eq + 1);
    // an own key whatever its name: `__proto__=x` is an argument named so, not the object's
    // prototype (defined, not assigned; the front door loads no recipe code for this)
    Object.defineProperty(params, key, { value: paths.includes(key) ? text : parseCliValue(text), enumerable: true, writable: true, configurable: true });
  }
  return E.right({ verb, positional, params, json, ...(help ? { help } : {}), ...(stream ? { stream } : {}) });
}
