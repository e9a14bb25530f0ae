import { openRegistry } from "../../runtime/registry.js";
import { callTool } from "../../runtime/verbs/call.js";
import { message } from "../../runtime/verbs/message.js";
import { runsRootOf } from "../../runtime/runs/store.js";
import { reviewControlFor } from "../../runtime/review/host.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const messageVerb: CliVerb = {
  name: "message",
  usage: [
    "message to=tool:<name> type=<type> [body=<json|text>]   invoke a tool with body as its arguments",
    "message to=run:<id> type=control.kill                   stop an async run (its whole process group)",
  ],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    return result(
      await message(cmd.params, {
        discovery: () => registry.discover(),
        invokeTool: (name, params) => callTool(registry.discover(), name, params, { paths: registry.paths }),
        env: process.env,
        reviewControl: reviewControlFor(registry.paths, registry.packagedRoot),
        runsRoot: runsRootOf(registry.paths.tmpRoot),
      }),
    );
  },
};
