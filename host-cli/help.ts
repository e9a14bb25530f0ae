// What help prints: the general usage, and each verb's usage lines and examples
// (host-cli/verbs/help-texts.ts), without loading any verb. The full command (host-cli/main.ts) and
// the front door (host-cli/front-door.ts) answer help alike through helpAnswer.
import { didYouMean } from "../core/suggest.js";
import type { ParsedCommandLine } from "./argv.js";
import type { VerbHelp } from "./verbs/help-texts.js";
import { isVerbName, VERB_NAMES } from "./verbs/verb-names.js";

export async function usageText(): Promise<string> {
  const { VERB_HELP } = await import("./verbs/help-texts.js");
  const verbs = VERB_NAMES.map((name) => VERB_HELP[name]);
  return `usage: pi-recipes <verb> [key=value ...] [--json]
       pi-recipes <verb> --help     help and examples for one verb
       pi-recipes --version
verbs:
${verbs.flatMap((v) => v.usage).map((u) => `  ${u}`).join("\n")}
values that parse as JSON (numbers, true/false, null, arrays, objects, "quoted") are JSON, others strings;
a file path (--scripted FILE, file=, draft=) is always the text typed.
environment: PI_CODING_AGENT_DIR (default ~/.pi/agent); recipes live in <agent>/recipes/*.json|*.md
exit status: 0 success, 1 the registry answered with an error, 2 malformed command line
`;
}

const COMMAND = "pi-recipes ";

/** `pi-recipes <verb> --help` (and `help <verb>`, `mcp --help`): the verb's usage lines and
 *  examples; loads no registry. A usage line that goes on from the one before (it starts with a
 *  space) keeps its place under it rather than naming the command again. */
export async function verbHelp(name: string): Promise<string | undefined> {
  if (!isVerbName(name)) return undefined;
  const verb: VerbHelp = (await import("./verbs/help-texts.js")).VERB_HELP[name];
  const { examples } = verb;
  return [
    "usage:",
    ...verb.usage.map((u) => `  ${u.startsWith(" ") ? " ".repeat(COMMAND.length) : COMMAND}${u}`),
    ...(examples.length === 0 ? [] : ["examples:", ...examples.map((e) => `  ${COMMAND}${e}`)]),
    ...(verb.json === false ? [] : ["add --json for the result as one JSON object {ok, text, details}"]),
    "",
  ].join("\n");
}

export const unknownVerb = (name: string): string => `unknown verb "${name}".${didYouMean(name, [...VERB_NAMES, "help"])}`;

/** What a command line asking for help prints (`help`, `help <verb>`, `--help` or `-h` anywhere):
 *  the text, or the name it asked about when that is no verb; undefined when it asks for no help. */
export async function helpAnswer(cmd: ParsedCommandLine): Promise<{ readonly text: string; readonly about: string | undefined } | { readonly unknown: string } | undefined> {
  if (cmd.verb !== "help" && cmd.help !== true) return undefined;
  const about = cmd.verb === "help" ? cmd.positional[0] : cmd.verb;
  const text = about === undefined ? await usageText() : await verbHelp(about);
  return text === undefined ? { unknown: about ?? "" } : { text, about };
}
