import { openRegistry } from "../../runtime/registry.js";
import { listTools } from "../../runtime/verbs/list.js";
import { expectPositional, result, usageError, type CliVerb } from "./types.js";

export const listVerb: CliVerb = {
  name: "list",
  usage: ["list                      the registered tools"],
  examples: ["list", "list --json"],
  run: (cmd) =>
    expectPositional(cmd, 0, "") ??
    (Object.keys(cmd.params).length > 0 ? usageError("list takes no arguments") : result(listTools(openRegistry().discover()))),
};
