import { callIn } from "./call-command.js";
import { expectPositional, result, type CliVerb } from "./cli-verb.js";

export const messageVerb: CliVerb = {
  name: "message",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const [{ message }, { runsRootOf }, { reviewControlFor }] = await Promise.all([
      import("../../runtime/verbs/message.js"),
      import("../../runtime/runs/store.js"),
      import("../../runtime/review/host.js"),
    ]);
    const session = await host.openSession();
    try {
      return result(
        await message(cmd.params, {
          discovery: () => session.discovery(),
          // the tool runs as `call` runs it: through the one launch path, accounted
          invokeTool: (name, params) => callIn(session, name, params),
          env: session.env,
          reviewControl: reviewControlFor(session),
          runsRoot: runsRootOf(session.paths.tmpRoot),
          fs: session.fs,
        }),
      );
    } finally {
      await session.close();
    }
  },
};
