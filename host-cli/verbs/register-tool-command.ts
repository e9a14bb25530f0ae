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
    const [{ cleanStrayRecipeTemps }, { planLocks }] = await Promise.all([import("../../runtime/startup.js"), import("../../core/register/plan-register.js")]);
    const params = asParams(cmd.params);
    const session = await host.openSession();
    try {
      // the stray-temp housekeeping goes before a change only: it takes locks in the recipe root,
      // which a root this user may read but not write cannot give, and a listing only reads, as
      // `list` does (a plan a killed command left is settled before any verb reads: host-cli/main.ts)
      if (planLocks(params, { userRoot: session.paths.recipeRoot, cwd: session.paths.cwd }).kind !== "list") await cleanStrayRecipeTemps(session);
      return result(await session.register(params));
    } finally {
      await session.close();
    }
  },
};
