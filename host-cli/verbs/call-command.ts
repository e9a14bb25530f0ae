import type { CommandResult } from "../../core/result.js";
import type { RuntimeSession } from "../../runtime/session.js";
import { portfolioCycleAfterCommand } from "../idle-review.js";
import type { ParsedCommandLine } from "../argv.js";
import { expectPositional, result, type CliVerb, type VerbOutcome } from "./cli-verb.js";

/** `call <tool>` in a session: the tool (from its one compile cache entry when the list index is
 *  current, else from a discovery: runtime/registry.ts toolNamed), then the one launch path
 *  (runtime/launch.ts). */
export async function callIn(session: RuntimeSession, name: string, params: Readonly<Record<string, unknown>>, extra?: Parameters<RuntimeSession["callContext"]>[0]): Promise<CommandResult> {
  const { callNamed } = await import("../../runtime/verbs/call.js");
  const first = await callNamed(session.toolNamed(name), name, params, session.callContext(extra));
  // the recipe file changed between finding the tool and launching it (the launch checks the
  // bytes the tool was built from; nothing ran): a command line has no tool list to reload, so
  // the tool is found again, as it is now, and called once more
  if (first.ok || first.details["stale"] !== true) return first;
  const again = session.toolNamed(name, true);
  // gone or no tool any more (an activation renamed it): the refusal says why better
  const still = "tool" in again || ("discovery" in again && again.discovery.tools.some((t) => t.name === name));
  return still ? callNamed(again, name, params, session.callContext(extra)) : first;
}

export const callVerb: CliVerb = {
  name: "call",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name, then key=value arguments");
    if (bad !== undefined) return bad;
    const session = await host.openSession();
    const outcome = await callOnce(cmd, session);
    // the command's work is done and its launch folded: the boundary where a reviewer may run
    await portfolioCycleAfterCommand(session);
    return outcome;
  },
};

/** the call itself; the session is closed (its launch folded) before this returns */
async function callOnce(cmd: ParsedCommandLine, session: RuntimeSession): Promise<VerbOutcome> {
  try {
    const { interruptible, afterSignal } = await import("../interrupt.js");
    const { value, signal } = await interruptible((abort) => callLive(cmd, session, abort));
    if (signal === undefined || value.kind !== "result") return value;
    return afterSignal(value.result, signal);
  } finally {
    await session.close();
  }
}

/** the call, its output shown as it comes on a terminal (or with --stream); `abort` ends it */
async function callLive(cmd: ParsedCommandLine, session: RuntimeSession, abort: AbortSignal): Promise<VerbOutcome> {
  // the live output goes to stderr, so stdout stays the result alone
  const live = cmd.stream === true || process.stderr.isTTY === true;
  if (!live) return result(await callIn(session, cmd.positional[0]!, cmd.params, { signal: abort }));
  const [{ nodeProcessRunner }, { withOutputLines }] = await Promise.all([
    import("../../adapters/process/node-runner.js"),
    import("../../runtime/execute/output-lines.js"),
  ]);
  const shown: string[] = [];
  const runner = withOutputLines(nodeProcessRunner, ({ stream, line }) => {
    if (stream === "stdout") shown.push(line);
    process.stderr.write(`${line}\n`);
  });
  const answer = await callIn(session, cmd.positional[0]!, cmd.params, { runner, signal: abort });
  // stdout and stderr on the same terminal: the person has just watched this very text go by,
  // so printing it again would show every line twice
  const sameScreen = process.stdout.isTTY === true && process.stderr.isTTY === true && cmd.json !== true;
  if (sameScreen && answer.ok && answer.text === shown.join("\n").trim()) return { kind: "exit", code: 0 };
  return result(answer);
}
