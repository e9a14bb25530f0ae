import { keptViewKey } from "../kept-answer.js";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const inspectVerb: CliVerb = {
  name: "inspect",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    // the recipe views keep their answer for the next identical command (runtime/view-cache.ts)
    const key = keptViewKey(cmd, host.ports.env);
    if (key !== undefined) return (await import("../inspect-kept.js")).inspectKept(cmd, host, key);
    const [session, { inspectWithUsage }] = await Promise.all([host.openSession(), import("../../runtime/usage-view.js")]);
    try {
      return result(await inspectWithUsage(session.discovery(), cmd.params, { paths: session.paths, fs: session.fs, ledger: session.ledger }));
    } finally {
      await session.close();
    }
  },
};
