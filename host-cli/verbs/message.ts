import { message } from "../../runtime/verbs/message.js";
import { runsRootOf } from "../../runtime/runs/store.js";
import { openSession } from "../../runtime/session.js";
import { callIn } from "./call.js";
import { expectPositional, result, type CliVerb } from "./types.js";

export const messageVerb: CliVerb = {
  name: "message",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const session = openSession();
    try {
      return result(
        await message(cmd.params, {
          discovery: () => session.discovery(),
          // the tool runs as `call` runs it: through the one launch path, accounted
          invokeTool: (name, params) => callIn(session, name, params),
          env: session.env,
          runsRoot: runsRootOf(session.paths.tmpRoot),
        }),
      );
    } finally {
      await session.close();
    }
  },
};
