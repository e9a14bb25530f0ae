import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const reviewVerb: CliVerb = {
  name: "review",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const [session, { reviewNow }] = await Promise.all([host.openSession(), import("../../runtime/verbs/review.js")]);
    try {
      // through the session's file system, which reads regular files only: a FIFO named as the
      // scripted reply is an error at once, never a wait for a writer
      const readFile = async (p: string): Promise<string> => new TextDecoder().decode(await session.fs.readFile(p));
      return result(await reviewNow(cmd.params, { ...session, readFile }));
    } finally {
      await session.close();
    }
  },
};
