// Mapping a parsed command line onto the verb that runs it.
import type { ParsedCommandLine } from "./argv.js";
import { loadVerb, verbUsage } from "./verbs/index.js";
import type { VerbOutcome } from "./verbs/types.js";

export type { VerbOutcome } from "./verbs/types.js";

export function usageText(): string {
  return `usage: pi-recipes <verb> [key=value ...] [--json]
verbs:
${verbUsage().map((u) => `  ${u}`).join("\n")}
values that parse as JSON (numbers, true/false, null, arrays, objects, "quoted") are JSON, others strings.
environment: PI_CODING_AGENT_DIR (default ~/.pi/agent); recipes live in <agent>/recipes/*.json|*.md
exit status: 0 success, 1 the registry answered with an error, 2 malformed command line
`;
}

export async function runVerb(cmd: ParsedCommandLine): Promise<VerbOutcome> {
  const verb = await loadVerb(cmd.verb);
  return verb === undefined ? { kind: "usage", error: `unknown verb "${cmd.verb}"` } : verb.run(cmd);
}
