// One Pi tool per active recipe. A call is resolved by name against the registry as it is at
// call time, not against the definition Pi froze for the run: a recipe edited since runs its new
// content, and a deleted one is refused by this gate (Pi cannot unregister a published tool, so
// its stale definition stays callable until the session reloads).
import { digestOf } from "../runtime/launch.js";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { ToolSpec } from "../core/discovery/types.js";
import { executableFingerprint } from "../core/ledger/fingerprint.js";
import { failure, type CommandResult } from "../core/result.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import type { AgentPaths } from "../runtime/agent-paths.js";
import { recordLaunch, type LedgerContext } from "../runtime/ledger/index.js";
import type { LiveRegistry } from "../runtime/live-registry.js";
import { runTool, type CallContext } from "../runtime/verbs/call.js";
import { whyNotATool } from "../runtime/verbs/schema.js";
import { toPiResult, type PiTool } from "./pi-tool.js";

export interface RecipeRuntime {
  readonly live: LiveRegistry;
  readonly paths: AgentPaths;
  readonly fs: FileSystem;
  /** launch accounting; absent: calls run uncounted */
  readonly ledger?: LedgerContext;
  /** the session's values over the call's (`current_model`, `current_thinking`) */
  readonly injected: (ctx: ExtensionContext | undefined) => Readonly<Record<string, unknown>>;
}

export const removedToolText = (name: string, why: string): string =>
  `Tool "${name}" is not in the recipe registry any more: ${why}. ` +
  "Its stale definition stays visible until the session reloads; do not call it.";

/** Only the injected names the tool declares: a value it does not take would be an unknown argument. */
function injectedFor(spec: ToolSpec, injected: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(injected)) if (v !== undefined && spec.surface.names.includes(k)) out[k] = v;
  return out;
}

/**
 * Runs the recipe tool `name` with the call's params. The recipe's files are read again first, so
 * that an external edit or delete counts at once, without waiting for the watcher. Their bytes
 * are digested *before* that refresh: if the file changes between the two reads, accounting sees
 * a digest older than the loaded content and rejects (reload and retry), never the other way.
 */
export async function runRecipeTool(
  rt: RecipeRuntime,
  name: string,
  params: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
  ctx: ExtensionContext | undefined,
): Promise<CommandResult> {
  const files = [join(rt.paths.recipeRoot, `${name}.json`), join(rt.paths.recipeRoot, `${name}.md`)];
  const digests = new Map<string, string | undefined>();
  for (const file of files) digests.set(file, await digestOf(rt.fs, file));
  rt.live.refresh(files);
  const { discovery, generation } = rt.live.current();
  const fenced = rt.live.fence(name, generation);
  if (E.isLeft(fenced)) {
    const known = discovery.tools.some((t) => t.name === name);
    return failure(known ? fenced.left : removedToolText(name, whyNotATool(discovery, name).replace(/\.$/, "")), { tool: name, removed: !known });
  }
  const spec = fenced.right;
  let accounting: string | undefined;
  if (rt.ledger !== undefined) {
    const sourceSha256 = digests.has(spec.path) ? digests.get(spec.path) : await digestOf(rt.fs, spec.path);
    if (sourceSha256 !== undefined) {
      const launch = await recordLaunch(rt.ledger, { path: spec.path, name, fingerprint: executableFingerprint(spec.config), sourceSha256 });
      if (!launch.ok) return failure(launch.rejected, { tool: name, path: spec.path });
      accounting = launch.diagnostic;
    }
  }
  const callCtx: CallContext = {
    paths: rt.paths,
    injected: injectedFor(spec, rt.injected(ctx)),
    ...(signal === undefined ? {} : { signal }),
  };
  const result = await runTool(spec, params, callCtx);
  return accounting === undefined ? result : { ...result, details: { ...result.details, usage_diagnostic: accounting } };
}

/** The Pi tool of one recipe: what the agent sees comes from the spec, what runs is resolved per call. */
export function recipeTool(spec: ToolSpec, rt: RecipeRuntime): PiTool {
  return {
    name: spec.name,
    label: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    promptSnippet: spec.promptSnippet,
    execute: async (_id, params, signal, _onUpdate, ctx) => toPiResult(await runRecipeTool(rt, spec.name, params, signal, ctx)),
  };
}
