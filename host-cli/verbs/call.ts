import { openRegistry } from "../../runtime/registry.js";
import { callTool } from "../../runtime/verbs/call.js";
import { prepareLaunch } from "../../runtime/launch.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const callVerb: CliVerb = {
  name: "call",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name, then key=value arguments");
    if (bad !== undefined) return bad;
    const name = cmd.positional[0]!;
    const registry = openRegistry();
    // digests first, discovery second: see runtime/launch.ts
    const guard = await prepareLaunch(registry.paths, name);
    try {
      return result(await callTool(registry.discover(), name, cmd.params, { paths: registry.paths, launch: (tool) => guard.launch(tool) }));
    } finally {
      await guard.close();
    }
  },
};
