import type { CommandResult } from "../../core/result.js";
import { openSession, type RuntimeSession } from "../../runtime/session.js";
import { callTool } from "../../runtime/verbs/call.js";
import { expectPositional, result, type CliVerb } from "./types.js";

/** `call <tool>` in a session: one discovery, then the one launch path (runtime/launch.ts). */
export const callIn = (session: RuntimeSession, name: string, params: Readonly<Record<string, unknown>>): Promise<CommandResult> =>
  callTool(session.discovery(), name, params, session.callContext());

export const callVerb: CliVerb = {
  name: "call",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name, then key=value arguments");
    if (bad !== undefined) return bad;
    const session = openSession();
    try {
      return result(await callIn(session, cmd.positional[0]!, cmd.params));
    } finally {
      await session.close();
    }
  },
};
