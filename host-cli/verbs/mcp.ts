import { serveStdio } from "../../host-mcp/stdio.js";
import { expectPositional, usageError, type CliVerb } from "./types.js";

export const mcpVerb: CliVerb = {
  name: "mcp",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    if (Object.keys(cmd.params).length > 0 || cmd.json) return usageError("mcp takes no arguments");
    const code = await serveStdio();
    // Everything the server opened is closed by now; a handle some library forgot must not keep
    // an orphaned server alive after its client is gone.
    setTimeout(() => process.exit(code), 1000).unref();
    return { kind: "exit", code };
  },
};
