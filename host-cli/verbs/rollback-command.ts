import { expectPositional, result, type CliVerb } from "./cli-verb.js";
import { VERB_HELP } from "./help-texts.js";

export const rollbackVerb: CliVerb = {
  name: "rollback",
  usage: VERB_HELP.rollback.usage,
  examples: VERB_HELP.rollback.examples,
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
