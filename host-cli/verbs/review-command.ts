import { readFile } from "node:fs/promises";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const reviewVerb: CliVerb = {
  name: "review",
  usage: [
    "review [scope=draft] [--scripted FILE]        run one automatic draft review cycle now (reply from FILE, else $PI_RECIPES_REVIEWER)",
    "review scope=tool [--scripted FILE]           run one tool portfolio review now (36 tools; says how many are eligible)",
  ],
  examples: ["review", "review --scripted reply.txt", "review scope=tool --scripted portfolio-reply.txt", "inspect target=recipes view=reviews"],
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const [session, { reviewNow }] = await Promise.all([host.openSession(), import("../../runtime/verbs/review.js")]);
    try {
      return result(await reviewNow(cmd.params, { ...session, readFile: (p) => readFile(p, "utf8") }));
    } finally {
      await session.close();
    }
  },
};
