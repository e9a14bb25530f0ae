import { expectPositional, result, type CliVerb } from "./cli-verb.js";
import { VERB_HELP } from "./help-texts.js";

export const activateVerb: CliVerb = {
  name: "activate",
  usage: VERB_HELP.activate.usage,
  examples: VERB_HELP.activate.examples,
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
