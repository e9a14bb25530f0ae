import { openRegistry } from "../../runtime/registry.js";
import { inspectWithUsage } from "../../runtime/usage-view.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const inspectVerb: CliVerb = {
  name: "inspect",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    const discovery = registry.discover();
    return result(await inspectWithUsage(discovery, cmd.params, { paths: registry.paths }));
  },
};
