import { portfolioCycleAfterCommand } from "../idle-review.js";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const spawnVerb: CliVerb = {
  name: "spawn",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const [{ spawn }, { idleCycle, draftCapturer, reviewPolicy }, { runFacts }, { runsRootOf }, { interruptible, afterSignal }] = await Promise.all([
      import("../../runtime/verbs/spawn.js"),
      import("../../runtime/review/host.js"),
      import("../../runtime/runs/facts.js"),
      import("../../runtime/runs/store.js"),
      import("../interrupt.js"),
    ]);
    // a recipe launched by name or file is a launch like any other: it is counted (runtime/launch.ts)
    const session = await host.openSession();
    const done = await (async () => {
      try {
        // an inline template is captured as a draft (runtime/review/capture-draft.ts); a signal
        // ends what it started (host-cli/interrupt.ts)
        const { value: outcome, signal } = await interruptible((abort) => spawn(session.registry(), cmd.params, { ...session.callContext({ signal: abort }), captureDraft: draftCapturer(session) }));
        if (signal !== undefined) return afterSignal(outcome, signal);
        // the command's work is done: the boundary where a configured reviewer may run a cycle
        if (typeof outcome.details["draft_recipe"] === "string") {
          const active = async (): Promise<number> => (await runFacts(session.fs, runsRootOf(session.paths.tmpRoot))).active_runs.length;
          await idleCycle(session, reviewPolicy(session.env), active);
        }
        return result(outcome);
      } finally {
        await session.close();
      }
    })();
    // then the tool portfolio, when 36 tools are eligible (a draft promoted just now counts)
    await portfolioCycleAfterCommand(session);
    return done;
  },
};
