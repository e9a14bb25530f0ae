// Every verb of the `pi-recipes` command, loaded on demand: a command pays only for the modules of
// the verb it runs (the MCP SDK, the watcher and the Pi glue are not loaded by `inspect`), and
// `--help` loads none of them: the usage lines live here, beside the loaders.
// Add a verb: write host-cli/verbs/<verb>.ts and list it here.
import type { CliVerb } from "./types.js";

interface VerbEntry {
  /** one or more usage lines, shown by `pi-recipes --help` */
  readonly usage: readonly string[];
  readonly load: () => Promise<CliVerb>;
}

const VERBS: Readonly<Record<string, VerbEntry>> = {
  inspect: {
    usage: [
      "inspect target=recipes view=status|summary|doctor|imports|reviews [verbose=true]",
      "inspect target=tool:<name>",
      "inspect target=tool:pi-actors view=status|triage",
      "inspect target=run:<id> view=status|tail [lines=N]",
    ],
    load: async () => (await import("./inspect.js")).inspectVerb,
  },
  schema: {
    usage: ["schema <tool>             the tool's JSON parameter schema"],
    load: async () => (await import("./schema.js")).schemaVerb,
  },
  list: {
    usage: ["list                      the registered tools"],
    load: async () => (await import("./list.js")).listVerb,
  },
  register_tool: {
    usage: [
      "register_tool             list the registered tools",
      "register_tool name=<tool> description=... template=... [args=a,b=1] [update=true] [async=true] [<recipe field>=...]",
      "register_tool name=<tool> template=null            delete a tool",
      "register_tool name=<tool> draft=<path> [update=true] promote a draft",
    ],
    load: async () => (await import("./register-tool.js")).registerToolVerb,
  },
  call: {
    usage: ["call <tool> [key=value ...]  run a tool in the foreground (exit 1 when it fails)"],
    load: async () => (await import("./call.js")).callVerb,
  },
  spawn: {
    usage: [
      "spawn template=<command template> [values={...}]   run an inline template in the foreground",
      "spawn file=<recipe path>|recipe=<name> [values={...}]",
    ],
    load: async () => (await import("./spawn.js")).spawnVerb,
  },
  message: {
    usage: [
      "message to=tool:<name> type=<type> [body=<json|text>]   invoke a tool with body as its arguments",
      "message to=run:<id> type=control.kill                   stop an async run (its whole process group)",
    ],
    load: async () => (await import("./message.js")).messageVerb,
  },
  mcp: {
    usage: ["mcp                       serve the registry to an MCP client over stdio (tools follow the recipe files)"],
    load: async () => (await import("./mcp.js")).mcpVerb,
  },
  watch: {
    usage: ["watch                     print each change of the tool set as it happens, until interrupted"],
    load: async () => (await import("./watch.js")).watchVerb,
  },
};

export const VERB_NAMES: readonly string[] = Object.keys(VERBS);

export function loadVerb(name: string): Promise<CliVerb> | undefined {
  return Object.hasOwn(VERBS, name) ? VERBS[name]!.load() : undefined;
}

/** The usage lines of every verb, without loading any verb. */
export const verbUsage = (): readonly string[] => VERB_NAMES.flatMap((n) => VERBS[n]!.usage);
