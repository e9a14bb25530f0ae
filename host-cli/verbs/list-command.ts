import { expectPositional, result, usageError, type CliVerb } from "./cli-verb.js";

export const listVerb: CliVerb = {
  name: "list",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "") ?? (Object.keys(cmd.params).length > 0 ? usageError("list takes no arguments") : undefined);
    if (bad !== undefined) return bad;
    // the registry loads here, not with the usage lines (cli-verb.ts)
    const [session, { listTools }] = await Promise.all([host.openSession(), import("../../runtime/verbs/list.js")]);
    try {
      return result(listTools(session.toolList()));
    } finally {
      await session.close();
    }
  },
};
