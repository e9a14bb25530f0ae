// The kept answer of an `inspect target=recipes` (runtime/view-cache.ts), printed when it still
// holds: for the inspect verb (host-cli/inspect-kept.ts, which computes and keeps the answer on a
// miss) and for the front door (host-cli/front-door.ts), which prints it without the registry.
import type { ScanPort } from "../adapters/fs/scan.js";
import { registryContext, type AgentPaths } from "../runtime/agent-paths.js";
import { codeVersion } from "../runtime/compile-cache.js";
import { viewAnswer, viewCachePath, type ViewExpect } from "../runtime/view-cache.js";
import { viewKey, type ViewKey } from "../runtime/view-key.js";
import type { ParsedCommandLine } from "./argv.js";
import { tablesWanted, writeRegistryText } from "./print.js";
import { stdout } from "./std-out.js";
import { openKept } from "./view-file.js";

/** Where the answer is printed: stdout, or a test's collector. `writableLength` is what is queued. */
export interface Out {
  write(chunk: string | Uint8Array): unknown;
  readonly writableLength: number;
}

/** The key of an `inspect` whose answer may be kept (runtime/view-key.ts), as printed now: not the
 *  tables a terminal gets, which are drawn from the answer's details. */
export const keptViewKey = (cmd: Pick<ParsedCommandLine, "params" | "json">, env: NodeJS.ProcessEnv): ViewKey | undefined =>
  cmd.json || !tablesWanted(stdout) ? viewKey(cmd.params, env, cmd.json ? "json" : "text") : undefined;

/** The file of the kept answer for `params` and `key`, and what an answer must have been made for. */
export function keptAnswerPlace(
  ports: { readonly scan: ScanPort; readonly paths: AgentPaths; readonly packagedRoot: string | undefined },
  params: Readonly<Record<string, unknown>>,
  key: ViewKey,
): { readonly path: string; readonly expect: ViewExpect } {
  const { scan, paths, packagedRoot } = ports;
  return {
    path: viewCachePath(paths.recipeRoot, params, key.out),
    expect: { key, version: codeVersion(scan), context: registryContext(paths, packagedRoot), cwd: paths.cwd },
  };
}

/** The kept answer in `path`, printed; false when there is none that holds (nothing printed then). */
export function printKept(scan: ScanPort, path: string, expect: ViewExpect, out: Out): boolean {
  const kept = openKept(path);
  if (kept === undefined) return false;
  try {
    const answer = viewAnswer(scan, kept.header, expect);
    if (answer === undefined || answer.body !== kept.body) return false;
    if (expect.key.out === "text") writeRegistryText(out, answer.text);
    // the answer was checked whole (its size) before a byte of it is printed
    // (stdout to a file, a pipe or a terminal is written synchronously on Linux: nothing queued, the
    // chunk's memory serves the next one; a queued chunk keeps its own)
    else if (!kept.copyBody((chunk) => (out.write(chunk), out.writableLength === 0))) throw new Error(`view cache ${path} ended early while it was printed`);
    return true;
  } finally {
    kept.close();
  }
}
