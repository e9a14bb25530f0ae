// The agent-facing tools besides the recipes: register_tool, inspect, message and spawn. Their
// names, descriptions and schemas are the ones every host offers (runtime/verb-tools.ts); each is
// a thin call of the runtime verb the CLI runs too, so every host answers with the same texts.
import { inspectWithUsage } from "../runtime/usage-view.js";
import { join } from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { planLocks } from "../core/register/plan-register.js";
import { INSPECT, MESSAGE, REGISTER_TOOL, SPAWN, type VerbTool } from "../runtime/verb-tools.js";
import { message } from "../runtime/verbs/message.js";
import { spawn } from "../runtime/verbs/spawn.js";
import { runsRootOf } from "../runtime/runs/store.js";
import { draftCapturer, reviewControlFor } from "../runtime/review/host.js";
import type { HostSession } from "./pi-session.js";
import { runRecipeTool } from "./recipe-tools.js";
import { toPiResult, type PiTool } from "./pi-tool.js";

/** A verb as Pi sees it: the shared definition, plus how this host runs it. */
const piTool = (verb: VerbTool, execute: PiTool["execute"]): PiTool => ({
  name: verb.name,
  label: verb.name,
  description: verb.description,
  parameters: verb.parameters,
  promptSnippet: verb.promptSnippet,
  execute,
});

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
    piTool(REGISTER_TOOL, async (_id, params) => {
      const s = session();
      const before = s.live.current().generation;
      const files = touchedFiles(params, s);
      const result = await s.session.register(params, () => void s.live.refresh(files));
      if (result.ok && s.live.current().generation !== before) s.nextRun.request(result.text.split("\n")[0] ?? "register_tool");
      return toPiResult(result);
    }),
    piTool(INSPECT, async (_id, params) => {
      const s = session();
      const name = toolTarget(params["target"]);
      if (name !== undefined) s.live.refresh(toolFiles(s, name));
      return toPiResult(await inspectWithUsage(s.live.current().discovery, params, { ...s.runtime, paths: s.paths, fs: s.session.fs, ledger: s.session.ledger }));
    }),
    piTool(MESSAGE, async (_id, params, signal, _onUpdate, ctx: ExtensionContext) => {
      const s = session();
      const name = toolTarget(params["to"]);
      if (name !== undefined) s.live.refresh(toolFiles(s, name));
      return toPiResult(
        await message(params, {
          discovery: () => s.live.current().discovery,
          invokeTool: (tool, args) => runRecipeTool(s.recipes, tool, args, signal, ctx),
          env: s.env,
          reviewControl: reviewControlFor(s.session),
          runsRoot: runsRootOf(s.paths.tmpRoot),
          fs: s.session.fs,
        }),
      );
    }),
    piTool(SPAWN, async (_id, params, signal) => {
      const s = session();
      // a recipe spawned by name or file is a launch like any other: accounted (runtime/launch.ts)
      const ctx = s.session.callContext(signal === undefined ? {} : { signal });
      // an inline template is captured as a draft (runtime/review/capture-draft.ts)
      return toPiResult(await spawn(s.registryView(), params, { ...ctx, captureDraft: draftCapturer(s.session) }));
    }),
  ];
}
