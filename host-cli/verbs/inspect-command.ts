import { keptViewKey } from "../kept-answer.js";
import { INSPECT_TARGETS } from "../../runtime/view-key.js";
import { expectPositional, result, usageError, type CliVerb } from "./cli-verb.js";

export const inspectVerb: CliVerb = {
  name: "inspect",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    // a bare `inspect` names nothing to inspect: malformed (exit 2), as `schema` without a tool is,
    // before any registry is opened (with other keys, the key check names a mistyped `target`)
    if (Object.keys(cmd.params).length === 0) return usageError(`inspect requires ${INSPECT_TARGETS}`);
    // the recipe views keep their answer for the next identical command (runtime/view-cache.ts)
    const key = keptViewKey(cmd, host.ports.env);
    if (key !== undefined) return (await import("../inspect-kept.js")).inspectKept(cmd, host, key);
    const [session, { inspectWithUsage }, { recipeToolTarget, inspectFound }] = await Promise.all([
      host.openSession(),
      import("../../runtime/usage-view.js"),
      import("../../runtime/verbs/inspect.js"),
    ]);
    try {
      // one recipe tool: from its compile cache entry when the list index is current, as `call`
      const name = recipeToolTarget(cmd.params);
      const shown = name === undefined ? undefined : inspectFound(session.toolNamed(name), name, process.env);
      if (shown !== undefined) return result(shown);
      return result(await inspectWithUsage(session.discovery(), cmd.params, { paths: session.paths, fs: session.fs, ledger: session.ledger }));
    } finally {
      await session.close();
    }
  },
};
