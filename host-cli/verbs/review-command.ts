import { readFile } from "node:fs/promises";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const reviewVerb: CliVerb = {
  name: "review",
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
