// One Pi tool per active recipe. A call is resolved by name against the registry as it is at
// call time, not against the definition Pi froze for the run: a recipe edited since runs its new
// content, and a deleted one is refused by this gate (Pi cannot unregister a published tool, so
// its stale definition stays callable until the session reloads).
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { failure, type CommandResult } from "../core/result.js";
import type { LiveSession } from "../runtime/session.js";
import { whyNotATool } from "../runtime/verbs/schema.js";
import { toPiResult, type PiTool } from "./pi-tool.js";
import { nodeProcessRunner } from "../adapters/process/node-runner.js";
import { withOutputLines } from "../runtime/execute/output-lines.js";

export interface RecipeRuntime {
  /** the registry, its ledger and the one launch path */
  readonly session: LiveSession;
  /** the session's values over the call's (`current_model`, `current_thinking`) */
  readonly injected: (ctx: ExtensionContext | undefined) => Readonly<Record<string, unknown>>;
}

/** `why` ends in its own stop when it ends in a question or exclamation mark ("Did you mean …?") */
export const removedToolText = (name: string, why: string): string =>
  `Tool "${name}" is not in the recipe registry any more: ${why}${/[.?!]$/.test(why) ? "" : "."} ` +
  "Its stale definition stays visible until the session reloads; do not call it.";

/** Only the injected names the tool declares: a value it does not take would be an unknown argument. */
function injectedFor(spec: ToolSpec, injected: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(injected)) if (v !== undefined && spec.surface.names.includes(k)) out[k] = v;
  return out;
}

/**
 * Runs the recipe tool `name` with the call's params. The recipe's files are read again first, so
 * that an external edit or delete counts at once, without waiting for the watcher; the tool that
 * read compiles carries the digest of the bytes it saw, which launch accounting checks the file
 * against (runtime/launch.ts), so nothing is read a second time to account the launch.
 */
export async function runRecipeTool(
  rt: RecipeRuntime,
  name: string,
  params: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
  ctx: ExtensionContext | undefined,
  /** sees each line the commands print while the tool runs (Pi's streaming tool updates) */
  onLine?: (line: string) => void,
): Promise<CommandResult> {
  const { session } = rt;
  const { live, paths } = session;
  live.refresh([join(paths.recipeRoot, `${name}.json`), join(paths.recipeRoot, `${name}.md`)]);
  const { discovery, generation } = live.current();
  const fenced = live.fence(name, generation);
  if (E.isLeft(fenced)) {
    const known = discovery.tools.some((t) => t.name === name);
    return failure(known ? fenced.left : removedToolText(name, whyNotATool(discovery, name).replace(/\.$/, "")), { tool: name, removed: !known });
  }
  const spec = fenced.right;
  return session.launch(spec, params, {
    paths,
    injected: injectedFor(spec, rt.injected(ctx)),
    ...(signal === undefined ? {} : { signal }),
    ...(onLine === undefined ? {} : { runner: withOutputLines(nodeProcessRunner, ({ line }) => onLine(line)) }),
  });
}

/** How many of the latest output lines a streaming update shows. */
const UPDATE_LINES = 20;

/** Pi's `onUpdate` fed with the latest output lines, or undefined when Pi gave none. */
function lineUpdates(onUpdate: unknown): ((line: string) => void) | undefined {
  if (typeof onUpdate !== "function") return undefined;
  const update = onUpdate as (partial: { content: { type: "text"; text: string }[]; details: Record<string, unknown> }) => void;
  const recent: string[] = [];
  return (line) => {
    recent.push(line);
    if (recent.length > UPDATE_LINES) recent.shift();
    try {
      update({ content: [{ type: "text", text: recent.join("\n") }], details: { streaming: true } });
    } catch {
      // a display that fails must not fail the tool
    }
  };
}

/** The Pi tool of one recipe: what the agent sees comes from the spec, what runs is resolved per call. */
export function recipeTool(spec: ToolSpec, rt: RecipeRuntime): PiTool {
  return {
    name: spec.name,
    label: spec.name,
    description: spec.description,
    parameters: spec.schema,
    promptSnippet: spec.promptSnippet,
    execute: async (_id, params, signal, onUpdate, ctx) => toPiResult(await runRecipeTool(rt, spec.name, params, signal, ctx, lineUpdates(onUpdate))),
  };
}
