import { openRegistry } from "../../runtime/registry.js";
import { callTool } from "../../runtime/verbs/call.js";
import { message } from "../../runtime/verbs/message.js";
import { runsRootOf } from "../../runtime/runs/store.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const messageVerb: CliVerb = {
  name: "message",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    return result(
      await message(cmd.params, {
        discovery: () => registry.discover(),
        invokeTool: (name, params) => callTool(registry.discover(), name, params, { paths: registry.paths }),
        env: process.env,
        runsRoot: runsRootOf(registry.paths.tmpRoot),
      }),
    );
  },
};
