// The one launch path every host takes to run a recipe tool: the host's gate has already chosen
// the tool (MCP: shown-definition gate; Pi: the live registry's generation fence; CLI: a fresh
// discovery), then `launch` validates the arguments, accounts the launch in the usage ledger
// (the recipe-root fence and the source check happen there) and executes.
//
// What the source check compares: the tool carries `sourceSha256`, the digest of the very bytes
// discovery compiled it from. The ledger reads the file once more, under the fence, and refuses
// the launch (reload and retry) when the file no longer holds those bytes. So a file edited
// between discovery and launch is never run or counted under the wrong source, and no host reads
// the recipe file a second time just to learn what the tool was loaded from.
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { carriedUsage } from "../core/ledger/seed.js";
import type { CommandResult } from "../core/result.js";
import { recordLaunch, type LedgerContext } from "./ledger/index.js";
import { runChecked, unaccountedLaunch, type CallContext, type LaunchCheck } from "./verbs/call.js";

/** Counts one launch of `tool` in `ledger`, or says why it must not run. Without a ledger (a
 *  host that does not account) every launch may run. */
export async function accountLaunch(ledger: LedgerContext | undefined, tool: ToolSpec): Promise<LaunchCheck> {
  if (ledger === undefined) return { ok: true };
  const outcome = await recordLaunch(ledger, {
    path: tool.path,
    name: tool.name,
    fingerprint: executableFingerprint(tool.config),
    // a tool built without a digest cannot vouch for its source: under the recipe root the check
    // then fails like a changed file (reload and retry); elsewhere nothing is accounted anyway
    sourceSha256: tool.sourceSha256 ?? "",
    // a recipe still holding pi-actors' own launch count starts its lineage from it
    ...carriedOf(tool),
  });
  if (!outcome.ok) return { ok: false, rejected: outcome.rejected };
  return outcome.diagnostic === undefined ? { ok: true } : { ok: true, diagnostic: outcome.diagnostic };
}

function carriedOf(tool: ToolSpec): { carried?: NonNullable<ReturnType<typeof carriedUsage>> } {
  const carried = carriedUsage(tool.config.usage);
  return carried === undefined ? {} : { carried };
}

/** What to do when the ledger refuses a launch (a live registry re-reads the tool's file, so the
 *  next listing shows what is there now). */
export type OnRejected = (tool: ToolSpec) => void;

/** The call context whose launches are accounted in `ledger`. */
export const accountedContext = (ledger: LedgerContext | undefined, ctx: Omit<CallContext, "launch">, onRejected?: OnRejected): CallContext => ({
  ...ctx,
  launch: launchCheck(ledger, onRejected),
});

const launchCheck = (ledger: LedgerContext | undefined, onRejected: OnRejected | undefined): ((tool: ToolSpec) => Promise<LaunchCheck>) =>
  ledger === undefined
    ? unaccountedLaunch
    : async (tool) => {
      const check = await accountLaunch(ledger, tool);
      if (!check.ok) onRejected?.(tool);
      return check;
    };

/** Runs `tool` with the call's params: arguments validated, launch accounted, then executed. A
 *  rejected launch (source changed, fence timeout) runs nothing and is a failure naming the file. */
export function launch(
  ledger: LedgerContext | undefined,
  tool: ToolSpec,
  params: Readonly<Record<string, unknown>>,
  ctx: Omit<CallContext, "launch">,
  onRejected?: OnRejected,
): Promise<CommandResult> {
  // the same check accountedContext installs, without copying the context on every launch
  return runChecked(tool, params, ctx, launchCheck(ledger, onRejected));
}
