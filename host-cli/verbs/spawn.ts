import { openRegistry } from "../../runtime/registry.js";
import { spawn } from "../../runtime/verbs/spawn.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const spawnVerb: CliVerb = {
  name: "spawn",
  usage: [
    "spawn template=<command template> [values={...}]   run an inline template in the foreground",
    "spawn file=<recipe path>|recipe=<name> [values={...}]",
  ],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    return result(await spawn(registry, cmd.params, { paths: registry.paths }));
  },
};
