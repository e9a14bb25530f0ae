// Mapping a parsed command line onto the runtime's verbs. Later verbs join this table.
import type { CommandResult } from "../core/result.js";
import { openRegistry } from "../runtime/registry.js";
import { inspect } from "../runtime/verbs/inspect.js";
import { listTools } from "../runtime/verbs/list.js";
import { toolSchema } from "../runtime/verbs/schema.js";
import type { ParsedCommandLine } from "./argv.js";

export const USAGE = `usage: pi-recipes <verb> [key=value ...] [--json]
verbs:
  inspect target=recipes view=status|summary|doctor [verbose=true]
  inspect target=tool:<name>
  schema <tool>          the tool's JSON parameter schema
  list                   the registered tools
values that parse as JSON (numbers, true/false, null, arrays, objects, "quoted") are JSON, others strings.
environment: PI_CODING_AGENT_DIR (default ~/.pi/agent); recipes live in <agent>/recipes/*.json|*.md
`;

export type VerbOutcome = { readonly kind: "result"; readonly result: CommandResult } | { readonly kind: "usage"; readonly error: string };

const result = (r: CommandResult): VerbOutcome => ({ kind: "result", result: r });

export function runVerb(cmd: ParsedCommandLine): VerbOutcome {
  const positionalCount = cmd.verb === "schema" ? 1 : 0;
  if (cmd.positional.length !== positionalCount) {
    return positionalCount === 1
      ? { kind: "usage", error: `${cmd.verb} takes exactly one tool name` }
      : { kind: "usage", error: `${cmd.verb} takes key=value arguments only, got "${cmd.positional[0] ?? ""}"` };
  }
  switch (cmd.verb) {
    case "inspect":
      return result(inspect(openRegistry().discover(), cmd.params));
    case "list":
      if (Object.keys(cmd.params).length > 0) return { kind: "usage", error: "list takes no arguments" };
      return result(listTools(openRegistry().discover()));
    case "schema":
      if (Object.keys(cmd.params).length > 0) return { kind: "usage", error: "schema takes only a tool name" };
      return result(toolSchema(openRegistry().discover(), cmd.positional[0]!));
    default:
      return { kind: "usage", error: `unknown verb "${cmd.verb}"` };
  }
}
