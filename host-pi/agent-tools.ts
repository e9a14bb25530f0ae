// The agent-facing tools besides the recipes: register_tool, inspect, message and spawn. Each is
// a thin call of the runtime verb the CLI runs too, so both hosts answer with the same texts.
import { inspectWithUsage } from "../runtime/usage-view.js";
import { join } from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { JsonObject } from "../core/model.js";
import { planLocks } from "../core/register/plan.js";
import { REGISTER_PARAMS } from "../core/register/params.js";
import { registerTool } from "../runtime/register.js";
import { message } from "../runtime/verbs/message.js";
import { spawn } from "../runtime/verbs/spawn.js";
import type { HostSession } from "./session.js";
import { runRecipeTool } from "./recipe-tools.js";
import { toPiResult, type PiTool } from "./pi-tool.js";

const str = (description: string): JsonObject => ({ type: "string", description });
const bool = (description: string): JsonObject => ({ type: "boolean", description });
const obj = (description: string): JsonObject => ({ type: "object", additionalProperties: true, description });
const schema = (properties: Record<string, JsonObject>, required: string[] = []): JsonObject => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const TEMPLATE: JsonObject = {
  description: "Command template: a string, a template object, or a sequence (array) of steps.",
  anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }],
};

function registerParameters(): JsonObject {
  const properties: Record<string, JsonObject> = {
    name: str("Tool name (the recipe file's basename). Omit to list the registered tools."),
    description: str("What the tool does, as the agent should read it."),
    template: {
      description: "Command template (string, object or sequence). null or an empty string deletes the tool.",
      anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }, { type: "null" }],
    },
    args: str('Argument declarations, e.g. "file:path,lang=ru,mode:enum(check,fix)".'),
    update: bool("Overwrite an existing tool; omitted fields keep their stored values."),
    async: bool("Run the recipe as a detached async run."),
    draft: str("Path of a draft under recipes/drafts to promote into this tool."),
    values: obj("Recipe values."),
  };
  // the co-located recipe fields (registry-reference §2.1) are accepted as given
  for (const key of REGISTER_PARAMS) properties[key] ??= { description: `Recipe field ${key}.` };
  return schema(properties);
}

/** Every file a register_tool call may change, so the live registry re-reads exactly those. */
export function touchedFiles(params: Readonly<Record<string, unknown>>, session: HostSession): string[] | undefined {
  const plan = planLocks(params, { userRoot: session.paths.recipeRoot, cwd: session.paths.cwd });
  if (plan.kind !== "lock") return undefined;
  return plan.paths.flatMap((p) => (p.endsWith(".json") && !p.startsWith(session.paths.draftRoot) ? [p, p.slice(0, -5) + ".md"] : [p]));
}

const toolFiles = (session: HostSession, name: string): string[] => [
  join(session.paths.recipeRoot, `${name}.json`),
  join(session.paths.recipeRoot, `${name}.md`),
];

/** `tool:<name>` → name, for routes that must see a just-deleted recipe as gone */
const toolTarget = (value: unknown): string | undefined =>
  typeof value === "string" && value.startsWith("tool:") && value.length > 5 && !value.includes("/") ? value.slice(5) : undefined;

export function agentTools(session: () => HostSession): PiTool[] {
  return [
    {
      name: "register_tool",
      label: "register_tool",
      description:
        "List, create, update or delete persistent recipe tools (recipe files in the user recipe root). " +
        "Call without arguments to list them; name + description + template creates one; update=true overwrites; " +
        "template=null deletes; name + draft promotes a captured draft. A new or changed tool is callable from the next turn on.",
      parameters: registerParameters(),
      promptSnippet: "Create, update, delete or list persistent recipe tools",
      execute: async (_id, params) => {
        const s = session();
        const before = s.live.current().generation;
        const files = touchedFiles(params, s);
        const result = await registerTool(params, {
          paths: s.paths,
          fs: s.fs,
          lock: s.lock,
          ...(s.packagedRoot === undefined ? {} : { packagedRoot: s.packagedRoot }),
          refresh: () => {
            s.live.refresh(files);
          },
        });
        if (result.ok && s.live.current().generation !== before) s.nextRun.request(result.text.split("\n")[0] ?? "register_tool");
        return toPiResult(result);
      },
    },
    {
      name: "inspect",
      label: "inspect",
      description:
        "Read-only views: target=recipes view=status|summary|doctor|imports|reviews [verbose=true]; " +
        "target=tool:<name> for one tool; target=tool:pi-actors view=status|triage for the loaded runtime and what needs attention.",
      parameters: schema(
        {
          target: str("recipes, tool:<name>, or tool:pi-actors"),
          view: str("The view of the target (recipes: status, summary, doctor, imports, reviews; tool:pi-actors: status, triage)."),
          verbose: bool("Return the full JSON details instead of the compact text."),
        },
        ["target"],
      ),
      promptSnippet: "Inspect the recipe registry, one tool, or the runtime status",
      execute: async (_id, params) => {
        const s = session();
        const name = toolTarget(params["target"]);
        if (name !== undefined) s.live.refresh(toolFiles(s, name));
        return toPiResult(await inspectWithUsage(s.live.current().discovery, params, { ...s.runtime, paths: s.paths }));
      },
    },
    {
      name: "message",
      label: "message",
      description:
        "Send one typed addressed message. to=tool:<name> invokes that recipe tool with body as its arguments; " +
        "to=tool:pi-actors takes type=review.retry or review.reset with body={\"scope\":\"draft\"} or {\"scope\":\"tool\"}.",
      parameters: schema(
        {
          to: str("Destination actor address, e.g. tool:<name> or tool:pi-actors."),
          type: str("Semantic message type, e.g. review.retry."),
          body: {
            description: "Message body: the tool's arguments as a JSON object, or text.",
            anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }],
          },
          from: str("Optional sender address."),
          summary: str("Optional short human-facing summary."),
          correlation_id: str("Optional correlation id for workflow linkage."),
          metadata: obj("Optional structured metadata."),
          reply_to: str("Optional message id this message replies to."),
          verbose: bool("Return full JSON instead of compact text."),
        },
        ["to", "type"],
      ),
      promptSnippet: "Send a typed message to a tool actor (tool:<name>, tool:pi-actors)",
      execute: async (_id, params, signal, _onUpdate, ctx: ExtensionContext) => {
        const s = session();
        const name = toolTarget(params["to"]);
        if (name !== undefined) s.live.refresh(toolFiles(s, name));
        return toPiResult(
          await message(params, {
            discovery: () => s.live.current().discovery,
            invokeTool: (tool, args) => runRecipeTool(s.recipes, tool, args, signal, ctx),
            env: s.env,
          }),
        );
      },
    },
    {
      name: "spawn",
      label: "spawn",
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
      execute: async (_id, params, signal) => {
        const s = session();
        return toPiResult(await spawn(s.registryView(), params, { paths: s.paths, ...(signal === undefined ? {} : { signal }) }));
      },
    },
  ];
}
