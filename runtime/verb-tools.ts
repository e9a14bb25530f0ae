// The agent-facing verbs besides the recipe tools (register_tool, inspect, message, spawn), as
// every host offers them: one name, description and parameter schema each, so the Pi host and
// the MCP host show an agent the same bytes. Hosts add only their protocol's wrapping (Pi's
// label, MCP's annotations).
import type { JsonObject } from "../core/model.js";
import { REGISTER_TOOL_PARAMETERS } from "../core/register/params-schema.js";

export interface VerbTool {
  readonly name: string;
  /** a short human title (MCP annotations, Pi labels) */
  readonly title: string;
  readonly description: string;
  readonly parameters: JsonObject;
  /** one line for a host's system prompt (Pi) */
  readonly promptSnippet: string;
  /** the verb changes nothing (MCP's readOnlyHint) */
  readonly readOnly: boolean;
}

const str = (description: string): JsonObject => ({ type: "string", description });
const bool = (description: string): JsonObject => ({ type: "boolean", description });
const schema = (properties: Record<string, JsonObject>, required: string[] = []): JsonObject => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

export const REGISTER_TOOL: VerbTool = {
  name: "register_tool",
  title: "Register recipe tool",
  description:
    "List, create, update or delete persistent recipe tools (recipe files in the user recipe root). " +
    "Call without arguments to list them; name + description + template creates one; update=true overwrites " +
    "(fields not given are kept); template=null deletes; name + draft promotes a captured draft. " +
    "The tool list changes at once (a host that fixes the tools of a turn offers the change from the next turn on).",
  parameters: REGISTER_TOOL_PARAMETERS,
  promptSnippet: "Create, update, delete or list persistent recipe tools",
  readOnly: false,
};

export const INSPECT: VerbTool = {
  name: "inspect",
  title: "Inspect recipe registry",
  description:
    "Read-only views of the recipe registry: target=recipes view=status|summary|doctor|imports|reviews [verbose=true]; " +
    "target=tool:<name> for one tool's arguments and template; " +
    "target=tool:pi-actors view=status|triage for the loaded runtime and what needs attention; " +
    "target=run:<id> view=status|tail [lines=N] for an async run.",
  parameters: schema(
    {
      target: str("recipes, tool:<name>, tool:pi-actors, or run:<id>"),
      view: str(
        "The view of the target (recipes: status (default), summary, doctor, imports, reviews; tool:pi-actors: status, triage; run: status, tail).",
      ),
      lines: { type: "integer", minimum: 1, description: "run tail: how many lines of stdout and stderr (default 40)" },
      verbose: bool("Return the full JSON details instead of the compact text."),
    },
    ["target"],
  ),
  promptSnippet: "Inspect the recipe registry, one tool, an async run, or the runtime status",
  readOnly: true,
};

const TEMPLATE: JsonObject = {
  description: "Command template: a string, a template object, or a sequence (array) of steps.",
  anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }],
};

export const MESSAGE: VerbTool = {
  name: "message",
  title: "Message a tool actor",
  description:
    "Send one typed addressed message. to=tool:<name> type=call (or invoke, run, or a type its recipe's mailbox.accepts lists) invokes that recipe tool with body as its arguments; " +
    "to=run:<id> type=control.kill stops an async run (its whole process group); " +
    "to=tool:pi-actors takes type=review.retry or review.reset with body={\"scope\":\"draft\"} or {\"scope\":\"tool\"}.",
  parameters: schema(
    {
      to: str("Destination actor address, e.g. tool:<name>, run:<id> or tool:pi-actors."),
      type: str("Semantic message type, e.g. review.retry."),
      body: {
        description: "Message body: the tool's arguments as a JSON object, or text.",
        anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }],
      },
      verbose: bool("Return full JSON instead of compact text."),
    },
    ["to", "type"],
  ),
  promptSnippet: "Send a typed message to a tool actor (tool:<name>, tool:pi-actors)",
  readOnly: false,
};

export const SPAWN: VerbTool = {
  name: "spawn",
  title: "Run a command template",
  description:
    "Run a command template in the foreground without registering it: template=<command template>, " +
    "file=<recipe path>, or recipe=<recipe name>, with optional values={...}.",
  parameters: schema({
    template: TEMPLATE,
    file: str("Path of a recipe file (.json or .md)."),
    recipe: str("Name of a recipe in the registry."),
    values: { description: "Argument values (JSON object).", anyOf: [{ type: "object", additionalProperties: true }, { type: "string" }] },
  }),
  promptSnippet: "Run an inline command template, a recipe file, or a recipe by name",
  readOnly: false,
};

export const VERB_TOOLS: readonly VerbTool[] = [REGISTER_TOOL, INSPECT, MESSAGE, SPAWN];
