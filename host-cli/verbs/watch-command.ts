// `pi-recipes watch`: follows the recipe root and prints each change of the tool set as it
// happens, one line per change (`--json`: JSON lines), until SIGINT or SIGTERM or until its
// stdout's reader has gone.
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolSetChange } from "../../runtime/live-registry.js";
import { expectPositional, usageError, type CliVerb } from "./cli-verb.js";
import { terminalSafe } from "../print.js";
import { stdout } from "../std-out.js";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export function summaryLine(root: string, discovery: Discovery, generation: number, parentOnly: boolean): string {
  const counts = `${plural(discovery.tools.length, "tool")}, ${plural(discovery.diagnostics.length, "diagnostic")}, ${plural(discovery.drafts.length, "draft")}`;
  return `watching ${root}: ${counts} (generation ${generation})${parentOnly ? "; the root is missing, watching its parent" : ""}`;
}

/** `+ name`, `~ name`, `- name`, then `! diagnostics: ...` and `# drafts: n` when those changed. */
export function changeLines(change: ToolSetChange, before: Discovery, after: Discovery): string[] {
  const lines = [...change.added.map((n) => `+ ${n}`), ...change.changed.map((n) => `~ ${n}`), ...change.removed.map((n) => `- ${n}`)];
  if (change.diagnosticsChanged) {
    const had = new Set(before.diagnostics);
    const appeared = after.diagnostics.filter((d) => !had.has(d));
    lines.push(`! diagnostics: ${after.diagnostics.length}${appeared.length > 0 ? ` (new: ${appeared.join(" | ")})` : ""}`);
  }
  if (change.draftsChanged) lines.push(`# drafts: ${after.drafts.length}`);
  return lines;
}

/** Until SIGINT or SIGTERM, or until stdout is gone (`pi-recipes watch | head -3` ends when `head`
 *  does; a stdout that failed otherwise has been said, with exit status 1, by std-out.ts). */
const untilStopped = (): Promise<void> =>
  new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    stdout.whenGone(stop);
  });

export const watchVerb: CliVerb = {
  name: "watch",
  run: async (cmd, host) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    if (Object.keys(cmd.params).length > 0) return usageError("watch takes no arguments");
    const stopped = untilStopped();
    // (a line names recipes and diagnostics: their control characters escaped, as printResult does)
    const out = (line: string): void => void stdout.write(terminalSafe(line) + "\n");
    const { openLiveRegistry } = await import("../../runtime/live-registry.js");
    // the session's ports and place; the live registry follows the roots, and nothing is launched
    const session = await host.openSession();
    const live = openLiveRegistry({
      paths: session.paths,
      scan: session.scan,
      packagedRoot: session.packagedRoot ?? null,
      onError: (e) => process.stderr.write(`pi-recipes watch: ${e.message}\n`),
    });
    await live.start();
    const { discovery, generation } = live.current();
    let seen = discovery;
    const root = live.paths.recipeRoot;
    if (cmd.json) {
      const { tools, diagnostics, drafts } = seen;
      out(JSON.stringify({ event: "ready", root, mode: live.watchMode(), generation, tools: tools.map((t) => t.name), diagnostics, drafts: drafts.map((d) => d.path) }));
    } else {
      out(summaryLine(root, seen, generation, live.watchMode() === "parent"));
    }
    live.subscribe((change) => {
      const now = live.current().discovery;
      if (cmd.json) {
        out(JSON.stringify({
          event: "change",
          ...change,
          tools: now.tools.length,
          ...(change.diagnosticsChanged ? { diagnostics: now.diagnostics } : {}),
          ...(change.draftsChanged ? { drafts: now.drafts.map((d) => d.path) } : {}),
        }));
      } else {
        for (const line of changeLines(change, seen, now)) out(line);
      }
      seen = now;
    });
    await stopped;
    await live.close();
    await session.close();
    return { kind: "exit", code: 0 };
  },
};
