// Keeps Pi's tool list in step with the registry. New and changed tools are (re)registered;
// deleted ones are deactivated, since Pi's extension API has no way to unregister a tool; a
// deleted tool that comes back is registered and activated again.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { publishTool, type PiTool } from "./pi-tool.js";

export interface SyncOutcome {
  readonly published: readonly string[];
  readonly deactivated: readonly string[];
}

/** What the agent sees of a tool; a change of anything else needs no new registration, since
 * every call resolves the recipe it runs anew. */
const shownAs = (spec: ToolSpec): string =>
  JSON.stringify([spec.description, spec.schema, spec.promptSnippet]);

export class ToolSync {
  /** name → what Pi was last given for it, for tools that are live */
  private readonly shown = new Map<string, string>();
  /** registered with Pi once, deleted since: deactivated, their calls refused by the gate */
  private readonly retired = new Set<string>();

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly toolOf: (spec: ToolSpec) => PiTool,
  ) {}

  /** names of recipe tools Pi still lists but the registry no longer has */
  retiredNames(): readonly string[] {
    return [...this.retired];
  }

  sync(discovery: Discovery): SyncOutcome {
    const published: string[] = [];
    const revived: string[] = [];
    const current = new Set<string>();
    for (const spec of discovery.tools) {
      current.add(spec.name);
      const shown = shownAs(spec);
      if (this.shown.get(spec.name) === shown) continue;
      publishTool(this.pi, this.toolOf(spec));
      this.shown.set(spec.name, shown);
      published.push(spec.name);
      if (this.retired.delete(spec.name)) revived.push(spec.name);
    }
    const deactivated = [...this.shown.keys()].filter((name) => !current.has(name));
    for (const name of deactivated) {
      this.shown.delete(name);
      this.retired.add(name);
    }
    if (deactivated.length > 0 || revived.length > 0) {
      const active = new Set(this.pi.getActiveTools());
      for (const name of deactivated) active.delete(name);
      for (const name of revived) active.add(name);
      this.pi.setActiveTools([...active]);
    }
    return { published, deactivated };
  }
}
