import type { CliValue } from "../argv.js";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

// The command line turns `name=123` into a number; these parameters are texts whatever they look like.
const TEXT_PARAMS = ["name", "description", "draft", "args", "label", "output"];

function asParams(params: Readonly<Record<string, CliValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const key of TEXT_PARAMS) {
    const v = out[key];
    if (typeof v === "number" || typeof v === "boolean") out[key] = String(v);
  }
  return out;
}

export const registerToolVerb: CliVerb = {
  name: "register_tool",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const { cleanStrayRecipeTemps } = await import("../../runtime/startup.js");
    const session = await host.openSession();
    try {
      await cleanStrayRecipeTemps(session);
      return result(await session.register(asParams(cmd.params)));
    } finally {
      await session.close();
    }
  },
};
