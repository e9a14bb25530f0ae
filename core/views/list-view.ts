// What `list` shows of a discovery: the tool names in their order, and the registry's errors (a
// recipe that failed to load, a root that cannot be read), so that a broken file is never silently
// missing from the list. Plain data: the list index (runtime/list-index.ts) keeps it as it is.
import type { Discovery } from "../discovery/discovery-result.js";
import { diagnosticSeverity, diagnosticTags } from "./diagnostics.js";

export interface ToolList {
  readonly names: readonly string[];
  /** the diagnostics of error severity, in the discovery's order */
  readonly problems: readonly string[];
}

export function toolListOf(discovery: Discovery): ToolList {
  const tagOf = diagnosticTags(discovery);
  return { names: discovery.tools.map((t) => t.name), problems: discovery.diagnostics.filter((d) => diagnosticSeverity(d, tagOf(d)) === "error") };
}
