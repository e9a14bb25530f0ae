// What `list` shows of a discovery: the tool names in their order, and the registry's errors (a
// recipe that failed to load, a root that cannot be read), so that a broken file is never silently
// missing from the list; and the recipe roots that could not be listed, whose tools are all
// missing from it (such a list is no complete answer: runtime/verbs/list.ts). Plain data: the list
// index (runtime/list-index.ts) keeps it as it is.
import type { Discovery } from "../discovery/discovery-result.js";
import { diagnosticSeverity, diagnosticTags } from "./diagnostics.js";

export interface ToolList {
  readonly names: readonly string[];
  /** the diagnostics of error severity, in the discovery's order */
  readonly problems: readonly string[];
  /** the recipe roots that are there but could not be listed (their errors are among `problems`);
   *  absent when every root was listed */
  readonly unlisted?: readonly string[];
}

export function toolListOf(discovery: Discovery): ToolList {
  const tagOf = diagnosticTags(discovery);
  const names = discovery.tools.map((t) => t.name);
  const problems = discovery.diagnostics.filter((d) => diagnosticSeverity(d, tagOf(d)) === "error");
  // (a drafts folder that could not be listed is one of the problems: the tools are all there)
  const unlisted = discovery.unlisted.flatMap((u) => (u.kind === "root" ? [u.dir] : []));
  return unlisted.length === 0 ? { names, problems } : { names, problems, unlisted };
}
