// What `pi-recipes --help` and `pi-recipes <verb> --help` print, for every verb. Kept apart from
// the verbs' code so that help loads this one module, not every verb (host-cli/verbs/index.ts
// loads a verb only to run it), and loaded by help alone (and by `mcp --help`).
import { TOKEN_ENV } from "../../host-mcp/token-env.js";

export interface VerbHelp {
  /** one or more usage lines, shown by `pi-recipes --help` */
  readonly usage: readonly string[];
  /** example command lines (without `pi-recipes`), shown by `pi-recipes <verb> --help` */
  readonly examples: readonly string[];
  /** false for a verb that prints no result object (`mcp` speaks MCP on stdout): its help does not
   *  offer `--json` */
  readonly json?: false;
}

export const VERB_HELP = {
  inspect: {
    usage: [
      "inspect target=recipes view=status|summary|doctor|imports|reviews [verbose=true]",
      "inspect target=tool:<name>",
      "inspect target=tool:pi-actors view=status|triage",
      "inspect target=run:<id> view=status|tail [lines=N]",
    ],
    examples: [
      "inspect target=recipes view=summary",
      "inspect target=recipes view=doctor",
      "inspect target=tool:word_count",
      "inspect target=run:<run id> view=tail lines=40",
    ],
  },
  schema: {
    usage: ["schema <tool>             the tool's JSON parameter schema"],
    examples: ["schema word_count"],
  },
  list: {
    usage: ["list                      the registered tools"],
    examples: ["list", "list --json"],
  },
  register_tool: {
    usage: [
      "register_tool             list the registered tools",
      "register_tool name=<tool> description=... template=... [args=a,b=1] [update=true] [async=true] [<recipe field>=...]",
      "register_tool name=<tool> template=null            delete a tool",
      "register_tool name=<tool> draft=<path> [update=true] promote a draft",
    ],
    examples: [
      'register_tool name=word_count description="Count words" template="wc -w {file:path}"',
      "register_tool name=word_count description=Words update=true",
      "register_tool name=word_count template=null",
    ],
  },
  call: {
    usage: ["call <tool> [key=value ...] [--stream]  run a tool in the foreground (exit 1 when it fails); --stream shows its output as it runs (default on a terminal)"],
    examples: ["call word_count file=README.md", "call recent_commits count=3 --json"],
  },
  spawn: {
    usage: [
      "spawn template=<command template> [values={...}]   run an inline template in the foreground",
      "spawn file=<recipe path>|recipe=<name> [values={...}]",
    ],
    examples: [`spawn template="echo {x}" values='{"x":"hi"}'`, `spawn recipe=word_count values='{"file":"README.md"}'`],
  },
  message: {
    usage: [
      "message to=tool:<name> type=call [body=<json|text>]     invoke a tool with body as its arguments (type: call, invoke, run in any case, or one its mailbox.accepts lists)",
      "message to=run:<id> type=control.kill                   stop an async run (its whole process group)",
    ],
    examples: [`message to=tool:word_count type=call body='{"file":"README.md"}'`, "message to=run:<run id> type=control.kill"],
  },
  mcp: {
    usage: [
      "mcp                       serve the registry to an MCP client over stdio (tools follow the recipe files)",
      "mcp --http [--host H] [--port P] [--token-file F] [--allowed-host NAME] [--allowed-origin URL]",
      "    [--max-calls N] [--max-sessions N] [--max-body-bytes N] [--idle-timeout SECONDS]",
      `                          serve many clients over MCP Streamable HTTP at http://H:P/mcp (default 127.0.0.1:8765);`,
      `                          any bind beyond loopback needs a bearer token from ${TOKEN_ENV} or a file`,
    ],
    examples: ["mcp", "mcp --http --port 8765 --token-file ~/.config/pi-recipes/token"],
    json: false,
  },
  watch: {
    usage: ["watch                     print each change of the tool set as it happens, until interrupted"],
    examples: ["watch", "watch --json"],
  },
  review: {
    usage: [
      "review [scope=draft] [--scripted FILE]        run one automatic draft review cycle now (reply from FILE, else $PI_RECIPES_REVIEWER)",
      "review scope=tool [--scripted FILE]           run one tool portfolio review now (36 tools; says how many are eligible)",
    ],
    examples: ["review", "review --scripted reply.txt", "review scope=tool --scripted portfolio-reply.txt", "inspect target=recipes view=reviews"],
  },
  activate: {
    usage: ["activate                                     carry out an approved tool portfolio review now (renames, demotions, merges, lineages)"],
    examples: ["review scope=tool --scripted reply.txt", "activate", "inspect target=recipes view=reviews"],
  },
  rollback: {
    usage: ["rollback tool=NAME revision=N                 restore a tool's revision N from its snapshot (an operator verb)"],
    examples: ["rollback tool=docs_review revision=1", "inspect target=recipes view=reviews"],
  },
} as const satisfies Readonly<Record<string, VerbHelp>>;

export type VerbName = keyof typeof VERB_HELP;
