// Every verb of the `pi-recipes` command, loaded on demand: a command pays only for the modules of
// the verb it runs (the MCP SDK, the watcher and the Pi glue are not loaded by `inspect`).
// Add a verb: write host-cli/verbs/<verb>-command.ts, give its help in help-texts.ts, name it in
// verb-names.ts and list it here (the types ask for a loader and a name of every verb that has help,
// and of no other).
import type { CliVerb } from "./cli-verb.js";
import type { VerbName } from "./help-texts.js";
import { isVerbName } from "./verb-names.js";

const LOADERS: { readonly [K in VerbName]: () => Promise<CliVerb> } = {
  inspect: async () => (await import("./inspect-command.js")).inspectVerb,
  schema: async () => (await import("./schema-command.js")).schemaVerb,
  list: async () => (await import("./list-command.js")).listVerb,
  register_tool: async () => (await import("./register-tool-command.js")).registerToolVerb,
  call: async () => (await import("./call-command.js")).callVerb,
  spawn: async () => (await import("./spawn-command.js")).spawnVerb,
  message: async () => (await import("./message-command.js")).messageVerb,
  mcp: async () => (await import("./mcp-command.js")).mcpVerb,
  watch: async () => (await import("./watch-command.js")).watchVerb,
  review: async () => (await import("./review-command.js")).reviewVerb,
  activate: async () => (await import("./activate-command.js")).activateVerb,
  rollback: async () => (await import("./rollback-command.js")).rollbackVerb,
};

export function loadVerb(name: string): Promise<CliVerb> | undefined {
  return isVerbName(name) ? LOADERS[name]() : undefined;
}
