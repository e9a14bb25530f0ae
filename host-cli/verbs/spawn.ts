import { basename } from "node:path";
import { prepareLaunch } from "../../runtime/launch.js";
import { openRegistry } from "../../runtime/registry.js";
import { spawn } from "../../runtime/verbs/spawn.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const spawnVerb: CliVerb = {
  name: "spawn",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const registry = openRegistry();
    // a recipe launched by name or file is a launch like any other: count it (runtime/launch.ts)
    const recipe = cmd.params["recipe"];
    const file = cmd.params["file"];
    const name = typeof recipe === "string" ? recipe : typeof file === "string" ? basename(file).replace(/\.(json|md)$/, "") : undefined;
    if (name === undefined) return result(await spawn(registry, cmd.params, { paths: registry.paths }));
    const guard = await prepareLaunch(registry.paths, name);
    try {
      return result(await spawn(registry, cmd.params, { paths: registry.paths, launch: (tool) => guard.launch(tool) }));
    } finally {
      await guard.close();
    }
  },
};
