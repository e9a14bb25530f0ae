import { readFile } from "node:fs/promises";
import { agentPaths, packageInfo } from "../../runtime/agent-paths.js";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const reviewVerb: CliVerb = {
  name: "review",
  usage: [
    "review [scope=draft] [--scripted FILE]        run one automatic draft review cycle now (reply from FILE, else $PI_RECIPES_REVIEWER)",
    "review scope=tool [--scripted FILE]           run one tool portfolio review now (36 tools; says how many are eligible)",
  ],
  examples: ["review", "review --scripted reply.txt", "review scope=tool --scripted portfolio-reply.txt", "inspect target=recipes view=reviews"],
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const { reviewNow } = await import("../../runtime/verbs/review.js");
    return result(
      await reviewNow(cmd.params, {
        paths: agentPaths(process.env),
        env: process.env,
        packagedRoot: packageInfo().packagedRecipeRoot,
        readFile: (p) => readFile(p, "utf8"),
      }),
    );
  },
};
