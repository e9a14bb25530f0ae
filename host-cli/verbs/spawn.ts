import { openSession } from "../../runtime/session.js";
import { spawn } from "../../runtime/verbs/spawn.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const spawnVerb: CliVerb = {
  name: "spawn",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    // a recipe launched by name or file is a launch like any other: it is counted (runtime/launch.ts)
    const session = openSession();
    try {
      return result(await spawn(session.registry(), cmd.params, session.callContext()));
    } finally {
      await session.close();
    }
  },
};
