import type { CliValue } from "../argv.js";
import type { RuntimeSession } from "../../runtime/session.js";
import { expectPositional, result, type CliVerb, type VerbOutcome } from "./cli-verb.js";

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

const listing = async (session: RuntimeSession): Promise<VerbOutcome> => result((await import("../../runtime/verbs/list.js")).listTools(session.toolList()));

export const registerToolVerb: CliVerb = {
  name: "register_tool",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const params = asParams(cmd.params);
    // With no fields register_tool lists the tools: the answer `list` gives, from the same list
    // index when it holds (no recipe compiled, no compile code loaded). It only reads, so it takes
    // no lock either: the stray-temp housekeeping takes locks in the recipe root, which a root
    // this user may read but not write cannot give (a plan a killed command left is settled before
    // any verb reads: host-cli/main.ts).
    const session = await host.openSession();
    try {
      if (Object.keys(params).length === 0) return await listing(session);
      const [{ cleanStrayRecipeTemps }, { planLocks }] = await Promise.all([import("../../runtime/startup.js"), import("../../core/register/plan-register.js")]);
      // fields that name nothing (`name=`, `draft=`) list too
      if (planLocks(params, { userRoot: session.paths.recipeRoot, cwd: session.paths.cwd }).kind === "list") return await listing(session);
      await cleanStrayRecipeTemps(session);
      return result(await session.register(params));
    } finally {
      await session.close();
    }
  },
};
