import { expectPositional, result, usageError, type CliVerb } from "./cli-verb.js";

export const schemaVerb: CliVerb = {
  name: "schema",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name") ?? (Object.keys(cmd.params).length > 0 ? usageError("schema takes only a tool name") : undefined);
    if (bad !== undefined) return bad;
    const [session, { schemaOfNamed }] = await Promise.all([host.openSession(), import("../../runtime/verbs/schema.js")]);
    try {
      // the one tool, from its compile cache entry when the list index is current
      const name = cmd.positional[0]!;
      return result(schemaOfNamed(session.toolNamed(name), name));
    } finally {
      await session.close();
    }
  },
};
