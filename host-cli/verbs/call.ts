import { openRegistry } from "../../runtime/registry.js";
import { callTool } from "../../runtime/verbs/call.js";
import type { CommandResult } from "../../core/result.js";
import { expectPositional, result, type CliVerb } from "./types.js";

/** Tool texts open with a newline for the agent's transcript; a terminal does not need it. */

export const callVerb: CliVerb = {
  name: "call",
  usage: ["call <tool> [key=value ...]  run a tool in the foreground (exit 1 when it fails)"],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name, then key=value arguments");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    const outcome = await callTool(registry.discover(), cmd.positional[0]!, cmd.params, { paths: registry.paths });
    return result(outcome);
  },
};
