import { openRegistry } from "../../runtime/registry.js";
import { inspect } from "../../runtime/verbs/inspect.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const inspectVerb: CliVerb = {
  name: "inspect",
  usage: ["inspect target=recipes view=status|summary|doctor|imports|reviews [verbose=true]", "inspect target=tool:<name>"],
  run: (cmd) => expectPositional(cmd, 0, "") ?? result(inspect(openRegistry().discover(), cmd.params)),
};
