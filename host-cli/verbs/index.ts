// Every verb of the `pi-recipes` command. Add a verb: write host-cli/verbs/<verb>.ts and list it here.
import { inspectVerb } from "./inspect.js";
import { listVerb } from "./list.js";
import { schemaVerb } from "./schema.js";
import { callVerb } from "./call.js";
import { spawnVerb } from "./spawn.js";
import { registerToolVerb } from "./register-tool.js";
import { mcpVerb } from "./mcp.js";
import { watchVerb } from "./watch.js";
import { messageVerb } from "./message.js";
import type { CliVerb } from "./types.js";

export const VERBS: readonly CliVerb[] = [
  inspectVerb,
  schemaVerb,
  listVerb,
  registerToolVerb,
  callVerb,
  spawnVerb,
  messageVerb,
  mcpVerb,
  watchVerb,
];
