// Mapping a parsed command line onto the verb that runs it (help is host-cli/help.ts).
import type { ParsedCommandLine } from "./argv.js";
import { unknownVerb } from "./help.js";
import { loadVerb } from "./verbs/index.js";
import type { CliHost, VerbOutcome } from "./verbs/cli-verb.js";

export type { VerbOutcome } from "./verbs/cli-verb.js";

export async function runVerb(cmd: ParsedCommandLine, host: () => Promise<CliHost>): Promise<VerbOutcome> {
  const verb = await loadVerb(cmd.verb);
  return verb === undefined ? { kind: "usage", error: unknownVerb(cmd.verb), unknownVerb: true } : verb.run(cmd, await host());
}
