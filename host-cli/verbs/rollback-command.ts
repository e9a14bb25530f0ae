import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const rollbackVerb: CliVerb = {
  name: "rollback",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const { rollbackNow } = await import("../../runtime/verbs/lifecycle.js");
    const session = await host.openSession();
    try {
      return result(await rollbackNow(cmd.params, session));
    } finally {
      await session.close();
    }
  },
};
