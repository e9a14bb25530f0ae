import { openRegistry } from "../../runtime/registry.js";
import { callTool } from "../../runtime/verbs/call.js";
import { prepareLaunch } from "../../runtime/launch.js";
import { nodeProcessRunner } from "../../adapters/process/node-runner.js";
import { withOutputLines } from "../../runtime/execute/output-lines.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const callVerb: CliVerb = {
  name: "call",
  usage: ["call <tool> [key=value ...] [--stream]  run a tool in the foreground (exit 1 when it fails); --stream shows its output as it runs (default on a terminal)"],
  examples: ["call word_count file=README.md", "call recent_commits count=3 --json"],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 1, "exactly one tool name, then key=value arguments");
    if (bad !== undefined) return bad;
    const name = cmd.positional[0]!;
    const registry = openRegistry();
    // digests first, discovery second: see runtime/launch.ts
    const guard = await prepareLaunch(registry.paths, name);
    try {
      // the live output goes to stderr, so stdout stays the result alone
      const live = cmd.stream === true || process.stderr.isTTY === true;
      const runner = live ? withOutputLines(nodeProcessRunner, ({ line }) => process.stderr.write(`${line}\n`)) : undefined;
      return result(
        await callTool(registry.discover(), name, cmd.params, { paths: registry.paths, launch: (tool) => guard.launch(tool), ...(runner === undefined ? {} : { runner }) }),
      );
    } finally {
      await guard.close();
    }
  },
};
