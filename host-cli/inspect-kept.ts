// `inspect target=recipes` through the view cache (runtime/view-cache.ts): the kept answer when it
// still holds, copied out as it was printed; else the answer computed, printed, and kept when the
// computation can vouch for it.
import { recordingFs } from "../runtime/recording-fs.js";
import { clockOnlyHeader, viewClock, viewClockPaths, viewHeader } from "../runtime/view-cache.js";
import type { ViewKey } from "../runtime/view-key.js";
import type { ParsedCommandLine } from "./argv.js";
import { keptAnswerPlace, printKept, type Out } from "./kept-answer.js";
import { writeJson, writeRegistryText } from "./print.js";
import { stdout } from "./std-out.js";
import { keptWriter } from "./view-file.js";
import { result, type CliHost, type VerbOutcome } from "./verbs/cli-verb.js";
import type { CommandResult } from "../core/result.js";

export type { Out } from "./kept-answer.js";

export async function inspectKept(cmd: Pick<ParsedCommandLine, "params">, host: CliHost, key: ViewKey, out: Out = stdout): Promise<VerbOutcome> {
  return (await answerKept(cmd, host, key, out)).outcome;
}

/** inspectKept, saying whether the kept answer was printed ("kept"), the computed answer was
 *  printed and kept ("computed"), or the computed answer is left to the caller to print, nothing
 *  kept ("result") */
export async function answerKept(
  cmd: Pick<ParsedCommandLine, "params">, host: CliHost, key: ViewKey, out: Out = stdout,
): Promise<{ readonly outcome: VerbOutcome; readonly from: "kept" | "computed" | "result" }> {
  const printed = (from: "kept" | "computed") => ({ outcome: { kind: "exit", code: 0 } as const, from });
  const unprinted = (r: CommandResult) => ({ outcome: result(r), from: "result" as const });
  const { ports } = host;
  const { path, expect } = keptAnswerPlace(ports, cmd.params, key);
  if (printKept(ports.scan, path, expect, out)) return printed("kept");

  // the clock, read before anything the computation reads
  const t = viewClock(ports.scan, viewClockPaths(ports.paths.recipeRoot, ports.paths.usageRoot, path));
  const [session, { inspectWithUsage }] = await Promise.all([host.openSession(), import("../runtime/usage-view.js")]);
  try {
    const seen = session.discoverySeen?.();
    const discovery = seen?.discovery ?? session.discovery();
    const recording = recordingFs(session.fs);
    const answer = await inspectWithUsage(discovery, cmd.params, {
      paths: session.paths,
      fs: recording.fs,
      ledger: { ...session.ledger, fs: recording.fs },
      // the environment the key was made from (PI_RECIPES_SANDBOX)
      env: ports.env,
    });
    // an answer without the usage it should show (ledgers unreadable for now) is not kept
    if (!answer.ok || answer.details["usage_unreadable"] !== undefined) return unprinted(answer);
    const sameCode = seen !== undefined && seen.version === expect.version && seen.context === expect.context;
    const header = t === undefined || !sameCode ? undefined : viewHeader(ports.scan, expect, t, seen.seen, recording.reads(), { text: answer.text, body: 0 });
    // nothing is kept for a recipe root that does not exist (the command creates no folder)
    const root = ports.scan.statPath(ports.paths.recipeRoot);
    if (!root.ok || !root.value.isDirectory) return unprinted(answer);
    const writer = keptWriter(path);
    if (header === undefined) {
      // no answer kept; the file's ctime is the next computation's clock
      writer.commit(JSON.stringify(clockOnlyHeader(expect)));
      return unprinted(answer);
    }
    if (key.out === "text") writeRegistryText(out, answer.text);
    else writeJson(true, answer.text, answer.details, { write: (piece: string) => (out.write(piece), writer.write(piece)) });
    writer.commit(JSON.stringify({ ...header, answer: { text: answer.text, body: writer.bytes } }));
    return printed("computed");
  } finally {
    await session.close();
  }
}
