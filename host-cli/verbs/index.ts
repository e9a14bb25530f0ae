// Every verb of the `pi-recipes` command, loaded on demand: a command pays only for the modules of
// the verb it runs (the MCP SDK, the watcher and the Pi glue are not loaded by `inspect`).
// Add a verb: write host-cli/verbs/<verb>.ts and list it here.
import type { CliVerb } from "./types.js";

const LOADERS: Readonly<Record<string, () => Promise<CliVerb>>> = {
  inspect: async () => (await import("./inspect.js")).inspectVerb,
  schema: async () => (await import("./schema.js")).schemaVerb,
  list: async () => (await import("./list.js")).listVerb,
  register_tool: async () => (await import("./register-tool.js")).registerToolVerb,
  call: async () => (await import("./call.js")).callVerb,
  spawn: async () => (await import("./spawn.js")).spawnVerb,
  message: async () => (await import("./message.js")).messageVerb,
  mcp: async () => (await import("./mcp.js")).mcpVerb,
  watch: async () => (await import("./watch.js")).watchVerb,
  review: async () => (await import("./review.js")).reviewVerb,
  activate: async () => (await import("./activate.js")).activateVerb,
  rollback: async () => (await import("./rollback.js")).rollbackVerb,
};

export const VERB_NAMES: readonly string[] = Object.keys(LOADERS);

export function loadVerb(name: string): Promise<CliVerb> | undefined {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]!() : undefined;
}

export const loadAllVerbs = (): Promise<CliVerb[]> => Promise.all(VERB_NAMES.map((n) => LOADERS[n]!()));
