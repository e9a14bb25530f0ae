import { expectPositional, result, usageError, type CliVerb } from "./cli-verb.js";

export const schemaVerb: CliVerb = {
  name: "schema",
  usage: ["schema <tool>             the tool's JSON parameter schema"],
  examples: ["schema word_count"],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name") ?? (Object.keys(cmd.params).length > 0 ? usageError("schema takes only a tool name") : undefined);
    if (bad !== undefined) return bad;
    const [{ openRegistry }, { toolSchema }] = await Promise.all([import("../../runtime/registry.js"), import("../../runtime/verbs/schema.js")]);
    return result(toolSchema(openRegistry().discover(), cmd.positional[0]!));
  },
};
