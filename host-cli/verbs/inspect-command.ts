import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const inspectVerb: CliVerb = {
  name: "inspect",
  usage: [
    "inspect target=recipes view=status|summary|doctor|imports|reviews [verbose=true]",
    "inspect target=tool:<name>",
    "inspect target=tool:pi-actors view=status|triage",
    "inspect target=run:<id> view=status|tail [lines=N]",
  ],
  examples: [
    "inspect target=recipes view=summary",
    "inspect target=recipes view=doctor",
    "inspect target=tool:word_count",
    "inspect target=run:<run id> view=tail lines=40",
  ],
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const [session, { inspectWithUsage }] = await Promise.all([host.openSession(), import("../../runtime/usage-view.js")]);
    try {
      return result(await inspectWithUsage(session.discovery(), cmd.params, { paths: session.paths, fs: session.fs, ledger: session.ledger }));
    } finally {
      await session.close();
    }
  },
};
