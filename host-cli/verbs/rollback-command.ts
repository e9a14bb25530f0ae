import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const rollbackVerb: CliVerb = {
  name: "rollback",
  usage: ["rollback tool=NAME revision=N                 restore a tool's revision N from its snapshot (an operator verb)"],
  examples: ["rollback tool=docs_review revision=1", "inspect target=recipes view=reviews"],
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
