import { expectPositional, result, usageError, type CliVerb } from "./cli-verb.js";

export const schemaVerb: CliVerb = {
  name: "schema",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name") ?? (Object.keys(cmd.params).length > 0 ? usageError("schema takes only a tool name") : undefined);
    if (bad !== undefined) return bad;
    const [session, { toolSchema }] = await Promise.all([host.openSession(), import("../../runtime/verbs/schema.js")]);
    try {
      return result(toolSchema(session.discovery(), cmd.positional[0]!));
    } finally {
      await session.close();
    }
  },
};
