import { openRegistry } from "../../runtime/registry.js";
import { toolSchema } from "../../runtime/verbs/schema.js";
import { expectPositional, result, usageError, type CliVerb } from "./types.js";

export const schemaVerb: CliVerb = {
  name: "schema",
  usage: ["schema <tool>             the tool's JSON parameter schema"],
  examples: ["schema word_count"],
  run: (cmd) =>
    expectPositional(cmd, 1, "exactly one tool name") ??
    (Object.keys(cmd.params).length > 0
      ? usageError("schema takes only a tool name")
      : result(toolSchema(openRegistry().discover(), cmd.positional[0]!))),
};
