import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const activateVerb: CliVerb = {
  name: "activate",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const { activateNow } = await import("../../runtime/verbs/lifecycle.js");
    const session = await host.openSession();
    try {
      return result(await activateNow(cmd.params, session));
    } finally {
      await session.close();
    }
  },
};
